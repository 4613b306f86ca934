/**
 * The `Io` of a command run by a waiting process for a caller (cli/warm/server.ts): everything it
 * prints, asks and reads goes over the caller's connection, so the caller's terminal, pipes and
 * pager are the command's as if it ran there. Signals the caller forwards, and those sent to this
 * process itself, reach the command's handlers; a signal nobody handles ends the process with
 * 128 + its number, as the signal itself would have. A caller that goes away is a hangup.
 */
export * as RelayIo from "./relay-io.js"

import type { Socket } from "node:net"
import { Readable, Writable } from "node:stream"
import type { Io } from "../io.js"
import { Io as IoModule } from "../io.js"
import { ExitCode } from "../exit-code.js"
import { WarmWire } from "./wire.js"

export interface Relay {
  readonly io: Io.Io
  /** Handles one message from the caller. */
  readonly dispatch: (message: WarmWire.ToWaiting) => void
  /** The caller's connection is gone. */
  readonly hangup: () => void
  /** The command ended: its caller's messages and this process's own signals no longer reach it. */
  readonly dispose: () => void
}

/** Sends `code` and ends this process once it is written. */
export const exitWith = (socket: Socket, code: number): void => {
  process.exitCode = code
  WarmWire.send(socket, { t: "exit", code }, () => process.exit(code))
}

export const make = (socket: Socket, request: WarmWire.Request): Relay => {
  const waiting = new Map<number, (value: unknown) => void>()
  let next = 0
  const ask = <A>(message: (id: number) => WarmWire.ToCaller, gone: A): Promise<A> =>
    socket.destroyed
      ? Promise.resolve(gone)
      : new Promise<A>((resolve) => {
          const id = next++
          waiting.set(id, resolve as (value: unknown) => void)
          WarmWire.send(socket, message(id))
        })
  const answer = (id: number, value: unknown) => {
    const resolve = waiting.get(id)
    waiting.delete(id)
    resolve?.(value)
  }
  const handlers = new Set<(signal: Io.Signal) => void>()
  const signal = (name: Io.Signal) => {
    if (handlers.size === 0) return exitWith(socket, ExitCode.SIGNALLED[name])
    handlers.forEach((handler) => handler(name))
  }
  const listeners = IoModule.SIGNALS.map((name) => [name, () => signal(name)] as const)
  listeners.forEach(([name, listener]) => process.on(name, listener))
  // The end of input comes as a pipe's does: one turn of the event loop after the reader took the
  // last bytes (with no high-water mark, `read` is called only then). Ended at once, a command
  // that answers what it read (`echo <request> | toolgate mcp`) saw the end before it could
  // answer, where in its own process it answered.
  const ending = { asked: false, wanted: false }
  const input = new Readable({
    highWaterMark: 0,
    read: () => {
      ending.wanted = true
      if (ending.asked) setImmediate(() => input.push(null))
    },
  })
  const endInput = () => {
    if (ending.asked) return
    ending.asked = true
    if (ending.wanted) setImmediate(() => input.push(null))
  }
  const output = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      WarmWire.send(socket, { t: "out", data: Buffer.from(chunk).toString("base64") })
      done()
    },
  })
  let streaming = false
  const io: Io.Io = {
    stdout: (text) => WarmWire.send(socket, { t: "stdout", text }),
    stderr: (text) => WarmWire.send(socket, { t: "stderr", text }),
    stdin: () => ask<string | undefined>((id) => ({ t: "read-stdin", id }), undefined),
    prompt: (question) => ask<string | undefined>((id) => ({ t: "prompt", id, question }), undefined),
    isTTY: request.isTTY,
    rows: () => request.rows ?? undefined,
    page: (text) => ask<boolean>((id) => ({ t: "page", id, text }), false),
    cwd: request.cwd,
    env: process.env,
    parent: request.ppid,
    onSignal: (handler) => {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    exit: (code) => exitWith(socket, code),
    channel: () => {
      if (!streaming) WarmWire.send(socket, { t: "stream" })
      streaming = true
      return { input, output }
    },
  }
  // Once the command ended, what the caller still sends (a signal that crossed the exit code)
  // reaches nothing: the next command of this process is not its to stop.
  const disposed = { done: false }
  const dispatch = (message: WarmWire.ToWaiting) => {
    if (disposed.done) return
    if (message.t === "answer" || message.t === "stdin") return answer(message.id, message.text ?? undefined)
    if (message.t === "paged") return answer(message.id, message.ok === true)
    if (message.t === "signal" && IoModule.SIGNALS.includes(message.signal)) return signal(message.signal)
    if (message.t === "in" && typeof message.data === "string" && !ending.asked) {
      ending.wanted = false
      return void input.push(Buffer.from(message.data, "base64"))
    }
    if (message.t === "end") return endInput()
  }
  const hangup = () => {
    if (disposed.done) return
    ;[...waiting.keys()].forEach((id) => answer(id, undefined))
    endInput()
    signal("SIGHUP")
  }
  const dispose = () => {
    disposed.done = true
    listeners.forEach(([name, listener]) => process.off(name, listener))
  }
  return { io, dispatch, hangup, dispose }
}
