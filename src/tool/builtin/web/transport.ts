/**
 * One HTTP request on node:http(s), connected only to addresses the caller already has: the
 * socket's lookup is pinned to them, so nothing resolves the host again between the caller's
 * judgement and the connection (the URL's host still names the server: Host header, TLS name and
 * certificate check). No connection pool (`agent: false`): a pooled socket would have been
 * connected under an earlier judgement. gzip, deflate and br bodies are decoded as fetch would
 * (an unknown coding is returned as it came), so limits count the decoded bytes.
 * Gotcha: node:http(s), node:stream and node:zlib are imported on the first request, not with
 * this module: every CLI command loads the built-in tools, and TLS alone costs milliseconds.
 */
export * as WebTransport from "./transport.js"

import type { IncomingMessage } from "node:http"
import type { LookupFunction } from "node:net"
import type { Duplex } from "node:stream"
import type { WebAddress } from "./address.js"

/** Sent unless the caller sets its own. */
export const ACCEPT_ENCODING = "gzip, deflate, br"

export interface Exchange {
  readonly url: URL
  readonly method: "GET" | "POST"
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /** Where the connection may go; for a named host, the only addresses its lookup returns. */
  readonly addresses: ReadonlyArray<WebAddress.Address>
  readonly signal: AbortSignal
}

export interface Reply {
  readonly status: number
  /** A header's value (several joined with ", "), or null. */
  readonly header: (name: string) => string | null
  readonly body: AsyncIterable<Uint8Array>
}

/** A lookup that answers with `addresses` whatever it is asked (node calls it only for a named host). */
export const pinned =
  (addresses: ReadonlyArray<WebAddress.Address>): LookupFunction =>
  (hostname, options, callback) => {
    const wanted = addresses.filter((entry) => options.family === undefined || options.family === 0 || entry.family === options.family)
    const usable = wanted.length > 0 ? wanted : addresses
    const first = usable[0]
    if (first === undefined) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", 0)
    if (options.all === true) return callback(null, usable.map(({ address, family }) => ({ address, family })))
    return callback(null, first.address, first.family)
  }

type Zlib = typeof import("node:zlib")

const decoders = ({ constants, createBrotliDecompress, createGunzip, createInflate }: Zlib): Readonly<Record<string, () => Duplex>> => ({
  gzip: () => createGunzip({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH }),
  "x-gzip": () => createGunzip({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH }),
  deflate: () => createInflate({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH }),
  br: () => createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH }),
})

/** The body with its content codings undone, last applied first (RFC 9110 §8.4). */
const decoded = (response: IncomingMessage, zlib: Zlib, pipeline: typeof import("node:stream").pipeline): AsyncIterable<Uint8Array> => {
  const codings = (response.headers["content-encoding"] ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity")
  const known = decoders(zlib)
  if (codings.length === 0 || codings.some((coding) => known[coding] === undefined)) return response
  const stages = codings.reverse().map((coding) => (known[coding] as () => Duplex)())
  // Errors reach the last stage, which the reader iterates; destroying it destroys the rest.
  return pipeline([response, ...stages], () => undefined) as unknown as AsyncIterable<Uint8Array>
}

const headerOf = (response: IncomingMessage) => (name: string) => {
  const value = response.headers[name.toLowerCase()]
  if (value === undefined) return null
  return Array.isArray(value) ? value.join(", ") : value
}

/**
 * Sends the request and resolves with the status and headers; the body streams from `body`.
 * Aborting `signal` destroys the request, the response and the socket.
 * @example await WebTransport.send({ url, method: "GET", headers: {}, addresses: [{ address: "127.0.0.1", family: 4 }], signal })
 */
export const send = async (exchange: Exchange): Promise<Reply> => {
  const [client, zlib, { pipeline }] = await Promise.all([exchange.url.protocol === "https:" ? import("node:https") : import("node:http"), import("node:zlib"), import("node:stream")])
  return new Promise((resolve, reject) => {
    const headers = {
      "accept-encoding": ACCEPT_ENCODING,
      ...exchange.headers,
      ...(exchange.body === undefined ? {} : { "content-length": String(Buffer.byteLength(exchange.body)) }),
    }
    const options = { method: exchange.method, headers, agent: false as const, lookup: pinned(exchange.addresses), signal: exchange.signal }
    const onResponse = (response: IncomingMessage) => resolve({ status: response.statusCode ?? 0, header: headerOf(response), body: decoded(response, zlib, pipeline) })
    const request = client.request(exchange.url, options, onResponse)
    request.on("error", reject)
    request.end(exchange.body)
  })
}
