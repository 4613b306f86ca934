/**
 * A request's body as text, never more than a limit. A body that declares its length
 * (`Content-Length`, no `Transfer-Encoding`) is refused from that header alone, before a byte of
 * it is read, and otherwise read whole through the request's own `text()`: Node's HTTP parser
 * stops at the declared length, so nothing beyond it arrives, and @hono/node-server reads it
 * straight from the socket without building a web `Request` and its streams (most of the cost of a
 * small call, docs/benchmarks.md). A body of unknown length is read as a stream and refused at the
 * first chunk that passes the limit.
 */
export * as ServerBody from "./body.js"

export type Read = { readonly text: string } | { readonly tooLarge: true }

/** What `read` needs of a request: Hono's `c.req` has it. */
export interface Source {
  readonly header: (name: string) => string | undefined
  readonly text: () => Promise<string>
  readonly raw: { readonly body: ReadableStream<Uint8Array> | null }
}

const TOO_LARGE = { tooLarge: true } as const

/** Reads `stream` to its end, or stops at the chunk that passes `limit` bytes. */
const bounded = async (stream: ReadableStream<Uint8Array>, limit: number): Promise<Read> => {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return TOO_LARGE
    }
    chunks.push(value)
  }
  return { text: Buffer.concat(chunks, size).toString("utf8") }
}

/** The body of `request` as UTF-8 text, or `tooLarge` when it has more than `limit` bytes. */
export const read = async (request: Source, limit: number): Promise<Read> => {
  const declared = request.header("content-length")
  if (declared !== undefined && request.header("transfer-encoding") === undefined) {
    // A declared length that is not a number is refused by Node's parser before a request exists.
    if (Number(declared) > limit) return TOO_LARGE
    return { text: await request.text() }
  }
  const body = request.raw.body
  return body === null ? { text: "" } : bounded(body, limit)
}
