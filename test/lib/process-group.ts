/**
 * Process groups in tests that run real commands. A command records its group by writing `$$`
 * (its shell is the group leader) to a file; `guard` SIGKILLs that group when the test's scope
 * closes, so nothing outlives a failing test. Membership is read with `ps`, independently of the
 * code under test, and zombies do not count (this machine's init may never reap them). A process
 * that leaves the group (`setsid`, `set -m`) is found by a `marker` in its command line instead.
 */
import { execFileSync } from "node:child_process"
import { readFile } from "node:fs/promises"
import path from "node:path"
import { Effect } from "effect"

/** Pids of the group's members that are not zombies. */
export const liveMembers = (pgid: number): ReadonlyArray<number> =>
  execFileSync("ps", ["-eo", "pid=,pgid=,stat="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith("Z"))
    .map(([pid]) => Number(pid))

/** The file a command writes its group id to, in `dir`. */
export const pgidFile = (dir: string): string => path.join(dir, "pgid")

/** `command`, first recording its group id in `pgidFile(dir)`. */
export const recorded = (dir: string, command: string): string => `echo $$ > '${pgidFile(dir)}'; ${command}`

const readPgid = (dir: string) =>
  Effect.promise(async () => {
    const text = await readFile(pgidFile(dir), "utf8").catch(() => "")
    return text.endsWith("\n") ? Number(text.trim()) : undefined
  })

/** The recorded group id, waiting for the command to write it. */
export const awaitPgid = (dir: string): Effect.Effect<number> =>
  readPgid(dir).pipe(
    Effect.flatMap((pgid) => (pgid === undefined ? Effect.sleep(20).pipe(Effect.andThen(awaitPgid(dir))) : Effect.succeed(pgid))),
  )

/** SIGKILLs the recorded group (if any) when the scope closes. */
export const guard = (dir: string) =>
  Effect.addFinalizer(() =>
    readPgid(dir).pipe(
      Effect.map((pgid) => {
        if (pgid === undefined || pgid <= 1) return
        try {
          process.kill(-pgid, "SIGKILL")
        } catch {
          // Already gone: the usual case.
        }
      }),
    ),
  )

/**
 * A token unique to one test, to put in a command line (`sleep 77.<token>`, say) and find the
 * process by later, wherever it went: another group, another session, or reparented to init.
 */
export const marker = (): string => String(100_000_000 + Math.floor(Math.random() * 900_000_000))

/** Pids and command lines (arguments joined by spaces) of the processes that are not zombies, read with `ps`. */
const commandLines = (): ReadonlyArray<{ readonly pid: number; readonly args: string }> =>
  execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" }).split("\n").flatMap((line) => {
    const match = line.trim().match(/^(\d+)\s+(\S+)\s+(.*)$/)
    if (match === null || match[2]?.startsWith("Z") || Number(match[1]) === process.pid) return []
    return [{ pid: Number(match[1]), args: match[3] ?? "" }]
  })

/** Pids of the processes that are not zombies and whose command line contains `text`. */
export const withMarker = (text: string): ReadonlyArray<number> => commandLines().flatMap(({ pid, args }) => (args.includes(text) ? [pid] : []))

/** Pids of the processes that are not zombies and whose command line is exactly `line` (`sleep 77.<marker>`, say). */
export const withCommand = (line: string): ReadonlyArray<number> => commandLines().flatMap(({ pid, args }) => (args === line ? [pid] : []))

/** SIGKILLs every process whose command line contains `text` when the scope closes. */
export const guardMarker = (text: string) =>
  Effect.addFinalizer(() =>
    Effect.sync(() => {
      for (const pid of withMarker(text)) {
        try {
          process.kill(pid, "SIGKILL")
        } catch {
          // Already gone.
        }
      }
    }),
  )

/** Whether a process with this pid still exists (a zombie counts: use `liveMembers` for groups). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
