/**
 * ServerBody.read: a body is refused from its declared length before any of it is read, a body of
 * unknown length is refused at the chunk that passes the limit, and what fits is read whole as
 * UTF-8 (a character split across chunks included). Real web Requests and streams.
 */
import { describe, expect, it } from "vitest"
import { ServerBody } from "../../src/server/body.js"

const encoder = new TextEncoder()

/** A source over a real Request; `text` fails the test when `read` was not supposed to call it. */
const sourceOf = (request: Request, options: { readonly textAllowed?: boolean } = {}): ServerBody.Source => ({
  header: (name) => request.headers.get(name) ?? undefined,
  text: () => (options.textAllowed === false ? Promise.reject(new Error("text() read a body that was to be refused")) : request.text()),
  raw: request,
})

/** A request whose body is the given chunks as a stream, with no declared length. */
const streamed = (chunks: ReadonlyArray<Uint8Array>, pulled: { count: number } = { count: 0 }) =>
  new Request("http://127.0.0.1/x", {
    method: "POST",
    body: new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[pulled.count++]
        if (chunk === undefined) controller.close()
        else controller.enqueue(chunk)
      },
    }),
    duplex: "half",
  } as RequestInit)

describe("ServerBody.read", () => {
  it("refuses a declared length over the limit without reading the body", async () => {
    const request = new Request("http://127.0.0.1/x", { method: "POST", body: "{}", headers: { "content-length": "11" } })
    expect(await ServerBody.read(sourceOf(request, { textAllowed: false }), 10)).toEqual({ tooLarge: true })
  })

  it("reads a body within its declared length", async () => {
    const request = new Request("http://127.0.0.1/x", { method: "POST", body: '{"a":"é"}', headers: { "content-length": "10" } })
    expect(await ServerBody.read(sourceOf(request), 10)).toEqual({ text: '{"a":"é"}' })
  })

  it("reads a body of unknown length, joining a character split across chunks", async () => {
    const bytes = encoder.encode('{"a":"é"}')
    const split = bytes.indexOf(0xc3) + 1
    expect(await ServerBody.read(sourceOf(streamed([bytes.slice(0, split), bytes.slice(split)])), 10)).toEqual({ text: '{"a":"é"}' })
  })

  it("refuses a body of unknown length at the chunk that passes the limit, and reads no further", async () => {
    const pulled = { count: 0 }
    const chunks = [encoder.encode("123456"), encoder.encode("789012"), encoder.encode("never read")]
    expect(await ServerBody.read(sourceOf(streamed(chunks, pulled)), 10)).toEqual({ tooLarge: true })
    expect(pulled.count).toBeLessThan(3)
  })

  it("reads a body of exactly the limit", async () => {
    expect(await ServerBody.read(sourceOf(streamed([encoder.encode("12345"), encoder.encode("67890")])), 10)).toEqual({ text: "1234567890" })
  })

  it("reads no body as empty text", async () => {
    const request = new Request("http://127.0.0.1/x", { method: "POST" })
    expect(await ServerBody.read(sourceOf(request), 10)).toEqual({ text: "" })
  })
})
