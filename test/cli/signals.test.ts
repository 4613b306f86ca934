/**
 * Ctrl-C and SIGTERM to the built executable while a bash call runs (issue 12, item 15): the
 * command and everything it started must be gone when toolgate exits, with 128 + the signal.
 */
import { spawn } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { CliSignals } from "../../src/cli/signals.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { madeLine } from "../lib/cli.js"
import { guardMarker, marker, withMarker } from "../lib/process-group.js"
import { tmpdir } from "../lib/tmp.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

/** Starts `toolgate call bash` on `command`, waits until `token` runs, sends `signals` one by one, and returns how it ended. */
const interrupt = (command: string, token: string, signals: ReadonlyArray<NodeJS.Signals>) =>
  Effect.gen(function* () {
    const home = yield* tmpdir
    yield* guardMarker(token)
    const child = spawn(process.execPath, [bin, "call", "bash", JSON.stringify({ command }), "--on-ask", "once"], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(home, "data"), ...OWN_PROCESS },
    })
    const out = { stderr: "" }
    child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
    yield* Effect.sync(() => withMarker(token).length).pipe(Effect.repeat({ until: (count) => count >= 2, schedule: Schedule.spaced("50 millis") }), Effect.timeout("20 seconds"))
    for (const signal of signals) child.kill(signal)
    const code = yield* Effect.promise(() => closed)
    return { code, stderr: out.stderr, left: withMarker(token) }
  })

describe("toolgate call under a signal", () => {
  for (const [signal, code] of [["SIGINT", ExitCode.SIGNALLED.SIGINT], ["SIGTERM", ExitCode.SIGNALLED.SIGTERM], ["SIGHUP", ExitCode.SIGNALLED.SIGHUP]] as const)
    it.live(`${signal} kills the command, its background jobs and their children before exiting ${code}`, () =>
      Effect.gen(function* () {
        const token = marker()
        const result = yield* interrupt(`sleep 421.${token} & (sleep 422.${token}) & sleep 423.${token}`, token, [signal])
        expect(result).toEqual({ code, stderr: `${madeLine(result.stderr)}${CliSignals.Messages.interrupted(signal)}\n`, left: [] })
      }),
    )

  it.live("a second signal exits at once, after killing what runs", () =>
    Effect.gen(function* () {
      const token = marker()
      // The command ignores SIGTERM, so the first signal's interruption waits for its SIGKILL grace.
      const result = yield* interrupt(`trap '' TERM; sleep 431.${token} & trap '' TERM; sleep 432.${token}`, token, ["SIGINT", "SIGINT"])
      expect(result).toEqual({ code: ExitCode.SIGNALLED.SIGINT, stderr: `${madeLine(result.stderr)}${CliSignals.Messages.interrupted("SIGINT")}\n`, left: [] })
    }))
})
