/**
 * The caller's side (docs/decisions.md, "A process that waits with the code loaded"): a
 * `toolgate` command hands itself to the waiting process of its fingerprint, which has the
 * command's code loaded already, and relays what it prints, asks and reads. Where there is none,
 * it starts one for the next command and runs this one itself; so does it whenever anything
 * fails before the waiting process took the command (no socket, a refusal, a connection closed, a
 * process that takes longer than `WAIT_MS` to offer). Once the caller has said `go` the command is
 * the waiting process's alone: it never runs twice.
 */
export * as WarmClient from "./client.js"

import { rmSync } from "node:fs"
import type { Socket } from "node:net"
import path from "node:path"
import type { Io } from "../io.js"
import { ExitCode } from "../exit-code.js"
import { ToolCallMarker } from "../../tool-call-marker.js"
import { WarmFingerprint } from "./fingerprint.js"
import { WarmPlace } from "./place.js"
import { WarmWire } from "./wire.js"

/** `TOOLGATE_WARM=0` turns waiting processes off: every command runs in the process started for it. */
export const ENV = "TOOLGATE_WARM"
/** How long an idle waiting process stays, in ms (default `IDLE_MS`). */
export const IDLE_ENV = "TOOLGATE_WARM_IDLE_MS"
export const IDLE_MS = 5 * 60_000
/** How long a caller waits for a waiting process's answer (an offer or a refusal) before it runs the command itself and replaces the process. */
export const WAIT_MS = 2_000
/** The file the waiting process runs, beside the executable. */
export const SCRIPT = "warm.cjs"
/** The commands a waiting process runs: all but the long-running servers that have their own start (`serve`, `run`). */
export const COMMANDS: ReadonlySet<string> = new Set(["call", "tools", "permission", "approvals", "trust", "untrust", "config", "session", "log", "todo", "mcp", "mcp-servers"])

export const Messages = {
  ended: "toolgate: the process that ran this command ended before it finished (see docs/cli.md, \"Waiting processes\").",
} as const

export interface Options {
  readonly argv: ReadonlyArray<string>
  readonly io: Io.Io
  /** The folder of the executable, `commands.cjs` and `warm.cjs`. */
  readonly directory: string
  readonly dataDir: string
}

/**
 * Starts a waiting process for the next command, with only the variables of the fingerprint;
 * none inside a sandbox that would wait for it to end (fingerprint.ts `contained`).
 */
const start = async (options: Options, folder: string) => {
  if (WarmFingerprint.contained()) return
  const { spawn } = await import("node:child_process")
  const idle = Number(options.io.env[IDLE_ENV])
  const args = [path.join(options.directory, SCRIPT), folder, options.dataDir, String(Number.isSafeInteger(idle) && idle > 0 ? idle : IDLE_MS)]
  try {
    spawn(process.execPath, args, { detached: true, stdio: "ignore", cwd: "/", env: WarmFingerprint.startVariables(options.io.env) }).unref()
  } catch {
    // Deliberate: without a waiting process the next command runs in its own process, as this one does.
  }
}

/**
 * Runs the command of `options.argv` in a waiting process; its exit code, or undefined when the
 * caller must run it itself.
 */
export const handoff = async (options: Options): Promise<number | undefined> => {
  const [name] = options.argv
  // Inside a toolgate tool call the command runs where the call put it, and leaves nothing running.
  // Flags given to this Node (--inspect, --cpu-prof, --require) are for this process to run the code.
  if (options.io.env[ENV] === "0" || ToolCallMarker.of(options.io.env) !== undefined || process.execArgv.length > 0 || name === undefined || !COMMANDS.has(name)) return undefined
  const digest = WarmFingerprint.build(options.directory)
  const fingerprint = digest === undefined ? undefined : WarmFingerprint.of(digest, options.io.env)
  if (fingerprint === undefined) return undefined
  const folder = WarmPlace.folder(options.dataDir, true)
  const socketPath = folder === undefined ? undefined : WarmPlace.socket(folder, WarmFingerprint.name(fingerprint))
  if (folder === undefined || socketPath === undefined) return undefined
  const { createConnection } = await import("node:net")
  return new Promise<number | undefined>((resolve) => {
    const socket = createConnection(socketPath)
    const state: { taken: boolean; code: number | undefined; streaming: boolean } = { taken: false, code: undefined, streaming: false }
    const giveUp = (restart: boolean) => {
      if (state.taken) return
      clearTimeout(timer)
      socket.destroy()
      if (restart) void start(options, folder)
      resolve(undefined)
    }
    // A process that never offers (stopped, wedged) is replaced: its socket removed, it exits (server.ts).
    const timer = setTimeout(() => {
      rmSync(socketPath, { force: true })
      giveUp(true)
    }, WAIT_MS)
    socket.once("error", (error: NodeJS.ErrnoException) => giveUp(error.code === "ENOENT" || error.code === "ECONNREFUSED"))
    socket.once("connect", () => WarmWire.send(socket, request(options, fingerprint)))
    socket.once("close", () => {
      if (!state.taken) return giveUp(false)
      stopSignals()
      // Standard input read as a stream would keep this process open after the command ended.
      const input = options.io.channel?.().input as (NodeJS.ReadableStream & { destroy?: () => void }) | undefined
      if (state.streaming) input?.destroy?.()
      if (state.code === undefined) options.io.stderr(Messages.ended)
      resolve(state.code ?? ExitCode.TOOL_FAILED)
    })
    let stopSignals = () => {}
    WarmWire.receive<WarmWire.ToCaller>(socket, (message) => {
      if (!state.taken) {
        // A process this caller may not look into (Landlock, a chroot) is less confined than it: the command stays here.
        if (message.t !== "offer" || !WarmFingerprint.reaches(message.pid)) return giveUp(false)
        state.taken = true
        clearTimeout(timer)
        stopSignals = forwardSignals(options.io, socket)
        return WarmWire.send(socket, { t: "go" })
      }
      if (message.t === "stream") state.streaming = true
      relay(options.io, socket, message, (code) => (state.code = code))
    })
  })
}

const request = (options: Options, fingerprint: string): WarmWire.Request => ({
  t: "request",
  version: WarmWire.VERSION,
  fingerprint,
  argv: options.argv,
  script: process.argv[1] ?? "",
  cwd: options.io.cwd,
  env: Object.fromEntries(Object.entries(options.io.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  umask: process.umask(),
  ppid: process.ppid,
  isTTY: options.io.isTTY,
  rows: options.io.rows?.(),
})

/** Signals to the waiting process; a third one ends this caller at once, whatever the other does. */
const forwardSignals = (io: Io.Io, socket: Socket) => {
  let count = 0
  return (
    io.onSignal?.((signal) => {
      count++
      if (count >= 3) return io.exit?.(ExitCode.SIGNALLED[signal])
      WarmWire.send(socket, { t: "signal", signal })
    }) ?? (() => undefined)
  )
}

/** Does what one message of the waiting process says. */
const relay = (io: Io.Io, socket: Socket, message: WarmWire.ToCaller, exit: (code: number) => void) => {
  switch (message.t) {
    case "stdout":
      return io.stdout(message.text)
    case "stderr":
      return io.stderr(message.text)
    case "prompt":
      return void io.prompt(message.question).then((text) => WarmWire.send(socket, { t: "answer", id: message.id, text: text ?? null }))
    case "page":
      return void (io.page?.(message.text) ?? Promise.resolve(false)).then((ok) => WarmWire.send(socket, { t: "paged", id: message.id, ok }))
    case "read-stdin":
      return void io.stdin().then((text) => WarmWire.send(socket, { t: "stdin", id: message.id, text: text ?? null }))
    case "stream":
      return stream(io, socket)
    case "out": {
      const output = io.channel?.().output
      return void output?.write(Buffer.from(message.data, "base64"))
    }
    case "err":
      return void process.stderr.write(Buffer.from(message.data, "base64"))
    case "exit":
      return exit(message.code)
  }
}

/** Standard input, as it comes, to a command that reads it as a stream. */
const stream = (io: Io.Io, socket: Socket) => {
  const input = io.channel?.().input
  if (input === undefined) return WarmWire.send(socket, { t: "end" })
  input.on("data", (chunk: Buffer | string) => WarmWire.send(socket, { t: "in", data: Buffer.from(chunk).toString("base64") }))
  input.once("end", () => WarmWire.send(socket, { t: "end" }))
}
