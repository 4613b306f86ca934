import { describe, expect, it } from "vitest"
import { PermissionUrlPattern } from "../../src/permission/url-pattern.js"
import { Wildcard } from "../../src/permission/wildcard.js"
import { WebUrl } from "../../src/tool/builtin/web/url.js"

describe("PermissionUrlPattern.canonical", () => {
  const forms: ReadonlyArray<readonly [string, string | undefined]> = [
    ["https://EXAMPLE.com/*", "https://example.com/*"],
    ["HTTPS://example.com/*", "https://example.com/*"],
    ["https://bücher.example/*", "https://xn--bcher-kva.example/*"],
    ["https://example.com./*", "https://example.com/*"],
    ["http://example.com:80/*", "http://example.com/*"],
    ["https://example.com:443/a", "https://example.com/a"],
    ["http://127.1:*", "http://127.0.0.1:*"],
    ["http://2130706433:8080/*", "http://127.0.0.1:8080/*"],
    ["http://[0::1]:*", "http://[::1]:*"],
    ["http://[::ffff:127.0.0.1]/*", "http://127.0.0.1/*"],
    // Which host a pattern with credentials names is a trap (`good@evil`): left as written.
    ["https://user:pw@example.com/*", undefined],
    ["http://good.example@evil.example/*", undefined],
    ["http://good.example\\@evil.example/*", undefined],
    ["https://example.com/%7Euser/*", "https://example.com/~user/*"],
    ["https://example.com//a//*", "https://example.com/a/*"],
    ["https://example.com/a/../secret/*", "https://example.com/secret/*"],
    ["https://*.EXAMPLE.com/*", "https://*.example.com/*"],
    ["https://example.com/search?q=*", undefined],
    // Already canonical, or not a URL pattern: nothing more to stand for.
    ["https://example.com/*", undefined],
    ["*", undefined],
    ["*example*", undefined],
    ["ftp://EXAMPLE.com/*", undefined],
    // What `*` spans decides what `..` removes.
    ["https://example.com/a/*/../b", undefined],
  ]
  for (const [written, canonical] of forms) it(`${written} stands for ${String(canonical)}`, () => expect(PermissionUrlPattern.canonical(written)).toBe(canonical))

  it("matches the URL spelled as the rule is, and every other spelling of it, once canonical (as webfetch judges)", () => {
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
      ["https://EXAMPLE.com/*", ["https://EXAMPLE.com/x", "https://example.com./x", "https://Example.Com:443/x"]],
      ["http://127.1:*", ["http://127.1:8080/", "http://127.0.0.1:9/a", "http://0x7f000001:1/"]],
      ["https://bücher.example/*", ["https://bücher.example/x", "https://xn--bcher-kva.example/x", "https://BÜCHER.example/x"]],
      ["https://example.com/a/../secret/*", ["https://example.com/a/../secret/x", "https://example.com/secret/%78"]],
    ]
    for (const [written, urls] of cases) {
      const patterns = [written, PermissionUrlPattern.canonical(written) ?? written]
      for (const url of urls) {
        const fetched = WebUrl.canonical(url)?.url ?? ""
        expect([written, url, patterns.some((pattern) => Wildcard.match(fetched, pattern))]).toEqual([written, url, true])
      }
    }
  })
})
