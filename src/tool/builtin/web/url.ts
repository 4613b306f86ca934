/**
 * The canonical URL that webfetch rules are matched against (pure): what a server is asked for,
 * not how it was spelled. First WHATWG parsing (node's URL: tabs and newlines dropped, `\` read
 * as `/`, dot segments and `%2e` removed, scheme and host lowercased, default port dropped, IPv4
 * spellings unified). Then credentials and the fragment are dropped (neither names the resource),
 * unreserved escapes are decoded (`%61` → `a`, RFC 3986 §2.3) and the others uppercased, a `%`
 * that starts no escape becomes `%25`, runs of `/` collapse, dot segments go again, and the host
 * takes its one spelling (WebAddress). The result is a fixed point of `canonical`. A path holding
 * an escaped slash or backslash or a `;` is `opaque`: servers disagree on what it names.
 */
export * as WebUrl from "./url.js"

import { WebAddress } from "./address.js"

export interface Canonical {
  /** `<scheme>//<host>[:<port>]<path>[?<query>]`: what rules are matched against. */
  readonly url: string
  /** `<scheme>//<host>[:<port>]` */
  readonly origin: string
  /** `http:` or `https:` */
  readonly scheme: string
  readonly host: string
  /** "" for the scheme's default port. */
  readonly port: string
  readonly path: string
  /** "" or `?…` */
  readonly query: string
  /** An escaped `/` or `\` (`%2F`, `%5C`) or a `;` (also `%3B`) in the path: no wildcard may allow it. */
  readonly opaque: boolean
  /**
   * Path and query as a server may read them: the canonical one first; for an opaque path also
   * the one with escaped slashes as slashes and `;` parameters dropped (`/admin;x/` → `/admin/`).
   */
  readonly targets: ReadonlyArray<string>
}

const UNRESERVED = /^[A-Za-z0-9._~-]$/
const ESCAPE = /%([0-9A-Fa-f]{2})|%/g
const OPAQUE = /%2F|%5C|%3B|;/i

/** Unreserved escapes decoded, the others uppercased, a stray `%` escaped: one spelling per byte. */
const unescape = (text: string) =>
  text.replace(ESCAPE, (_, hex: string | undefined) => {
    if (hex === undefined) return "%25"
    const char = String.fromCharCode(Number.parseInt(hex, 16))
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`
  })

/** Dot segments removed by the URL parser's own path rules (RFC 3986 §5.2.4 as WHATWG has it). */
const withoutDots = (path: string) => {
  const url = new URL("http://h/")
  url.pathname = path
  return url.pathname
}

const canonicalPath = (path: string) => withoutDots(unescape(path).replace(/\/{2,}/g, "/"))

/** The path as a server that splits on escaped slashes and drops `;` parameters reads it. */
const reading = (path: string) => canonicalPath(path.replace(/%2F|%5C/gi, "/").replace(/(;|%3B)[^/]*/gi, ""))

const authority = (host: string, port: string) => (port === "" ? host : `${host}:${port}`)

/**
 * The canonical form of an http(s) URL; undefined when it does not parse or has another scheme.
 * @example WebUrl.canonical("http://[::ffff:127.0.0.1]:80//%61dmin/")?.url // "http://127.0.0.1/admin/"
 */
export const canonical = (input: string | URL): Canonical | undefined => {
  const url = typeof input !== "string" ? input : URL.canParse(input) ? new URL(input) : undefined
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined
  const host = WebAddress.canonicalHost(url.hostname)
  const path = canonicalPath(url.pathname)
  const query = unescape(url.search)
  const opaque = OPAQUE.test(path)
  const origin = `${url.protocol}//${authority(host, url.port)}`
  const read = opaque ? `${reading(path)}${query}` : undefined
  const targets = read === undefined || read === `${path}${query}` ? [`${path}${query}`] : [`${path}${query}`, read]
  return { url: `${origin}${path}${query}`, origin, scheme: url.protocol, host, port: url.port, path, query, opaque, targets }
}

/**
 * The URLs a request for `canonical` is judged as when it arrives at each of `hosts` (canonical
 * host spellings): every target at every host, without repeats.
 * @example WebUrl.forms(WebUrl.canonical("http://localhost:8080/a")!, ["127.0.0.1"]) // ["http://127.0.0.1:8080/a"]
 */
export const forms = (canonical: Canonical, hosts: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...new Set(hosts.flatMap((host) => canonical.targets.map((target) => `${canonical.scheme}//${authority(host, canonical.port)}${target}`))),
]
