/**
 * A fetch-style handler served by a real HTTP server on 127.0.0.1 (node:http on an ephemeral
 * port, through @hono/node-server's listener as `toolgate serve` runs it), closed with the test's
 * scope, and an SSE reader over `fetch` that hands frames out one at a time, each as its raw text
 * and parsed. The reader's connection is aborted when its scope closes, or by `disconnect`.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { getRequestListener } from "@hono/node-server"
import { Effect } from "effect"

export interface Served {
  /** `http://127.0.0.1:<port><path>` */
  readonly url: (path: string) => string
}

/** Serves `handler` for the scope of the test. */
export const serve = (handler: (request: Request) => Response | Promise<Response>) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const server = createServer(getRequestListener(handler))
          server.listen(0, "127.0.0.1", () => resolve(server))
        }),
    ),
    (server) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          }),
      ),
  ).pipe(Effect.map((server): Served => ({ url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}` })))

/** One frame as it came over the wire, and its fields. */
export interface Frame {
  readonly raw: string
  readonly id: string
  readonly event: string
  readonly data: { readonly id: string; readonly type: string; readonly data: unknown; readonly location?: { readonly directory: string } }
}

const parse = (raw: string): Frame => {
  const fields = new Map(
    raw
      .slice(0, -2)
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)] as const),
  )
  return { raw, id: fields.get("id") ?? "", event: fields.get("event") ?? "", data: JSON.parse(fields.get("data") ?? "null") as Frame["data"] }
}

export interface Reader {
  readonly status: number
  readonly headers: Headers
  /** The next whole frame; fails when the stream ends first. */
  readonly next: Effect.Effect<Frame>
  /** The next `count` frames. */
  readonly take: (count: number) => Effect.Effect<ReadonlyArray<Frame>>
  /** Drops the connection, as a client going away does. */
  readonly disconnect: Effect.Effect<void>
}

/** Opens an SSE connection to `url` for the scope of the test. */
export const connect = (url: string, headers: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const abort = new AbortController()
      const response = await fetch(url, { headers, signal: abort.signal })
      return { abort, response, reader: response.body!.pipeThrough(new TextDecoderStream()).getReader() }
    }),
    ({ abort }) => Effect.sync(() => abort.abort()),
  ).pipe(
    Effect.map(({ abort, response, reader }): Reader => {
      const buffer = { text: "" }
      const read = async (): Promise<Frame> => {
        const end = buffer.text.indexOf("\n\n")
        if (end >= 0) {
          const raw = buffer.text.slice(0, end + 2)
          buffer.text = buffer.text.slice(end + 2)
          return parse(raw)
        }
        const chunk = await reader.read()
        if (chunk.done) throw new Error(`the stream ended with ${JSON.stringify(buffer.text)} unread`)
        buffer.text += chunk.value
        return read()
      }
      const next = Effect.promise(read)
      return {
        status: response.status,
        headers: response.headers,
        next,
        take: (count) => Effect.forEach(Array.from({ length: count }), () => next),
        disconnect: Effect.sync(() => abort.abort()),
      }
    }),
  )
