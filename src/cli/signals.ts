/**
 * Ctrl-C, SIGTERM and SIGHUP while a command runs (issue 12, item 15): the first interrupts the
 * running program, so a bash call kills its whole process group and every descendant before the
 * CLI exits with 128 + the signal's number; a second one SIGKILLs every command still running
 * and exits at once. Without this, node's default exit left `sleep 421` running under init.
 */
export * as CliSignals from "./signals.js"

import { BashRun } from "../tool/builtin/bash/run.js"
import { ExitCode } from "./exit-code.js"
import type { Io } from "./io.js"

export const Messages = {
  interrupted: (signal: Io.Signal) => `Interrupted by ${signal}: stopping the running command and everything it started (send it again to exit at once).`,
} as const

export interface Watch {
  /** Aborted by the first signal. */
  readonly signal: AbortSignal
  /** The first signal received, if any. */
  readonly received: () => Io.Signal | undefined
  readonly dispose: () => void
}

/**
 * Watches the signals of `io` while a program runs; `message` is what the first one prints.
 * @example const stopping = CliSignals.watch(io); await Effect.runPromiseExit(program, { signal: stopping.signal }).finally(stopping.dispose)
 */
export const watch = (io: Io.Io, message: (signal: Io.Signal) => string = Messages.interrupted): Watch => {
  const controller = new AbortController()
  const state: { first: Io.Signal | undefined } = { first: undefined }
  const dispose =
    io.onSignal?.((signal) => {
      const first = state.first
      if (first !== undefined) return void BashRun.killAll().finally(() => io.exit?.(ExitCode.SIGNALLED[first]))
      state.first = signal
      io.stderr(message(signal))
      controller.abort()
    }) ?? (() => undefined)
  return { signal: controller.signal, received: () => state.first, dispose }
}
