import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebHttp } from "../../../src/tool/builtin/web/http.js"
import { WebFetchTool } from "../../../src/tool/builtin/webfetch.js"
import { Tool } from "../../../src/tool/tool.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { serve, stream } from "../../lib/http-server.js"
import type { Recorded } from "../../lib/http-server.js"
import { withTool } from "./web/webfetch-harness.js"

const MiB = 1024 * 1024
const TOO_LARGE = "Response too large (exceeds 5242880 byte limit)"

/** How the only request to a server ended. */
const ending = (requests: ReadonlyArray<Recorded>) => Effect.promise(() => (requests[0] as Recorded).ended)

describe("WebFetchTool limits", () => {
  it.live("refuses a declared Content-Length over the limit without reading the body", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve((_, response) => {
          response.writeHead(200, { "content-type": "text/plain", "content-length": String(WebFetchTool.MAX_BYTES + 1) })
          response.write("x")
        })
        const { result } = yield* settle(tool, { url: server.url("/big") })
        expect(textOf(result)).toBe(TOO_LARGE)
        expect(TOO_LARGE).toBe(WebHttp.Messages.tooLarge(WebFetchTool.MAX_BYTES))
        expect(yield* ending(server.requests)).toEqual({ type: "aborted", written: 1 })
      })))

  it.live("stops reading a streamed body without Content-Length once it passes the limit, and the server sees the abort", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        // 6 MiB, then the response stays open: only the client giving up can end it.
        const server = yield* serve((_, response) => {
          response.writeHead(200, { "content-type": "text/plain" })
          void stream(response, 6 * MiB)
        })
        const { result } = yield* settle(tool, { url: server.url("/stream") })
        expect(textOf(result)).toBe(TOO_LARGE)
        expect((yield* ending(server.requests)).type).toBe("aborted")
      })))

  it.live("stops an endless body, so nothing beyond the limit is ever held", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve((_, response) => {
          response.writeHead(200, { "content-type": "text/html" })
          void stream(response, Number.POSITIVE_INFINITY, "<p>")
        })
        const before = process.memoryUsage().arrayBuffers
        const { result } = yield* settle(tool, { url: server.url("/endless") })
        expect(textOf(result)).toBe(TOO_LARGE)
        const end = yield* ending(server.requests)
        expect(end.type).toBe("aborted")
        // What the server managed to write is the limit plus what socket buffers took in flight.
        expect(end.written).toBeLessThan(16 * MiB)
        expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * MiB)
      })))

  it.live("accepts a body of exactly the limit", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve((_, response) => {
          response.writeHead(200, { "content-type": "text/plain" })
          void stream(response, WebFetchTool.MAX_BYTES).then(() => response.end())
        })
        const { result } = yield* settle(tool, { url: server.url("/exact") })
        expect(textOf(result).length).toBe(WebFetchTool.MAX_BYTES)
      })))

  it.live("times out while waiting for the response, and aborts it", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(() => undefined)
        const { result } = yield* settle(tool, { url: server.url("/slow"), timeout: 0.3 })
        expect(textOf(result)).toBe("Request timed out after 0.3 seconds")
        expect(textOf(result)).toBe(WebHttp.Messages.timeout(0.3))
        expect((yield* ending(server.requests)).type).toBe("aborted")
      })))

  it.live("times out while the body trickles in", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve((_, response) => {
          response.writeHead(200, { "content-type": "text/plain" })
          response.write("first part")
        })
        const { result } = yield* settle(tool, { url: server.url("/trickle"), timeout: 0.3 })
        expect(textOf(result)).toBe(WebHttp.Messages.timeout(0.3))
        expect((yield* ending(server.requests)).type).toBe("aborted")
      })))

  it.live("bounds the conversion of a pathological page by the same timeout", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        // The HTML parser is quadratic in nesting depth: this page would take minutes to parse.
        const server = yield* serve((_, response) => {
          response.writeHead(200, { "content-type": "text/html" })
          response.end(`${"<div>".repeat(100_000)}x${"</div>".repeat(100_000)}`)
        })
        const start = Date.now()
        const { result } = yield* settle(tool, { url: server.url("/deep"), timeout: 1 })
        expect(textOf(result)).toBe(WebHttp.Messages.timeout(1))
        expect(Date.now() - start).toBeLessThan(10_000)
      })))

  it.live("rejects a timeout above the maximum or not above zero as invalid input", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        for (const timeout of [WebFetchTool.MAX_TIMEOUT_SECONDS + 1, 0, -1]) {
          const { result, asked } = yield* settle(tool, { url: "http://127.0.0.1:1/", timeout })
          expect(textOf(result).startsWith(Tool.Messages.invalidInput(""))).toBe(true)
          expect(asked).toEqual([])
        }
      })))
})
