/**
 * webfetch: a generated 4 MB HTML page (headings, paragraphs with inline markup and links, lists,
 * code blocks, scripts and hidden elements) served from a local node:http server and fetched
 * through the real `webfetch` tool — `Tool.settle` with the real permission gate (the `build`
 * agent allows webfetch, so nothing waits for a person), the scheme check, the streamed and
 * counted body, charset decoding and the markdown conversion — against the same conversion
 * (`WebHtml.toMarkdown`) alone on the same HTML string in the same process. Best of 5; both
 * must produce the same markdown. Target: ratio ≤ 1.3.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { mkdir } from "node:fs/promises"
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { Effect } from "effect"
import { Session } from "../src/session.js"
import { WebHtml } from "../src/tool/builtin/web/html.js"
import { WebFetchTool } from "../src/tool/builtin/webfetch.js"
import { Tool } from "../src/tool/tool.js"
import { harnessLayer } from "../test/lib/file-tools.js"

const MB = 1024 * 1024
const SIZE = 4 * MB
const ROUNDS = 5

const section = (index: number) =>
  [
    `<h2 id="s${index}">Section ${index}: configuring the <code>widget</code></h2>`,
    `<p>The <strong>widget</strong> reads its settings from <a href="/docs/config#s${index}">the config file</a>; see <em>defaults</em> below. Values &amp; units are checked.</p>`,
    `<ul><li>timeout: <code>${index % 60}</code> seconds</li><li>retries: ${index % 5}</li><li>mode: <a href="/modes">fast</a></li></ul>`,
    `<pre><code class="language-ts">const widget = make({ timeout: ${index % 60}, retries: ${index % 5} })\nawait widget.start()\n</code></pre>`,
    `<div hidden>internal note ${index}</div><script>track(${index})</script>`,
    `<blockquote><p>Note: section ${index} applies to version ${index % 9}.x only.</p></blockquote>`,
  ].join("\n")

const makeHtml = () => {
  const head = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Widget manual</title><style>body { font: 14px sans-serif }</style></head><body>"
  const sections: string[] = []
  const size = { bytes: head.length }
  for (let index = 0; size.bytes < SIZE; index++) {
    const next = section(index)
    sections.push(next)
    size.bytes += next.length + 1
  }
  return `${head}${sections.join("\n")}</body></html>`
}

const listen = (html: Buffer) =>
  new Promise<{ readonly url: string; readonly close: () => Promise<void> }>((resolve) => {
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": String(html.byteLength) })
      response.end(html)
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({ url: `http://127.0.0.1:${port}/manual.html`, close: () => new Promise((done) => server.close(() => done())) })
    })
  })

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-"))
const work = path.join(root, "work")

const program = (url: string, html: string) =>
  Effect.gen(function* () {
    const tool = yield* WebFetchTool.make
    const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
    const context: Tool.Context = { sessionID: session.id, agent: "build", assistantMessageID: "msg_bench", toolCallID: "call_bench" }
    const call = { id: "call_bench", name: WebFetchTool.name, input: { url } }
    yield* Effect.promise(() => WebHtml.load())
    const fetches: number[] = []
    const baselines: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const fetchStart = performance.now()
      const settled = yield* Tool.settle(tool, call, context)
      fetches.push(performance.now() - fetchStart)

      const baselineStart = performance.now()
      const expected = yield* Effect.promise(() => WebHtml.toMarkdown(html))
      baselines.push(performance.now() - baselineStart)

      const first = settled.content[0]
      if (first?.type !== "text" || first.text !== expected) throw new Error(`the tool and the baseline differ: ${JSON.stringify(first).slice(0, 200)}`)
    }
    return { fetch: Math.min(...fetches), baseline: Math.min(...baselines) }
  })

const html = makeHtml()
const body = Buffer.from(html, "utf8")
const server = await listen(body)
try {
  await mkdir(path.join(work, ".git"), { recursive: true })
  await mkdir(path.join(root, "home"), { recursive: true })
  const { fetch, baseline } = await Effect.runPromise(program(server.url, html).pipe(Effect.provide(harnessLayer(root)), Effect.scoped))
  console.log(`webfetch: a ${(body.byteLength / MB).toFixed(1)} MB HTML page to markdown, best of ${ROUNDS} (same markdown)`)
  console.log(`  WebFetchTool via Tool.settle (local HTTP)  ${fetch.toFixed(0)} ms`)
  console.log(`  WebHtml.toMarkdown on the same string      ${baseline.toFixed(0)} ms`)
  console.log(`  ratio                                      ${(fetch / baseline).toFixed(2)} (target ≤ 1.3)`)
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
}
