/**
 * What an outside review of waiting processes found (docs/decisions.md, "Waiting processes, an
 * outside review (2026-12-06)"), each against the real built CLI and real processes: a caller
 * confined in a way /proc does not show (Landlock), or with a lower priority, never hands its
 * command to a process that is not; a waiting process of another build (a file of it replaced, a
 * package updated) never takes a command.
 */
import { appendFile, cp, mkdir, readdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BIN } from "../../lib/cli-project.js"
import * as Landlock from "../../lib/landlock.js"
import { SCRIPT, waitingProcesses, warmProject } from "../../lib/warm.js"

if (Landlock.unavailable !== undefined) console.warn(`skipped: a Landlock-confined caller: ${Landlock.unavailable}`)

/** The priority a bash command reads of itself: field 19 of /proc/self/stat. */
const NICE = `echo "nice=$(cut -d' ' -f19 /proc/self/stat)"`

describe("waiting processes, an outside review", () => {
  it.live.skipIf(Landlock.unavailable !== undefined)(
    "keep a caller confined by Landlock in its own process, where its confinement holds",
    () =>
      Effect.gen(function* () {
        const { root, work, bash, untilWaiting } = yield* warmProject()
        // The waiting process and both callers have no_new_privs: the fingerprints match, only Landlock differs.
        const nnp = { wrap: Landlock.wrap("nnp") }
        yield* untilWaiting(100, nnp)
        expect((yield* bash("true", nnp)).waiting).toBe(true)
        // Writes only to its data folder and devices (the project is in the temporary folder too).
        const confined = { wrap: Landlock.wrap("landlock", [path.join(root, "data"), "/dev"]) }
        const ran = yield* bash('echo x > escaped.txt; echo "wrote=$?"', confined)
        expect(ran.waiting).toBe(false)
        expect(ran.stdout).toContain("wrote=1\n")
        expect(yield* Effect.promise(() => readdir(work))).toEqual([])
      }),
    120_000,
  )

  it.live(
    "keep a caller started with a lower priority in its own process",
    () =>
      Effect.gen(function* () {
        const { bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const nice = yield* bash(NICE, { wrap: ["nice", "-n", "7"] })
        expect(nice.waiting).toBe(false)
        expect(nice.stdout).toContain("nice=7\n")
        expect((yield* bash(NICE)).stdout).toContain("nice=0\n")
      }),
    120_000,
  )

  it.live(
    "never give a command to a waiting process of another build: a file of it replaced, a package updated",
    () =>
      Effect.gen(function* () {
        const { root, bash, untilWaiting } = yield* warmProject()
        // A copy of the build, its packages found through NODE_PATH (the same for every caller).
        const install = path.join(root, "install")
        const cli = path.join(install, "cli")
        yield* Effect.promise(() => cp(path.dirname(BIN), cli, { recursive: true }))
        const copy = { bin: path.join(cli, "bin.cjs"), env: { NODE_PATH: path.resolve(path.dirname(BIN), "../../node_modules") } }
        const waitingPid = Effect.promise(() => waitingProcesses(cli))
        yield* untilWaiting(100, copy)
        const before = yield* waitingPid
        expect(before.length).toBe(1)
        // The waiting process's own file changes, the bundle of the commands does not (its digest is the same).
        yield* Effect.promise(() => appendFile(path.join(cli, SCRIPT), "\n"))
        expect((yield* bash("true", copy)).waiting).toBe(false)
        yield* untilWaiting(100, copy)
        // A package manager rewrote its record of the packages above the build.
        yield* Effect.promise(async () => {
          await mkdir(path.join(install, "node_modules"))
          await writeFile(path.join(install, "node_modules", ".package-lock.json"), "{}")
        })
        expect((yield* bash("true", copy)).waiting).toBe(false)
        yield* untilWaiting(100, copy)
      }),
    120_000,
  )
})
