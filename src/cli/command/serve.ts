/**
 * `toolgate serve [--port 4096] [--hostname 127.0.0.1] [--qr] [--config F]`: the HTTP + SSE server
 * (server/serve.ts) in the foreground. `--qr` prints the console's address as a QR code
 * (server/console-qr.ts), only for a bind a phone can reach: `--hostname` beyond loopback. The first SIGINT or SIGTERM stops it gracefully and it
 * exits 0; a second one SIGKILLs every command still running and exits at once (cli/signals.ts).
 */
export * as ServeCommand from "./serve.js"

import os from "node:os"
import path from "node:path"
import { Cause, Effect, Exit } from "effect"
import { ConsoleQr } from "../../server/console-qr.js"
import { ServerGuard } from "../../server/guard.js"
import { ServerServe } from "../../server/serve.js"
import { ServerToken } from "../../server/token.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { CliSignals } from "../signals.js"

export const Messages = {
  tooManyArguments: "toolgate serve takes no arguments: toolgate serve [--port 4096] [--hostname 127.0.0.1] [--qr] [--config F]",
  qrLoopback: (hostname: string) =>
    `toolgate serve --qr: a phone cannot reach ${hostname}, the loopback address of this machine: give --hostname an address of this machine on the network (or 0.0.0.0), with ${ServerToken.ENV} set`,
  invalidPort: (value: string) => `Invalid --port value: ${value} (expected a number from 0 to 65535)`,
} as const

/** `--port` as a number, or undefined when it is not a port. */
export const portOf = (text: string): number | undefined => {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN
  return port >= 0 && port <= 65_535 ? port : undefined
}

export const run: Command.Run = async (parsed, environment) => {
  const { io } = environment
  if (parsed.positionals.length > 0) {
    io.stderr(Messages.tooManyArguments)
    return ExitCode.USAGE
  }
  const portText = Command.string(parsed, "port")
  const port = portText === undefined ? ServerServe.DEFAULT_PORT : portOf(portText)
  if (port === undefined) {
    io.stderr(Messages.invalidPort(portText ?? ""))
    return ExitCode.USAGE
  }
  const hostname = Command.string(parsed, "hostname")
  const qr = parsed.values.qr === true
  if (qr && (hostname === undefined || ServerGuard.isLoopback(hostname))) {
    io.stderr(Messages.qrLoopback(hostname ?? ServerServe.DEFAULT_HOSTNAME))
    return ExitCode.USAGE
  }
  const config = Command.string(parsed, "config")
  const fromEnv = io.env.TOOLGATE_CONFIG
  const env = fromEnv === undefined || fromEnv === "" ? io.env : { ...io.env, TOOLGATE_CONFIG: path.resolve(io.cwd, fromEnv) }
  const stopping = CliSignals.watch(io, () => ServerServe.Messages.stopping)
  const until = Effect.callback<void>((resume) => {
    if (stopping.signal.aborted) return resume(Effect.void)
    stopping.signal.addEventListener("abort", () => resume(Effect.void), { once: true })
  })
  const program = ServerServe.serve({
    port,
    hostname: hostname ?? ServerServe.DEFAULT_HOSTNAME,
    hostnameGiven: hostname !== undefined,
    root: io.cwd,
    ...(config === undefined ? {} : { config: path.resolve(io.cwd, config) }),
    environment: { env, home: io.env.HOME ?? os.homedir() },
    log: io.stderr,
    until,
    ...(qr ? { onConsole: (address: ServerServe.ConsoleAddress) => Effect.promise(() => ConsoleQr.lines(address)).pipe(Effect.map((lines) => lines.forEach((line) => io.stderr(line)))) } : {}),
  })
  const exit = await Effect.runPromiseExit(Effect.scoped(program)).finally(stopping.dispose)
  if (Exit.isSuccess(exit)) return ExitCode.SUCCESS
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "None") throw Cause.squash(exit.cause)
  const error = failure.value as { readonly _tag: string; readonly message: string }
  io.stderr(error.message)
  return error._tag === "ServerServe.ListenError" ? ExitCode.TOOL_FAILED : ExitCode.USAGE
}
