import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebConvert } from "../../../../src/tool/builtin/web/convert.js"

const EXAMPLE = "<h1>Hello</h1><p>world <strong>wide</strong></p>"
const nested = (depth: number) => `${"<div>".repeat(depth)}x${"</div>".repeat(depth)}`

describe("WebConvert", () => {
  it.live("converts in a worker, one after another and side by side", () =>
    Effect.gen(function* () {
      expect(yield* WebConvert.convert(EXAMPLE, "markdown")).toBe("# Hello\n\nworld **wide**")
      expect(yield* WebConvert.convert(EXAMPLE, "text")).toBe("Hello\n\nworld wide")
      const both = yield* Effect.all([WebConvert.convert("<p>a</p>", "markdown"), WebConvert.convert("<p>b</p>", "text")], { concurrency: "unbounded" })
      expect(both).toEqual(["a", "b"])
    }))

  it.live("stops a pathological page when a timeout ends the effect, and the next page still converts", () =>
    Effect.gen(function* () {
      const start = Date.now()
      const result = yield* WebConvert.convert(nested(100_000), "markdown").pipe(Effect.timeoutOption("500 millis"))
      expect(result._tag).toBe("None")
      expect(Date.now() - start).toBeLessThan(5_000)
      expect(yield* WebConvert.convert(EXAMPLE, "markdown")).toBe("# Hello\n\nworld **wide**")
    }))

  it.live("reports a page the converter cannot handle", () =>
    Effect.gen(function* () {
      const error = yield* WebConvert.convert(nested(6_000), "markdown").pipe(Effect.flip)
      expect(error.message).toBe(WebConvert.Messages.failed("Maximum call stack size exceeded"))
    }))
})
