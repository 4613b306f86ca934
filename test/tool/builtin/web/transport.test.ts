import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib"
import type { LookupAddress } from "node:dns"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebHttp } from "../../../../src/tool/builtin/web/http.js"
import { WebTransport } from "../../../../src/tool/builtin/web/transport.js"
import { serve } from "../../../lib/http-server.js"
import type { Handler } from "../../../lib/http-server.js"

const MiB = 1024 * 1024

const encoded = (coding: string, body: Buffer): Handler => (_, response) => {
  response.writeHead(200, { "content-type": "text/plain", "content-encoding": coding })
  response.end(body)
}

const get = (url: string, maxBytes = MiB) => WebHttp.fetch({ url: new URL(url), timeoutSeconds: 5, maxBytes, maxRedirects: 0 })

describe("WebTransport", () => {
  it.live("asks for and decodes gzip, deflate and br bodies, several codings last first", () =>
    Effect.gen(function* () {
      const text = Buffer.from("hello ".repeat(1_000))
      const cases: ReadonlyArray<readonly [string, Buffer]> = [
        ["gzip", gzipSync(text)],
        ["x-gzip", gzipSync(text)],
        ["deflate", deflateSync(text)],
        ["br", brotliCompressSync(text)],
        ["deflate, gzip", gzipSync(deflateSync(text))],
      ]
      for (const [coding, body] of cases) {
        const server = yield* serve(encoded(coding, body))
        const response = yield* get(server.url("/"))
        expect([coding, response.body.toString()]).toEqual([coding, text.toString()])
        expect(server.requests[0]?.headers["accept-encoding"]).toBe(WebTransport.ACCEPT_ENCODING)
      }
    }))

  it.live("returns a body in an unknown coding as it came", () =>
    Effect.gen(function* () {
      const server = yield* serve(encoded("compress", Buffer.from("raw bytes")))
      expect((yield* get(server.url("/"))).body.toString()).toBe("raw bytes")
    }))

  it.live("counts the decoded bytes against the limit, so a small compressed body cannot hold more", () =>
    Effect.gen(function* () {
      const server = yield* serve(encoded("gzip", gzipSync(Buffer.alloc(6 * MiB))))
      const error = yield* get(server.url("/"), 5 * MiB).pipe(Effect.flip)
      expect(error).toBeInstanceOf(WebHttp.TooLargeError)
    }))

  it("answers a connection's lookup with the pinned addresses only, by family and all at once", () => {
    const lookup = WebTransport.pinned([
      { address: "192.0.2.1", family: 4 },
      { address: "2001:db8::1", family: 6 },
    ])
    const answers: Array<readonly [string | null, string | ReadonlyArray<LookupAddress>, number | undefined]> = []
    lookup("anything.test", { all: true }, (error, address, family) => answers.push([error?.message ?? null, address, family]))
    lookup("anything.test", { family: 6 }, (error, address, family) => answers.push([error?.message ?? null, address, family]))
    lookup("anything.test", {}, (error, address, family) => answers.push([error?.message ?? null, address, family]))
    WebTransport.pinned([])("none.test", {}, (error, address, family) => answers.push([error?.message ?? null, address, family]))
    expect(answers).toEqual([
      [null, [{ address: "192.0.2.1", family: 4 }, { address: "2001:db8::1", family: 6 }], undefined],
      [null, "2001:db8::1", 6],
      [null, "192.0.2.1", 4],
      ["ENOTFOUND none.test", "", 0],
    ])
  })
})
