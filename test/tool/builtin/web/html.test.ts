import { describe, expect, it } from "vitest"
import { WebContent } from "../../../../src/tool/builtin/web/content.js"
import { WebHtml } from "../../../../src/tool/builtin/web/html.js"
import { WebHttp } from "../../../../src/tool/builtin/web/http.js"

describe("WebHtml", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly html: string; readonly markdown: string; readonly text: string }> = [
    { name: "the spec's example", html: "<h1>Hello</h1><p>world <strong>wide</strong></p>", markdown: "# Hello\n\nworld **wide**", text: "Hello\n\nworld wide" },
    { name: "atx headings at every level", html: "<h2>Two</h2><h3>Three</h3>", markdown: "## Two\n\n### Three", text: "Two\n\nThree" },
    { name: "dash bullets and list lines", html: "<ul><li>a</li><li>b</li></ul><ol><li>c</li></ol>", markdown: "-   a\n-   b\n\n1.  c", text: "a\nb\n\nc" },
    { name: "fenced code with its language", html: '<pre><code class="language-ts">const a = 1\n</code></pre>', markdown: "```ts\nconst a = 1\n```", text: "const a = 1" },
    { name: "links keep their target in markdown only", html: '<p>see <a href="/docs">docs</a></p>', markdown: "see [docs](/docs)", text: "see docs" },
    { name: "markdown characters escaped in markdown, not in text", html: "<p>*not emphasis* and 1. no list</p>", markdown: "\\*not emphasis\\* and 1. no list", text: "*not emphasis* and 1. no list" },
    { name: "line breaks and entities", html: "<p>a<br>b &amp; c &lt;d&gt;</p>", markdown: "a  \nb & c <d>", text: "a\nb & c <d>" },
    { name: "table rows as lines, cells tab-separated in text", html: "<table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>", markdown: "k\n\nv\n\n1\n\n2", text: "k\tv\n1\t2" },
    {
      name: "script, style, noscript, iframe, object, embed and template removed",
      html: "<script>x()</script><style>p{}</style><noscript>n</noscript><iframe>i</iframe><object>o</object><embed src=e><template><p>t</p></template><p>kept</p>",
      markdown: "kept",
      text: "kept",
    },
    {
      name: "hidden elements removed: hidden, aria-hidden, inline display or visibility",
      html: '<p hidden>h</p><h2 aria-hidden="true">a</h2><div style="color: red; display:none">d</div><span style="visibility: hidden !important">v</span><p aria-hidden="false">shown</p><p style="display: block">block</p>',
      markdown: "shown\n\nblock",
      text: "shown\n\nblock",
    },
    { name: "a title stands on its own", html: "<title>T</title>body text", markdown: "T\n\nbody text", text: "T\n\nbody text" },
    { name: "an empty page", html: "", markdown: "", text: "" },
  ]
  for (const c of cases) {
    it(`converts ${c.name}`, async () => {
      expect(await WebHtml.toMarkdown(c.html)).toBe(c.markdown)
      expect(await WebHtml.toText(c.html)).toBe(c.text)
    })
  }
})

describe("WebContent", () => {
  it("classifies media types as text, image or file", () => {
    const kinds = ["text/html", "text/csv", "application/json", "application/ld+json", "application/atom+xml", "application/xml", "image/svg+xml", "application/javascript", "", "image/png", "application/pdf", "application/octet-stream"].map(
      (type) => [type, WebContent.kind(type)],
    )
    expect(kinds).toEqual([
      ["text/html", "text"],
      ["text/csv", "text"],
      ["application/json", "text"],
      ["application/ld+json", "text"],
      ["application/atom+xml", "text"],
      ["application/xml", "text"],
      ["image/svg+xml", "text"],
      ["application/javascript", "text"],
      ["", "text"],
      ["image/png", "image"],
      ["application/pdf", "file"],
      ["application/octet-stream", "file"],
    ])
    expect(WebContent.mime(" Text/HTML ; charset=UTF-8")).toBe("text/html")
    expect(WebContent.mime(null)).toBe("")
  })

  it("picks the charset from a byte-order mark, then the header, then a meta tag for HTML, else UTF-8", () => {
    const meta = Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">')
    expect(WebContent.charset(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), "text/plain; charset=latin1")).toBe("utf-8")
    expect(WebContent.charset(Buffer.from("a"), 'text/plain; charset="ISO-8859-2"')).toBe("ISO-8859-2")
    expect(WebContent.charset(meta, "text/html")).toBe("shift_jis")
    expect(WebContent.charset(meta, "text/plain")).toBe("utf-8")
    expect(WebContent.charset(Buffer.concat([Buffer.alloc(WebContent.META_PRESCAN_BYTES, " "), meta]), "text/html")).toBe("utf-8")
    expect(WebContent.charset(Buffer.from('<meta charset="utf-16">'), "text/html")).toBe("utf-8")
  })

  it("decodes windows-1252 by the WHATWG table, an unknown label as UTF-8, and bad bytes as U+FFFD", () => {
    expect(WebContent.decode(Buffer.from([0x80, 0x93, 0x41, 0x94, 0x9f, 0xe9]), "text/plain; charset=iso-8859-1")).toBe("€“A”Ÿé")
    expect(WebContent.decode(Buffer.from([0x82, 0xa0]), "text/plain; charset=shift_jis")).toBe("あ")
    expect(WebContent.decode(Buffer.from("ok é"), "text/plain; charset=no-such-charset")).toBe("ok é")
    expect(WebContent.decode(Buffer.from([0x61, 0xff, 0x62]), "text/plain")).toBe("a\uFFFDb")
  })
})

describe("WebHttp", () => {
  it("turns URL credentials into a Basic header and a bare URL", () => {
    const split = WebHttp.splitCredentials(new URL("https://ada:p%40ss@example.com/x"))
    expect(split.url.href).toBe("https://example.com/x")
    expect(split.authorization).toBe(`Basic ${Buffer.from("ada:p@ss").toString("base64")}`)
    expect(WebHttp.splitCredentials(new URL("https://example.com/")).authorization).toBeUndefined()
  })
})
