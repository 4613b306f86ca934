/**
 * Host to addresses, once per hop. WebHttp looks a host up here, lets the caller judge every
 * address, then connects only to those (the connection's own lookup is pinned to them), so a
 * name cannot resolve to one address when judged and another when connected (DNS rebinding).
 * An IP host is its own address and needs no lookup. `dns.lookup` (getaddrinfo, like the
 * connection would use) with `all: true`, so `/etc/hosts` and every A and AAAA record count.
 */
export * as WebDns from "./dns.js"

import { isIP } from "node:net"
import { Effect, Schema } from "effect"
import type { WebAddress } from "./address.js"

export const Messages = {
  failed: (code: string, hostname: string) => `${code} ${hostname}`,
} as const

export class LookupError extends Schema.TaggedError<LookupError>()("WebDns.LookupError", { hostname: Schema.String, code: Schema.String }) {
  override get message() {
    return Messages.failed(this.code, this.hostname)
  }
}

/** How a hostname (URL spelling, IPv6 in brackets) becomes the addresses a connection may use. */
export type Lookup = (hostname: string) => Effect.Effect<ReadonlyArray<WebAddress.Address>, LookupError>

const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown }).code
  return typeof code === "string" ? code : String(error)
}

/**
 * The system resolver's answer for `hostname`; an IP host is returned as it is.
 * @example yield* WebDns.lookup("localhost") // [{ address: "127.0.0.1", family: 4 }, …]
 */
export const lookup: Lookup = (hostname) => {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname
  const family = isIP(bare)
  if (family === 4 || family === 6) return Effect.succeed([{ address: bare, family }])
  return Effect.tryPromise({
    // node:dns is imported on the first lookup, not with this module (see WebTransport).
    try: () => import("node:dns/promises").then((dns) => dns.lookup(bare, { all: true })),
    catch: (error) => new LookupError({ hostname: bare, code: codeOf(error) }),
  }).pipe(
    Effect.map((found) => found.map(({ address, family }) => ({ address, family: family === 6 ? (6 as const) : (4 as const) }))),
    Effect.flatMap((found) => (found.length === 0 ? Effect.fail(new LookupError({ hostname: bare, code: "ENOTFOUND" })) : Effect.succeed(found))),
  )
}
