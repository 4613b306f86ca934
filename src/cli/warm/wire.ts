/**
 * The messages between the `toolgate` process a person or an agent started (the caller) and the
 * waiting process that runs its command: one JSON object per line over a Unix socket. The caller
 * sends its request; the waiting process answers `offer` (or `refuse`, and the caller runs the
 * command itself); only the caller's `go` lets it run, so a caller that gave up waiting can never
 * have its command run twice. Then the waiting process sends what the command prints and asks,
 * and its exit code; the caller sends answers, signals and its standard input.
 */
export * as WarmWire from "./wire.js"

import type { Socket } from "node:net"

/** Changes whenever a message changes: a caller and a waiting process of other versions never talk. */
export const VERSION = 2

export interface Request {
  readonly t: "request"
  readonly version: number
  readonly fingerprint: string
  readonly argv: ReadonlyArray<string>
  /** The caller's `process.argv[1]`, its executable. */
  readonly script: string
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  readonly umask: number
  readonly ppid: number
  readonly isTTY: boolean
  readonly rows: number | undefined
}

const isStrings = (value: unknown): value is ReadonlyArray<string> => Array.isArray(value) && value.every((item) => typeof item === "string")

/** Whether `message` is a request of this version's shape (a caller can send anything). */
export const isRequest = (message: { readonly t: string }): message is Request => {
  const request = message as Partial<Record<keyof Request, unknown>>
  return (
    request.t === "request" &&
    request.version === VERSION &&
    typeof request.fingerprint === "string" &&
    isStrings(request.argv) &&
    typeof request.script === "string" &&
    typeof request.cwd === "string" &&
    typeof request.env === "object" &&
    request.env !== null &&
    isStrings(Object.values(request.env)) &&
    Number.isInteger(request.umask) &&
    (request.umask as number) >= 0 &&
    (request.umask as number) <= 0o777 &&
    Number.isInteger(request.ppid) &&
    typeof request.isTTY === "boolean" &&
    (request.rows === undefined || request.rows === null || typeof request.rows === "number")
  )
}

/** From the caller. */
export type ToWaiting =
  | Request
  | { readonly t: "go" }
  | { readonly t: "answer"; readonly id: number; readonly text: string | null }
  | { readonly t: "paged"; readonly id: number; readonly ok: boolean }
  | { readonly t: "stdin"; readonly id: number; readonly text: string | null }
  | { readonly t: "signal"; readonly signal: "SIGINT" | "SIGTERM" | "SIGHUP" }
  /** Bytes of standard input for a command that reads it as a stream (base64). */
  | { readonly t: "in"; readonly data: string }
  | { readonly t: "end" }

/** From the waiting process. */
export type ToCaller =
  /** `pid`: the waiting process's, which the caller must be able to look into (fingerprint.ts `reaches`). */
  | { readonly t: "offer"; readonly pid: number }
  | { readonly t: "refuse"; readonly why: string }
  | { readonly t: "stdout"; readonly text: string }
  | { readonly t: "stderr"; readonly text: string }
  | { readonly t: "prompt"; readonly id: number; readonly question: string }
  | { readonly t: "page"; readonly id: number; readonly text: string }
  | { readonly t: "read-stdin"; readonly id: number }
  /** The command reads standard input as a stream from now on. */
  | { readonly t: "stream" }
  /** Bytes for standard output as is (base64), for a command that writes a stream. */
  | { readonly t: "out"; readonly data: string }
  /** Bytes for standard error as is (base64): what a library prints with `console`. */
  | { readonly t: "err"; readonly data: string }
  | { readonly t: "exit"; readonly code: number }

export const send = (socket: Socket, message: ToWaiting | ToCaller, done?: () => void): void => {
  if (socket.destroyed || !socket.writable) return void done?.()
  socket.write(`${JSON.stringify(message)}\n`, done === undefined ? undefined : () => done())
}

/** Calls `handler` with each message that arrives on `socket`; a line that is not JSON ends the connection. */
export const receive = <M extends { readonly t: string }>(socket: Socket, handler: (message: M) => void): void => {
  let pending = ""
  socket.setEncoding("utf8")
  socket.on("data", (chunk: string) => {
    pending += chunk
    let end = pending.indexOf("\n")
    while (end !== -1) {
      const line = pending.slice(0, end)
      pending = pending.slice(end + 1)
      let message: M
      try {
        message = JSON.parse(line) as M
      } catch {
        socket.destroy()
        return
      }
      if (typeof message !== "object" || message === null || typeof message.t !== "string") return void socket.destroy()
      handler(message)
      end = pending.indexOf("\n")
    }
  })
}
