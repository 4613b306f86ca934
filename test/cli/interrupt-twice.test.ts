/**
 * Ctrl-C twice while a bash call runs: the second exits at once, before the call's change could
 * be logged. What the command did stays the session's: the next `session diff` shows it and
 * `session revert` puts back the file it deleted (snapshot/interrupted.ts). The built CLI in
 * child processes, real bash and git.
 */
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { CliSignals } from "../../src/cli/signals.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { cliProject } from "../lib/cli-project.js"

describe("toolgate call interrupted twice", () => {
  it.live("keeps what the command did in the session: the diff shows the file it deleted, and the revert brings it back", () =>
    Effect.gen(function* () {
      const { work, start, run: toolgate } = yield* cliProject({ bash: { "*": "allow" } }, { "keep.txt": "the person's work\n" })
      // The command ignores SIGTERM: the first Ctrl-C waits for its kill, the second exits at once.
      const call = start(["call", "bash", JSON.stringify({ command: "rm keep.txt; trap '' TERM; sleep 60", description: "remove" }), "--session", "ses_twice", "--message", "msg_twice"])
      yield* Effect.sync(() => existsSync(path.join(work, "keep.txt"))).pipe(Effect.repeat({ while: (present) => present, schedule: Schedule.spaced("20 millis") }), Effect.timeout("20 seconds"))
      call.child.kill("SIGINT")
      yield* Effect.sync(() => call.out.stderr.includes(CliSignals.Messages.interrupted("SIGINT"))).pipe(Effect.repeat({ until: (said) => said, schedule: Schedule.spaced("20 millis") }), Effect.timeout("20 seconds"))
      call.child.kill("SIGINT")
      const ended = yield* Effect.promise(() => call.closed)
      expect(ended.code).toBe(ExitCode.SIGNALLED.SIGINT)

      const diff = yield* toolgate(["session", "diff", "ses_twice"])
      expect(diff.code, diff.stderr).toBe(0)
      expect(diff.stdout).toContain("-the person's work")
      const reverted = yield* toolgate(["session", "revert", "ses_twice", "msg_twice"])
      expect(reverted.code, reverted.stderr).toBe(0)
      expect(yield* Effect.promise(() => readFile(path.join(work, "keep.txt"), "utf8"))).toBe("the person's work\n")
    }))
})
