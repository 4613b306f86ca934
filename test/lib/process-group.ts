/**
 * Process groups in tests that run real commands. A command records its group by writing `$$`
 * (its shell is the group leader) to a file; `guard` SIGKILLs that group when the test's scope
 * closes, so nothing outlives a failing test. Membership is read with `ps`, independently of the
 * code under test, and zombies do not count (this machine's init may never reap them).
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
