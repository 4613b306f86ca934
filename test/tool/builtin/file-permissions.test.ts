/**
 * The file tools and the file system's own permissions, through the built CLI on real files. A
 * rename needs only the folder's permission, so `write`, `edit` and `apply_patch` replaced a file
 * its user may not write: `chmod 444`'d, or root's file in the user's folder (the shell said
 * `Permission denied` to `echo x > file`, the tools wrote it and took it over). Now such a file
 * is refused, left as it was, with the reason (src/location/replaced-file.ts). As root (who may
 * write anything) the CLI runs as `nobody` through setpriv; without root, only the user's own
 * read-only file can be made, and the other cases are skipped with the reason printed.
 */
import { spawn, spawnSync } from "node:child_process"
import { chmod, chown, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FileMutation } from "../../../src/location/file-mutation.js"
import { ReplacedFile } from "../../../src/location/replaced-file.js"
import { ApplyPatchTransaction } from "../../../src/tool/builtin/apply-patch/transaction.js"
import { BIN } from "../../lib/cli-project.js"
import { tmpdir } from "../../lib/tmp.js"

const NOBODY = 65534
const root = process.getuid?.() === 0
const runnable = !root || spawnSync("setpriv", ["--version"]).status === 0
if (!runnable) console.warn("file-permissions.test.ts: running as root without setpriv, so no other user can be tried")
if (!root) console.warn("file-permissions.test.ts: not root, so the cases of a file that belongs to another user are skipped")

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `toolgate call <tool> <input>` in `work` under `* allow`, as `nobody` when root. */
const call = (base: string, tool: string, input: unknown) =>
  Effect.promise(
    () =>
      new Promise<Ran>((resolve, reject) => {
        const env = { PATH: process.env.PATH ?? "", HOME: path.join(base, "home"), TOOLGATE_DATA_DIR: path.join(base, "data") }
        const args = [BIN, "call", tool, JSON.stringify(input), "--on-ask", "reject"]
        const [command, prefix] = root ? ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath]] : [process.execPath, []]
        const child = spawn(command as string, [...(prefix as Array<string>), ...args], { cwd: path.join(base, "work"), env, stdio: ["ignore", "pipe", "pipe"] })
        const out = { stdout: "", stderr: "" }
        child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
        child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
        child.once("error", reject)
        child.once("close", (code) => resolve({ code, ...out }))
      }),
  )

/** A project whose folder (and everything in it) belongs to whoever the CLI runs as. */
const project = Effect.gen(function* () {
  const base = yield* tmpdir
  yield* Effect.promise(async () => {
    await mkdir(path.join(base, "home", ".config", "toolgate"), { recursive: true })
    await writeFile(path.join(base, "home", ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission: { "*": { "*": "allow" } } }))
    await mkdir(path.join(base, "work"))
    await mkdir(path.join(base, "data"))
    if (!root) return
    for (const entry of ["", ...(await readdir(base, { recursive: true }))]) await chown(path.join(base, entry), NOBODY, NOBODY)
  })
  return base
})

/** Puts `content` at `name` in the project, owned by `uid` (root only) with `mode`. */
const place = (base: string, name: string, content: string, mode: number, uid?: number) =>
  Effect.promise(async () => {
    const file = path.join(base, "work", name)
    await writeFile(file, content)
    if (root) await chown(file, uid ?? NOBODY, uid ?? NOBODY)
    await chmod(file, mode)
    return file
  })

const patch = (...lines: ReadonlyArray<string>) => ({ patchText: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") })

const refused = (file: string, detail: string) => FileMutation.Messages.write(file, detail)

describe.skipIf(!runnable)("a file its user may not write", () => {
  it.live("is not replaced by write, edit or apply_patch; each says why and the file stays", () =>
    Effect.gen(function* () {
      const base = yield* project
      const file = yield* place(base, "locked.txt", "do not touch\n", 0o444)
      const written = yield* call(base, "write", { path: "locked.txt", content: "touched\n" })
      expect(written.code).toBe(1)
      expect(written.stdout + written.stderr).toContain(refused("locked.txt", ReplacedFile.NOT_WRITABLE))
      const edited = yield* call(base, "edit", { path: "locked.txt", oldString: "do not", newString: "please" })
      expect(edited.code).toBe(1)
      expect(edited.stdout + edited.stderr).toContain(refused("locked.txt", ReplacedFile.NOT_WRITABLE))
      const patched = yield* call(base, "apply_patch", patch("*** Add File: other.txt", "+new", "*** Update File: locked.txt", "@@", "-do not touch", "+touched"))
      expect(patched.code).toBe(1)
      expect(patched.stdout + patched.stderr).toContain(ApplyPatchTransaction.Messages.failed("locked.txt", ReplacedFile.NOT_WRITABLE))
      expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("do not touch\n")
      expect((yield* Effect.promise(() => stat(file))).mode & 0o7777).toBe(0o444)
      // All or nothing: the file the same patch added is gone again, and no temp file is left.
      expect((yield* Effect.promise(() => readdir(path.join(base, "work")))).toSorted()).toEqual(["locked.txt"])
    }),
  )

  it.live("the user's own writable file is still written, keeping its mode", () =>
    Effect.gen(function* () {
      const base = yield* project
      const file = yield* place(base, "mine.txt", "old\n", 0o640)
      const written = yield* call(base, "write", { path: "mine.txt", content: "new\n" })
      expect(written.code, written.stderr).toBe(0)
      expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("new\n")
      expect((yield* Effect.promise(() => stat(file))).mode & 0o7777).toBe(0o640)
    }),
  )
})

describe.skipIf(!root || !runnable)("another user's file in the user's folder", () => {
  it.live("is refused when the user may not write it, and when it may but could not keep its owner", () =>
    Effect.gen(function* () {
      const base = yield* project
      const readable = yield* place(base, "roots.txt", "root's\n", 0o644, 0)
      const written = yield* call(base, "write", { path: "roots.txt", content: "nobody's\n" })
      expect(written.stdout + written.stderr).toContain(refused("roots.txt", ReplacedFile.NOT_WRITABLE))
      const moved = yield* call(base, "apply_patch", patch("*** Add File: from.txt", "+x", "*** Update File: from.txt", "*** Move to: roots.txt", "@@", " x"))
      expect(moved.stdout + moved.stderr).toContain(ApplyPatchTransaction.Messages.failed("roots.txt", ReplacedFile.NOT_WRITABLE))
      const shared = yield* place(base, "shared.txt", "root's, shared\n", 0o666, 0)
      const taken = yield* call(base, "edit", { path: "shared.txt", oldString: "root's", newString: "nobody's" })
      expect(taken.stdout + taken.stderr).toContain(refused("shared.txt", ReplacedFile.OWNER_NOT_KEPT))
      for (const [file, content] of [[readable, "root's\n"], [shared, "root's, shared\n"]] as const) {
        expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe(content)
        expect((yield* Effect.promise(() => stat(file))).uid).toBe(0)
      }
    }),
  )
})
