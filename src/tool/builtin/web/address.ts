/**
 * Hosts as the web permission rules see them: one spelling per host (pure). WHATWG URL parsing
 * already writes every IPv4 spelling (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`,
 * short `127.1`, a trailing dot) as a dotted quad and compresses IPv6 (`[0::1]` is `[::1]`); here
 * an IPv4-mapped IPv6 address (`[::ffff:7f00:1]`) becomes its IPv4 form, because a connection to
 * it reaches that IPv4 host, and trailing dots leave names (`localhost.`). `reaches` names what a
 * host connects to besides itself: `0.0.0.0`, every `127.x.y.z` and `[::]` reach the loopback of
 * their family (the rules' `127.0.0.1`, `[::1]`), and
 * `localhost` names are loopback whatever a resolver says (WHATWG "localhost" rules).
 */
export * as WebAddress from "./address.js"

/** One resolved address, as `dns.lookup` returns it. */
export interface Address {
  readonly address: string
  readonly family: 4 | 6
}

/** Hosts (URL spelling) that a loopback-bound name reaches. */
export const LOOPBACK: ReadonlyArray<string> = ["127.0.0.1", "[::1]"]

const MAPPED = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/

/** `[::ffff:7f00:1]` → `127.0.0.1`; anything else as it is. */
const unmapped = (host: string): string => {
  const groups = MAPPED.exec(host)
  if (groups === null) return host
  const [high, low] = [Number.parseInt(groups[1] as string, 16), Number.parseInt(groups[2] as string, 16)]
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".")
}

/**
 * The one spelling of a WHATWG-parsed host (`URL.hostname`: lowercase, IPv4 as a dotted quad,
 * IPv6 in brackets and compressed).
 * @example WebAddress.canonicalHost("[::ffff:7f00:1]") // "127.0.0.1"
 */
export const canonicalHost = (hostname: string): string => {
  if (hostname.startsWith("[")) return unmapped(hostname)
  const bare = hostname.replace(/\.+$/, "")
  return bare === "" ? hostname : bare
}

/**
 * A resolved address in URL host spelling, canonical: IPv6 in brackets, compressed by the URL
 * parser, without a zone (`fe80::1%eth0`; a URL cannot name one), mapped IPv4 as IPv4.
 */
export const hostOf = (address: string): string => {
  if (!address.includes(":")) return address
  const bracketed = `[${address.replace(/%.*$/, "")}]`
  return URL.canParse(`http://${bracketed}/`) ? unmapped(new URL(`http://${bracketed}/`).hostname) : bracketed
}

/** Where a connection to `host` arrives besides `host` itself (URL host spellings, canonical). */
export const reaches = (host: string): ReadonlyArray<string> => {
  // All of 127.0.0.0/8 is the loopback interface (a service bound to 0.0.0.0 answers 127.0.0.2), and 0.0.0.0 is this host.
  if (host !== "127.0.0.1" && /^(?:127|0)\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return ["127.0.0.1"]
  if (host === "[::]") return ["[::1]"]
  if (host === "localhost" || host.endsWith(".localhost")) return LOOPBACK
  return []
}
