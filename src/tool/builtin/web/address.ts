/**
 * Hosts as the web permission rules see them: one spelling per host (pure). WHATWG URL parsing
 * already writes every IPv4 spelling (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`,
 * short `127.1`, a trailing dot) as a dotted quad and compresses IPv6 (`[0::1]` is `[::1]`); here
 * an IPv4-mapped IPv6 address (`[::ffff:7f00:1]`) becomes its IPv4 form, because a connection to
 * it reaches that IPv4 host, and trailing dots leave names (`localhost.`). `reaches` names what a
 * host connects to besides itself. The loopback is one thing under two spellings: a server bound
 * to all interfaces (Node's default) answers `127.0.0.1` and `[::1]` alike, so every loopback
 * address (`0.0.0.0`, every `127.x.y.z`, `[::]`, `[::1]`) reaches both of the rules' loopback
 * hosts, and `localhost` names are loopback whatever a resolver says (WHATWG "localhost" rules).
 * An IPv6 address that a translator on the way turns into IPv4 (NAT64's `64:ff9b::/96`, the
 * IPv4-translated `::ffff:0:0/96`) reaches the IPv4 address inside it. This machine's own
 * addresses (given by the caller: reading them is not pure) reach the loopback too.
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

/** The eight 16-bit groups of a bracketed, WHATWG-serialised IPv6 host (hex only, at most one `::`); undefined for anything else. */
const groupsOf = (host: string): ReadonlyArray<number> | undefined => {
  if (!/^\[[0-9a-f:]+\]$/.test(host)) return undefined
  const [head = "", tail, ...more] = host.slice(1, -1).split("::")
  if (more.length > 0) return undefined
  const part = (text: string) => (text === "" ? [] : text.split(":").map((group) => Number.parseInt(group, 16)))
  const [left, right] = [part(head), part(tail ?? "")]
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined
}

/** Prefixes (six groups) of IPv6 addresses that a translator connects to the IPv4 address in their last two groups. */
const TRANSLATED: ReadonlyArray<ReadonlyArray<number>> = [
  [0x64, 0xff9b, 0, 0, 0, 0],
  [0, 0, 0, 0, 0xffff, 0],
]

/** The IPv4 address (dotted quad) a translated IPv6 host stands for. */
const embedded = (host: string): string | undefined => {
  const groups = groupsOf(host)
  if (groups === undefined || !TRANSLATED.some((prefix) => prefix.every((group, index) => groups[index] === group))) return undefined
  const [high = 0, low = 0] = groups.slice(6)
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".")
}

/**
 * A host whose connections arrive at this machine's loopback: 127.0.0.0/8, 0.0.0.0/8 (this host),
 * `[::1]`, `[::]`, localhost names, and the machine's own addresses (`own`, WebOwnHosts: a server
 * bound to all interfaces answers there as on the loopback).
 */
const isLoopback = (host: string, own: ReadonlyArray<string>) =>
  /^(?:127|0)\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "[::1]" || host === "[::]" || host === "localhost" || host.endsWith(".localhost") || own.includes(host)

/**
 * Where a connection to `host` arrives besides `host` itself (URL host spellings, canonical);
 * `own` is this machine's addresses (WebOwnHosts.current()).
 * @example WebAddress.reaches("192.0.2.2", ["192.0.2.2"]) // ["127.0.0.1", "[::1]"]
 */
export const reaches = (host: string, own: ReadonlyArray<string> = []): ReadonlyArray<string> => {
  const inner = embedded(host)
  const arrives = inner === undefined ? [] : [inner]
  const loopback = isLoopback(host, own) || (inner !== undefined && isLoopback(inner, own)) ? LOOPBACK : []
  return [...new Set([...arrives, ...loopback])].filter((reached) => reached !== host)
}
