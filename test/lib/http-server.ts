/**
 * A real HTTP server on 127.0.0.1 (an ephemeral port) for the web tools' tests, closed with the
 * test's scope. It records every request (method, path, headers, body) and, per request, a
 * promise of how its response ended: `finished` when the handler ended it, `aborted` when the
 * connection closed first (the client gave up). The handler gets the whole request body.
 */
import { createServer } from "node:http"
import type { IncomingHttpHeaders, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

export interface Recorded {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** How the response ended, with the bytes the handler wrote by then. */
  readonly ended: Promise<{ readonly type: "finished" | "aborted"; readonly written: number }>
}

export interface Incoming {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export type Handler = (request: Incoming, response: ServerResponse) => void

export interface Server {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly port: number
  readonly url: (path: string) => string
  readonly requests: ReadonlyArray<Recorded>
}

/** Counts what the handler writes, so a test can tell how much went out before an abort. */
const counting = (response: ServerResponse) => {
  const counter = { written: 0 }
  const write = response.write.bind(response) as (chunk: unknown, ...rest: unknown[]) => boolean
  response.write = ((chunk: unknown, ...rest: unknown[]) => {
    counter.written += typeof chunk === "string" ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength
    return write(chunk, ...rest)
  }) as ServerResponse["write"]
  return counter
}

/** Starts a server for the scope of the test. */
export const serve = (handler: Handler) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ readonly server: ReturnType<typeof createServer>; readonly info: Server }>((resolve) => {
          const requests: Recorded[] = []
          const server = createServer((request, response) => {
            const chunks: Buffer[] = []
            const counter = counting(response)
            const ended = new Promise<{ readonly type: "finished" | "aborted"; readonly written: number }>((settle) => {
              response.on("close", () => settle({ type: response.writableFinished ? "finished" : "aborted", written: counter.written }))
            })
            request.on("data", (chunk: Buffer) => chunks.push(chunk))
            request.on("end", () => {
              const incoming = { method: request.method ?? "GET", path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") }
              requests.push({ ...incoming, ended })
              handler(incoming, response)
            })
          })
          server.listen(0, "127.0.0.1", () => {
            const { port } = server.address() as AddressInfo
            const origin = `http://127.0.0.1:${port}`
            resolve({ server, info: { origin, port, url: (path) => `${origin}${path}`, requests } })
          })
        }),
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          }),
      ),
  ).pipe(Effect.map(({ info }) => info))

/** Writes `total` bytes of `fill` in chunks, waiting for drain; resolves false when the connection closed first. */
export const stream = (response: ServerResponse, total: number, fill = "x", chunk = 64 * 1024): Promise<boolean> =>
  new Promise((resolve) => {
    const block = Buffer.alloc(chunk, fill)
    const sent = { bytes: 0 }
    const pump = () => {
      while (sent.bytes < total) {
        if (response.destroyed) return resolve(false)
        const size = Math.min(chunk, total - sent.bytes)
        sent.bytes += size
        if (!response.write(size === chunk ? block : block.subarray(0, size))) return response.once("drain", pump)
      }
      return resolve(true)
    }
    response.once("close", () => resolve(false))
    pump()
  })
