import { describe, expect, it } from "@effect/vitest"
import { WebUrl } from "../../../../src/tool/builtin/web/url.js"

interface Case {
  readonly name: string
  readonly input: string
  readonly url: string
  /** Only for opaque paths: what a lenient server reads besides the canonical path. */
  readonly reading?: string
}

const HOSTS: ReadonlyArray<Case> = [
  { name: "IPv4-mapped IPv6, dotted", input: "http://[::ffff:127.0.0.1]:8080/", url: "http://127.0.0.1:8080/" },
  { name: "IPv4-mapped IPv6, hex", input: "http://[::ffff:7f00:1]/", url: "http://127.0.0.1/" },
  { name: "IPv4-mapped IPv6, uncompressed", input: "http://[0:0:0:0:0:ffff:127.0.0.1]/", url: "http://127.0.0.1/" },
  { name: "IPv4-mapped IPv6, uppercase", input: "http://[::FFFF:127.0.0.1]/", url: "http://127.0.0.1/" },
  { name: "IPv4-mapped unspecified address", input: "http://[::ffff:0:0]/", url: "http://0.0.0.0/" },
  { name: "IPv4 as one decimal number", input: "http://2130706433/", url: "http://127.0.0.1/" },
  { name: "IPv4 hex parts, short form", input: "http://0x7f.1/", url: "http://127.0.0.1/" },
  { name: "IPv4 as one hex number", input: "http://0x7f000001/", url: "http://127.0.0.1/" },
  { name: "IPv4 octal part", input: "http://0177.0.0.1/", url: "http://127.0.0.1/" },
  { name: "IPv4 as one octal number", input: "http://017700000001/", url: "http://127.0.0.1/" },
  { name: "IPv4 short form", input: "http://127.1/", url: "http://127.0.0.1/" },
  { name: "IPv4 with leading zeros", input: "http://127.000.000.001/", url: "http://127.0.0.1/" },
  { name: "IPv4 with a trailing dot", input: "http://127.0.0.1./", url: "http://127.0.0.1/" },
  { name: "IPv4 in fullwidth digits", input: "http://１２７.0.0.1/", url: "http://127.0.0.1/" },
  { name: "metadata address as a decimal", input: "http://2852039166/latest/", url: "http://169.254.169.254/latest/" },
  { name: "metadata address in hex parts", input: "http://0xa9.0xfe.0xa9.0xfe/", url: "http://169.254.169.254/" },
  { name: "metadata address, two-part short form", input: "http://169.254.43518/", url: "http://169.254.169.254/" },
  { name: "metadata address, IPv4-mapped", input: "http://[::ffff:a9fe:a9fe]/", url: "http://169.254.169.254/" },
  { name: "0 is 0.0.0.0", input: "http://0/", url: "http://0.0.0.0/" },
  { name: "IPv6 loopback", input: "http://[::1]/", url: "http://[::1]/" },
  { name: "IPv6 loopback with a zero group", input: "http://[0::1]/", url: "http://[::1]/" },
  { name: "IPv6 loopback uncompressed", input: "http://[0:0:0:0:0:0:0:1]:81/", url: "http://[::1]:81/" },
  { name: "IPv6 unspecified", input: "http://[0::0]/", url: "http://[::]/" },
  { name: "trailing dot on a name", input: "http://localhost./", url: "http://localhost/" },
  { name: "two trailing dots", input: "http://localhost../", url: "http://localhost/" },
  { name: "uppercase scheme and host, default port", input: "HTTP://Example.COM:80/a", url: "http://example.com/a" },
  { name: "https default port", input: "https://example.com:443/", url: "https://example.com/" },
  { name: "a port that is not the default stays", input: "https://example.com:80/", url: "https://example.com:80/" },
  { name: "internationalised name", input: "http://ÉXAMPLE.com/", url: "http://xn--xample-9ua.com/" },
  { name: "user", input: "http://a@127.0.0.1/", url: "http://127.0.0.1/" },
  { name: "user and password", input: "http://a:b@127.0.0.1:8080/x", url: "http://127.0.0.1:8080/x" },
]

const PATHS: ReadonlyArray<Case> = [
  { name: "escaped unreserved letter", input: "http://h/%61dmin/", url: "http://h/admin/" },
  { name: "escaped uppercase letters keep their case", input: "http://h/%41DMIN/", url: "http://h/ADMIN/" },
  { name: "escaped digits and - . _ ~", input: "http://h/%31%2D%2e%5F%7e", url: "http://h/1-._~" },
  { name: "other escapes are uppercased, not decoded", input: "http://h/%e2%82%ac%3f", url: "http://h/%E2%82%AC%3F" },
  { name: "a double escape stays one level deep", input: "http://h/x/%252e%252e/admin", url: "http://h/x/%252e%252e/admin" },
  { name: "a stray % is escaped", input: "http://h/100%", url: "http://h/100%25" },
  { name: "a % before two escapes does not form a new one", input: "http://h/%%34%31", url: "http://h/%2541" },
  { name: "an invalid escape", input: "http://h/%zz", url: "http://h/%25zz" },
  { name: "empty segment", input: "http://h//admin/", url: "http://h/admin/" },
  { name: "runs of empty segments", input: "http://h///admin//x", url: "http://h/admin/x" },
  { name: "escaped dot segment", input: "http://h/x/%2e%2e/admin", url: "http://h/admin" },
  { name: "escaped dot segment, uppercase", input: "http://h/x/%2E%2E/admin", url: "http://h/admin" },
  { name: "half-escaped dot segment", input: "http://h/x/.%2e/admin", url: "http://h/admin" },
  { name: "plain dot segments", input: "http://h/a/./b/../admin", url: "http://h/a/admin" },
  { name: "dots inside a segment stay", input: "http://h/a/b%2E%2e/c", url: "http://h/a/b../c" },
  { name: "backslashes are slashes", input: "http://h\\admin", url: "http://h/admin" },
  { name: "backslash dot segments", input: "http://h\\x\\..\\admin", url: "http://h/admin" },
  { name: "tab inside the URL", input: "http://h/ad\tmin", url: "http://h/admin" },
  { name: "newline inside the URL", input: "http://h/ad\nmin", url: "http://h/admin" },
  { name: "CR LF inside the host", input: "http://lo\r\ncalhost/", url: "http://localhost/" },
  { name: "surrounding spaces", input: "  http://h/x  ", url: "http://h/x" },
  { name: "no path", input: "http://h", url: "http://h/" },
  { name: "fragment dropped", input: "http://h/a#admin", url: "http://h/a" },
  { name: "empty query dropped", input: "http://h/a?", url: "http://h/a" },
  { name: "query escapes canonical too", input: "http://h/a?q=%61%2f", url: "http://h/a?q=a%2F" },
  { name: "everything at once", input: "HTTP://u:p@[::ffff:127.0.0.1]:80//%61dmin/./x/..?%7e#f", url: "http://127.0.0.1/admin/?~" },
  { name: "escaped slash", input: "http://h/x/..%2fadmin/", url: "http://h/x/..%2Fadmin/", reading: "http://h/admin/" },
  { name: "escaped slash, uppercase", input: "http://h/a%2Fb", url: "http://h/a%2Fb", reading: "http://h/a/b" },
  { name: "escaped backslash", input: "http://h/x/..%5cadmin/", url: "http://h/x/..%5Cadmin/", reading: "http://h/admin/" },
  { name: "semicolon parameter", input: "http://h/admin;x/", url: "http://h/admin;x/", reading: "http://h/admin/" },
  { name: "escaped semicolon", input: "http://h/admin%3bx/", url: "http://h/admin%3Bx/", reading: "http://h/admin/" },
  { name: "semicolon on the last segment", input: "http://h/admin;jsessionid=1?a", url: "http://h/admin;jsessionid=1?a", reading: "http://h/admin?a" },
]

const NOT_URLS = ["http://[fe80::1%25eth0]/", "http://[::ffff:127.0.0.1%eth0]/", "file:///etc/passwd", "ftp://h/", "not a url", "http://"]

describe("WebUrl", () => {
  for (const c of [...HOSTS, ...PATHS]) {
    it(`canonical: ${c.name}`, () => {
      const canonical = WebUrl.canonical(c.input)
      expect(canonical?.url).toBe(c.url)
      expect(canonical?.opaque).toBe(c.reading !== undefined)
      expect(canonical === undefined ? [] : WebUrl.forms(canonical, [canonical.host])).toEqual(c.reading === undefined ? [c.url] : [c.url, c.reading])
    })
  }

  it("is a fixed point: the canonical form of a canonical URL is itself", () => {
    for (const c of [...HOSTS, ...PATHS]) expect(WebUrl.canonical(c.url)?.url).toBe(c.url)
  })

  it("gives no canonical form to what is not an http(s) URL (an IPv6 zone is not one)", () => {
    for (const input of NOT_URLS) expect(WebUrl.canonical(input)).toBeUndefined()
  })

  it("splits the canonical form into origin, host, port, path and query", () => {
    expect(WebUrl.canonical("HTTPS://u@[0::1]:8443//%61/b?c=%64#e")).toEqual({
      url: "https://[::1]:8443/a/b?c=d",
      origin: "https://[::1]:8443",
      scheme: "https:",
      host: "[::1]",
      port: "8443",
      path: "/a/b",
      query: "?c=d",
      opaque: false,
      targets: ["/a/b?c=d"],
    })
  })

  it("takes a parsed URL as it takes its text", () => {
    expect(WebUrl.canonical(new URL("http://0x7f.1//%61"))?.url).toBe("http://127.0.0.1/a")
  })

  it("writes the forms of a request at other hosts, every target at each, without repeats", () => {
    const opaque = WebUrl.canonical("http://localhost:8080/admin;x/") as WebUrl.Canonical
    expect(WebUrl.forms(opaque, ["localhost", "127.0.0.1", "[::1]", "127.0.0.1"])).toEqual([
      "http://localhost:8080/admin;x/",
      "http://localhost:8080/admin/",
      "http://127.0.0.1:8080/admin;x/",
      "http://127.0.0.1:8080/admin/",
      "http://[::1]:8080/admin;x/",
      "http://[::1]:8080/admin/",
    ])
  })
})
