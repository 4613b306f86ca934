/** The command's Io over its caller's connection (cli/warm/relay-io.ts), on a real Unix socket. */
import { describe, expect, it, vi } from "@effect/vitest"
import { Effect } from "effect"
import { RelayIo } from "../../../src/cli/warm/relay-io.js"
import { WarmWire } from "../../../src/cli/warm/wire.js"
import { socketPair } from "../../lib/socket-pair.js"

const REQUEST: WarmWire.Request = { t: "request", version: WarmWire.VERSION, fingerprint: "", argv: ["call"], script: "", cwd: "/", env: {}, umask: 0o22, ppid: 1, isTTY: false, rows: undefined }

describe("RelayIo", () => {
  it.live("hands the caller's signals to the command, and none once the command ended", () =>
    Effect.gen(function* () {
      const { server: waiting } = yield* socketPair
      const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never)
      try {
        const relay = RelayIo.make(waiting, REQUEST)
        const seen: Array<string> = []
        const stop = relay.io.onSignal?.((signal) => seen.push(signal))
        relay.dispatch({ t: "signal", signal: "SIGINT" })
        expect(seen).toEqual(["SIGINT"])
        stop?.()
        relay.dispose()
        // A signal that crossed the exit code: with no handler left it would have ended the process.
        relay.dispatch({ t: "signal", signal: "SIGTERM" })
        relay.hangup()
        // What was written before this (an exit code) has been written, its callback called.
        yield* Effect.promise(() => new Promise<void>((resolve) => waiting.write("", () => resolve())))
        expect(seen).toEqual(["SIGINT"])
        expect(exit).not.toHaveBeenCalled()
      } finally {
        exit.mockRestore()
      }
    }))
})
