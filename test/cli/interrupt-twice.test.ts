/**
 * Ctrl-C twice while a bash call runs: the second exits at once, before the call's change could
 * be logged. What the command did stays the session's: the next `session diff` shows it and
 * `session revert` puts back the file it deleted (snapshot/interrupted.ts). The built CLI in
 * child processes, real bash and git.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { CliSignals } from "../../src/cli/signals.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { tmpdir } from "../lib/tmp.js"

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

describe("toolgate call interrupted twice", () => {
  it.live("keeps what the command did in the session: the diff shows the file it deleted, and the revert brings it back", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const work = path.join(root, "work")
      const env = { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: path.join(root, "data") }
      yield* Effect.promise(async () => {
        await mkdir(path.join(root, "home", ".config", "toolgate"), { recursive: true })
        await writeFile(path.join(root, "home", ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission: { bash: { "*": "allow" } } }))
        await mkdir(work)
        await writeFile(path.join(work, "keep.txt"), "the person's work\n")
      })
      const start = (args: ReadonlyArray<string>) => {
        const child = spawn(process.execPath, [BIN, ...args], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] })
        const out = { stdout: "", stderr: "" }
        child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
        child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
        const closed = new Promise<Ran>((resolve, reject) => {
          child.once("error", reject)
          child.once("close", (code) => resolve({ code, ...out }))
        })
        return { child, out, closed }
      }
      const toolgate = (args: ReadonlyArray<string>) => Effect.promise(() => start(args).closed)

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
