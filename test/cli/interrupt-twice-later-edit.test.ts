/**
 * Ctrl-C twice while a bash call runs, then the session goes on and the person edits by hand: the
 * killed command's change is closed when the session's next call starts, so the person's edits
 * made after that call are not taken for the command's. Before, it was closed by the next diff or
 * revert, with everything that differed by then: reverting its message rewound a file the session
 * never touched. The built CLI in child processes, real bash and git.
 */
import { existsSync } from "node:fs"
import { readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { CliSignals } from "../../src/cli/signals.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { cliProject } from "../lib/cli-project.js"

/** Starts `rm keep.txt` in `session`/`message` and stops it with Ctrl-C twice, the second exiting at once. */
const killTwice = (p: Effect.Success<ReturnType<typeof cliProject>>, session: string, message: string) =>
  Effect.gen(function* () {
    const call = p.start(["call", "bash", JSON.stringify({ command: "rm keep.txt; trap '' TERM; sleep 60", description: "remove" }), "--session", session, "--message", message])
    yield* Effect.sync(() => existsSync(path.join(p.work, "keep.txt"))).pipe(Effect.repeat({ while: (present) => present, schedule: Schedule.spaced("20 millis") }), Effect.timeout("20 seconds"))
    call.child.kill("SIGINT")
    yield* Effect.sync(() => call.out.stderr.includes(CliSignals.Messages.interrupted("SIGINT"))).pipe(Effect.repeat({ until: (said) => said, schedule: Schedule.spaced("20 millis") }), Effect.timeout("20 seconds"))
    call.child.kill("SIGINT")
    expect((yield* Effect.promise(() => call.closed)).code).toBe(ExitCode.SIGNALLED.SIGINT)
  })

describe("toolgate call interrupted twice, the session going on", () => {
  it.live("a revert of the killed session leaves alone what another session did after it", () =>
    Effect.gen(function* () {
      const p = yield* cliProject({ "*": { "*": "allow" } }, { "keep.txt": "kept\n", "y.txt": "y\n" })
      yield* killTwice(p, "ses_killed", "msg_killed")
      const wrote = yield* p.run(["call", "bash", JSON.stringify({ command: "echo more >> y.txt; echo new > made.txt", description: "other" }), "--session", "ses_other", "--message", "msg_other"])
      expect(wrote.code, wrote.stderr).toBe(0)
      const reverted = yield* p.run(["session", "revert", "ses_killed", "msg_killed"])
      expect(reverted.code, reverted.stderr).toBe(0)
      const read = (file: string) => Effect.promise(() => readFile(path.join(p.work, file), "utf8"))
      expect(yield* read("keep.txt")).toBe("kept\n")
      expect(yield* read("y.txt")).toBe("y\nmore\n")
      expect(yield* read("made.txt")).toBe("new\n")
    }))


  it.live("a revert to the killed call's message puts back what it deleted and keeps the person's later edit", () =>
    Effect.gen(function* () {
      const { work, start, run: toolgate } = yield* cliProject({ "*": { "*": "allow" } }, { "keep.txt": "kept\n", "notes.txt": "notes v1\n", "other.txt": "other\n" })
      const call = start(["call", "bash", JSON.stringify({ command: "rm keep.txt; trap '' TERM; sleep 60", description: "remove" }), "--session", "ses_on", "--message", "msg_killed"])
      yield* Effect.sync(() => existsSync(path.join(work, "keep.txt"))).pipe(Effect.repeat({ while: (present) => present, schedule: Schedule.spaced("20 millis") }), Effect.timeout("20 seconds"))
      call.child.kill("SIGINT")
      yield* Effect.sync(() => call.out.stderr.includes(CliSignals.Messages.interrupted("SIGINT"))).pipe(Effect.repeat({ until: (said) => said, schedule: Schedule.spaced("20 millis") }), Effect.timeout("20 seconds"))
      call.child.kill("SIGINT")
      expect((yield* Effect.promise(() => call.closed)).code).toBe(ExitCode.SIGNALLED.SIGINT)

      const next = yield* toolgate(["call", "write", JSON.stringify({ path: "other.txt", content: "agent\n" }), "--session", "ses_on", "--message", "msg_next"])
      expect(next.code, next.stderr).toBe(0)
      yield* Effect.promise(() => writeFile(path.join(work, "notes.txt"), "notes v2, by hand\n"))

      const diff = yield* toolgate(["session", "diff", "ses_on"])
      expect(diff.stdout).toContain("D keep.txt")
      expect(diff.stdout).not.toContain("notes.txt")
      const reverted = yield* toolgate(["session", "revert", "ses_on", "msg_killed"])
      expect(reverted.code, reverted.stderr).toBe(0)
      expect(reverted.stdout).not.toContain("notes.txt")
      const read = (file: string) => Effect.promise(() => readFile(path.join(work, file), "utf8"))
      expect(yield* read("keep.txt")).toBe("kept\n")
      expect(yield* read("other.txt")).toBe("other\n")
      expect(yield* read("notes.txt")).toBe("notes v2, by hand\n")
    }))
})
