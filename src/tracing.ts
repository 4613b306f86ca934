/**
 * Spans for code that runs on every tool call. A span in Effect costs a few µs even when nothing
 * records it (the default tracer keeps spans nowhere): two copies of the fiber's context and a
 * span object per call, and `Effect.fn` captures a call-site stack besides. `perCall(name)` makes
 * the span only when a tracer that records spans is installed (an OpenTelemetry layer, a test's
 * tracer), so the call path pays for tracing only when someone traces; `fn(name)` is
 * `Effect.fn(name)` built on it, for the public methods STYLE says are traced (docs/benchmarks.md,
 * docs/decisions.md).
 */
export * as Tracing from "./tracing.js"

import { Effect, Tracer } from "effect"

/** The tracer Effect uses when none is installed; its spans are recorded nowhere. */
const unrecorded = Tracer.Tracer.defaultValue()

/** Wraps an effect in the span `name` when spans are recorded, and runs it bare otherwise. */
export const perCall = (name: string) => {
  // Made once: `withSpan` captures a stack where it is applied.
  const span = Effect.withSpan(name)
  return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) => (fiber.getRef(Tracer.Tracer) === unrecorded ? effect : span(effect)))
}

/**
 * `Effect.fn(name)`, with its span only when spans are recorded (`perCall`) and no call-site
 * stack: a served call runs a dozen of these, ~0.1 ms in all (docs/benchmarks.md, serve).
 * @example const assert = Tracing.fn("Permission.assert")(function* (input: AssertInput) { ... })
 */
export const fn =
  (name: string) =>
  <Eff extends Effect.Effect<unknown, unknown, unknown>, AEff, Args extends Array<unknown>>(body: (...args: Args) => Generator<Eff, AEff, never>) => {
    const untraced = Effect.fnUntraced(body)
    const traced = perCall(name)
    return (...args: Args) => traced(untraced(...args))
  }
