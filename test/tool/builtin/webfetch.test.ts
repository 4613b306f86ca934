import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Permission } from "../../../src/permission/permission.js"
import { WebHttp } from "../../../src/tool/builtin/web/http.js"
import { WebFetchTool } from "../../../src/tool/builtin/webfetch.js"
import { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { serve } from "../../lib/http-server.js"
import { page, summary, withTool } from "./web/webfetch-harness.js"

const EXAMPLE = "<h1>Hello</h1><p>world <strong>wide</strong></p>"
const VERSION = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version

describe("WebFetchTool", () => {
  it.live("has a valid definition with every input field described", () =>
    withTool((tool) =>
      Effect.sync(() => {
        expect(Tool.validate(WebFetchTool.name, tool)).toBeUndefined()
        const definition = Tool.definition(WebFetchTool.name, tool)
        expect(definition.description).toBe(WebFetchTool.DESCRIPTION)
        expect(definition.inputSchema).toMatchObject({ type: "object", required: ["url"] })
      })))

  it.live("converts HTML to markdown, asks webfetch [url] and saves the scheme and host", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(page(EXAMPLE))
        const url = server.url("/docs/page?x=1")
        const { result, asked } = yield* settle(tool, { url })
        expect(textOf(result)).toBe("# Hello\n\nworld **wide**")
        expect(result._tag === "Success" && result.success.structured).toEqual({ url, finalUrl: url, contentType: "text/html", format: "markdown", output: "# Hello\n\nworld **wide**" })
        expect(summary(asked)).toEqual([{ action: "webfetch", resources: [url], save: [`http://127.0.0.1:${server.port}/*`] }])
      })))

  it.live("returns visible text or the raw HTML when asked", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(page(EXAMPLE))
        expect(textOf((yield* settle(tool, { url: server.url("/"), format: "text" })).result)).toBe("Hello\n\nworld wide")
        expect(textOf((yield* settle(tool, { url: server.url("/"), format: "html" })).result)).toBe(EXAMPLE)
      })))

  it.live("sends toolgate's User-Agent and an Accept header led by the requested format", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(page(EXAMPLE))
        for (const format of WebFetchTool.FORMATS) yield* settle(tool, { url: server.url(`/${format}`), format })
        expect(WebHttp.USER_AGENT).toBe(`toolgate/${VERSION}`)
        expect(server.requests.map((request) => [request.path, request.headers["user-agent"], request.headers.accept?.split(",")[0]])).toEqual([
          ["/markdown", `toolgate/${VERSION}`, "text/markdown;q=1.0"],
          ["/text", `toolgate/${VERSION}`, "text/plain;q=1.0"],
          ["/html", `toolgate/${VERSION}`, "text/html;q=1.0"],
        ])
      })))

  it.live("drops scripts, styles, embedded content and hidden elements", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const html = [
          "<html><head><title>Guide</title><style>p { color: red }</style><script>track()</script></head><body>",
          "<h2>Install</h2><noscript>enable js</noscript><p hidden>old</p><div aria-hidden=\"true\">icon</div>",
          "<span style=\"display: none\">ghost</span><iframe src=\"/ad\">ad</iframe><object>obj</object><embed src=\"x\">",
          "<template><p>tpl</p></template><ul><li>npm i</li><li>run it</li></ul><pre><code class=\"language-sh\">npm test\n</code></pre>",
          "<script>alert(1)</script></body></html>",
        ].join("")
        const server = yield* serve(page(html))
        expect(textOf((yield* settle(tool, { url: server.url("/") })).result)).toBe("Guide\n\n## Install\n\n-   npm i\n-   run it\n\n```sh\nnpm test\n```")
        expect(textOf((yield* settle(tool, { url: server.url("/"), format: "text" })).result)).toBe("Guide\n\nInstall\n\nnpm i\nrun it\n\nnpm test")
      })))

  it.live("returns JSON, plain text and untyped bodies as they are in every format", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const json = yield* serve(page('{"a": "<b>1</b>"}', "application/problem+json"))
        const plain = yield* serve(page("# already markdown", "text/markdown"))
        const untyped = yield* serve(page("<p>no type</p>", null))
        const structured = (yield* settle(tool, { url: json.url("/"), format: "text" })).result
        expect(structured._tag === "Success" && structured.success.structured).toMatchObject({ contentType: "application/problem+json", output: '{"a": "<b>1</b>"}' })
        expect(textOf((yield* settle(tool, { url: plain.url("/") })).result)).toBe("# already markdown")
        const none = (yield* settle(tool, { url: untyped.url("/") })).result
        expect(none._tag === "Success" && none.success.structured).toMatchObject({ contentType: "", output: "<p>no type</p>" })
      })))

  it.live("refuses images and other files by their content type without reading them", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const png = yield* serve(page(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "image/png"))
        const pdf = yield* serve(page("%PDF-1.7", "application/pdf"))
        const image = yield* settle(tool, { url: png.url("/a.png") })
        expect(textOf(image.result)).toBe("Unsupported fetched image content type: image/png")
        expect(textOf(image.result)).toBe(WebFetchTool.Messages.image("image/png"))
        expect(textOf((yield* settle(tool, { url: pdf.url("/a.pdf") })).result)).toBe("Unsupported fetched file content type: application/pdf")
      })))

  it.live("fails with the status of a non-2xx response", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(page("<h1>Not here</h1>", "text/html", 404))
        const { result } = yield* settle(tool, { url: server.url("/missing") })
        expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Tool.Failure)
        expect(textOf(result)).toBe("Request failed with status 404")
      })))

  it.live("decodes the charset of the header, of a meta tag, or of a byte-order mark", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const latin = yield* serve(page(Buffer.from("caf\xe9 \x93quoted\x94", "latin1"), "text/plain; charset=windows-1252"))
        const meta = yield* serve(page(Buffer.concat([Buffer.from('<meta charset="iso-8859-1"><p>'), Buffer.from([0xe9]), Buffer.from("t\xe9</p>", "latin1")]), "text/html"))
        const bom = yield* serve(page(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("ünï", "utf16le")]), "text/plain; charset=utf-8"))
        expect(textOf((yield* settle(tool, { url: latin.url("/") })).result)).toBe("café \u201cquoted\u201d")
        expect(textOf((yield* settle(tool, { url: meta.url("/"), format: "text" })).result)).toBe("été")
        expect(textOf((yield* settle(tool, { url: bom.url("/") })).result)).toBe("ünï")
      })))

  it.live("refuses other schemes before any permission ask or network use", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        for (const url of ["file:///etc/passwd", "ftp://example.com/a", "javascript:alert(1)", "data:text/plain,hi", "example.com/page"]) {
          const { result, asked } = yield* settle(tool, { url })
          expect(textOf(result)).toBe("URL must use http:// or https://")
          expect(asked).toEqual([])
        }
        const invalid = yield* settle(tool, { url: "http://exa mple.com" })
        expect(textOf(invalid.result)).toBe(WebFetchTool.Messages.invalidUrl("http://exa mple.com"))
        expect(invalid.asked).toEqual([])
      })))

  it.live("asks about the URL without its credentials, normalised, so a rule about the host applies", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(page("ok", "text/plain"))
        const url = `HTTP://user:secret@127.0.0.1:${server.port}/private`
        const { result } = yield* settle(tool, { url })
        expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.BlockedError)
        expect(server.requests).toEqual([])
      }), globalConfig({ permission: [{ action: "webfetch", resource: "http://127.0.0.1:*/private", effect: "deny" }] })))

  it.live("fails with a reason when nothing listens", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const port = (yield* serve(page(""))).port
        return port
      }).pipe(
        Effect.scoped,
        Effect.flatMap((port) => settle(tool, { url: `http://127.0.0.1:${port}/` })),
        Effect.map(({ result }) => expect(textOf(result)).toBe(WebHttp.Messages.network("ECONNREFUSED"))),
      )))
})
