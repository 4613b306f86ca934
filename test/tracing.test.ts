import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema, Tracer } from "effect"
import { ToolRegistry } from "../src/tool/registry.js"
import { Tool } from "../src/tool/tool.js"
import { Tracing } from "../src/tracing.js"
import { context } from "./lib/echo.js"
import { runtimeLayer } from "./lib/runtime.js"
import { tmpdir } from "./lib/tmp.js"

/** A tracer that records the name of every span it makes, and otherwise behaves as the default one. */
const recording = () => {
  const names: Array<string> = []
  const base = Tracer.Tracer.defaultValue()
  const tracer = Tracer.make({
    span(options) {
      names.push(options.name)
      return base.span(options)
    },
  })
  return { names, tracer }
}

/** The name of the span the effect runs in, as the effect itself sees it. */
const innermost = Effect.map(Effect.option(Effect.currentSpan), Option.match({ onNone: () => "none", onSome: (span) => span.name }))

describe("Tracing.perCall", () => {
  it.effect("makes its span when a recording tracer is installed", () =>
    Effect.gen(function* () {
      const { names, tracer } = recording()
      const seen = yield* Tracing.perCall("Test.call")(innermost).pipe(Effect.withSpan("outer"), Effect.withTracer(tracer))
      expect(seen).toBe("Test.call")
      expect(names).toEqual(["outer", "Test.call"])
    }))

  it.effect("runs the effect bare under the default tracer, which records nothing", () =>
    Effect.gen(function* () {
      const seen = yield* Tracing.perCall("Test.call")(innermost).pipe(Effect.withSpan("outer"))
      expect(seen).toBe("outer")
    }))

  it.effect("Tracing.fn names its span as Effect.fn does, only when spans are recorded", () =>
    Effect.gen(function* () {
      const double = Tracing.fn("Test.double")(function* (value: number) {
        const span = yield* innermost
        return { value: value * 2, span }
      })
      const { names, tracer } = recording()
      expect(yield* double(2).pipe(Effect.withSpan("outer"), Effect.withTracer(tracer))).toEqual({ value: 4, span: "Test.double" })
      expect(names).toEqual(["outer", "Test.double"])
      expect(yield* double(3).pipe(Effect.withSpan("outer"))).toEqual({ value: 6, span: "outer" })
    }))

  it.live("gives every registry call its ToolRegistry.settle span when spans are recorded", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const probe = Tool.make({ description: "Says which span it runs in.", input: Schema.Struct({}), output: Schema.String, execute: () => innermost })
      const { names, tracer } = recording()
      const run = Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        yield* registry.register({ probe })
        const catalog = yield* registry.materialize({ rules: [] })
        const call = { id: "call_probe", name: "probe", input: {} }
        const untraced = yield* catalog.settle(call, context)
        const traced = yield* catalog.settle(call, context).pipe(Effect.withTracer(tracer))
        return [untraced, traced].map((outcome) => (outcome.type === "success" ? outcome.structured : outcome.message))
      }).pipe(Effect.provide(runtimeLayer({ outputDirectory: dir })))
      expect(yield* run).toEqual(["none", "ToolRegistry.settle"])
      expect(names).toContain("ToolRegistry.settle")
    }))
})
