/**
 * The canonical form of a webfetch rule's URL pattern, so that a rule names what is fetched, not
 * how it was spelled. webfetch matches rules against the canonical URL (WebUrl: lowercase scheme
 * and host, IPv4 as a dotted quad, IDN as punycode, no trailing dot, no default port, unreserved
 * escapes decoded, dot segments gone), so a rule written any other way matched nothing:
 * `https://EXAMPLE.com/*`, `http://127.1:*`, `https://bücher.example/*`, `http://h:80/*` and
 * `https://example.com./*` denied nothing, not even the URL spelled as the rule. A rule now also
 * stands for this form (rule-spellings.ts), wildcards kept where they were written.
 * Left as written: a pattern that is not an http(s) URL with `//` (`*`, `*example*`); one with
 * credentials or a backslash before its path (which host it names is a trap); a path with
 * a dot segment after a wildcard (`/a/*\/../b`: what `*` spans decides what `..` removes).
 */
export * as PermissionUrlPattern from "./url-pattern.js"

import { WebUrl } from "../tool/builtin/web/url.js"

/** The action whose rules are URL patterns. */
export const WEB_ACTION = "webfetch"

const URL_PATTERN = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)(.*)$/su
/** `host[:port]`, the host possibly a bracketed IPv6 address. */
const AUTHORITY = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/su
const WILD = /[*?]/
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/iu

/** A wildcard held as letters that every canonical step leaves alone. */
const held = (index: number) => `qqwild${index}qq`
const HELD = /qqwild(\d+)qq/gu

/**
 * The canonical spelling of a webfetch pattern, or undefined when it has none other than its own.
 * @example PermissionUrlPattern.canonical("HTTP://127.1:*") // "http://127.0.0.1:*"
 * @example PermissionUrlPattern.canonical("https://Bücher.example./docs/*") // "https://xn--bcher-kva.example/docs/*"
 */
export const canonical = (written: string): string | undefined => {
  const found = URL_PATTERN.exec(written)
  if (found === null) return undefined
  const [, scheme = "", authority = "", rest = ""] = found
  // Credentials name no resource: `http://good.example@evil.example/*` is evil.example to the
  // parser, and an allow read so would allow a host its writer may not have meant.
  if (!/^https?$/iu.test(scheme) || /[@\\]/u.test(authority)) return undefined
  // From the segment of the first wildcard on, a dot segment's meaning depends on what `*` spans.
  const path = rest.split("?")[0] ?? ""
  const wild = path.search(WILD)
  if (wild !== -1 && DOT_SEGMENT.test(path.slice(path.lastIndexOf("/", wild)))) return undefined
  const [, host = "", port] = AUTHORITY.exec(authority) ?? []
  const wilds: Array<string> = []
  const hold = (text: string) => text.replace(/[*?]/gu, (wild) => held(wilds.push(wild) - 1))
  // A wildcard port cannot be parsed: the rest is canonical without it, and it goes back after the host.
  const wildPort = port !== undefined && WILD.test(port)
  const url = WebUrl.canonical(`${scheme}://${hold(host)}${port === undefined || wildPort ? "" : `:${port}`}${hold(rest) || "/"}`)
  if (url === undefined) return undefined
  const tail = rest === "" ? "" : url.url.slice(url.origin.length)
  const form = `${url.origin}${wildPort ? `:${port}` : ""}${tail}`
  const restored = { count: 0 }
  const result = form.replace(HELD, (_, index: string) => {
    restored.count += 1
    return wilds[Number(index)] ?? ""
  })
  // A wildcard the URL parser moved or dropped (`*` in a port with digits, in an IPv6 address) leaves the pattern as written.
  return restored.count === wilds.length && result !== written ? result : undefined
}
