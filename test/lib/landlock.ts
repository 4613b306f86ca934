/**
 * Landlock from a test: a command that runs the rest of its arguments with no_new_privs set and,
 * for `landlock`, file writes allowed only beneath the folders given (Linux 5.13+, through
 * Python's ctypes, as `landrun` and Codex's sandbox do it). Landlock shows nowhere in /proc, so
 * only a check that it refuses something sees it.
 */
import { execFileSync } from "node:child_process"

/** landlock.py nnp|landlock <folder>... -- <command>... */
const SCRIPT = `
import ctypes, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
mode, rest = sys.argv[1], sys.argv[2:]
sep = rest.index("--")
folders, command = rest[:sep], rest[sep + 1:]
if libc.prctl(38, 1, 0, 0, 0) != 0: sys.exit("no_new_privs: errno %d" % ctypes.get_errno())
if mode == "landlock":
    WRITE = 2 | 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096 | 16384
    attr = struct.pack("QQ", WRITE, 0)
    fd = libc.syscall(444, ctypes.c_char_p(attr), ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    if fd < 0: sys.exit("landlock_create_ruleset: errno %d" % ctypes.get_errno())
    for folder in folders:
        dfd = os.open(folder, os.O_PATH | os.O_CLOEXEC)
        rule = struct.pack("=Qi", WRITE, dfd)
        if libc.syscall(445, ctypes.c_int(fd), ctypes.c_int(1), ctypes.c_char_p(rule), ctypes.c_uint32(0)) != 0: sys.exit("landlock_add_rule: errno %d" % ctypes.get_errno())
        os.close(dfd)
    if libc.syscall(446, ctypes.c_int(fd), ctypes.c_uint32(0)) != 0: sys.exit("landlock_restrict_self: errno %d" % ctypes.get_errno())
    os.close(fd)
os.execvp(command[0], command)
`

/** The arguments that run a command with no_new_privs (`nnp`), or with no_new_privs and writes only beneath `folders` (`landlock`). */
export const wrap = (mode: "nnp" | "landlock", folders: ReadonlyArray<string> = []): ReadonlyArray<string> => ["python3", "-c", SCRIPT, mode, ...folders, "--"]

/** Why Landlock cannot be tried here, or undefined when it can. */
export const unavailable: string | undefined = (() => {
  try {
    execFileSync("python3", [...wrap("landlock", ["/tmp"]).slice(1), "true"], { stdio: "pipe" })
    return undefined
  } catch (error) {
    return `Landlock is not available here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`
  }
})()
