import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue, Schema, Stream } from "effect"
import { Bus } from "../src/bus.js"

const Ping = Bus.event("test.ping", Schema.Struct({ n: Schema.Number }))
const Pong = Bus.event("test.pong", Schema.Struct({ n: Schema.Number }))

describe("Bus", () => {
  it.live("delivers every event published after subscribe, in order, and filters by definition", () =>
    Effect.gen(function* () {
      const bus = yield* Bus.Service
      const all = yield* Queue.unbounded<Bus.Event>()
      const pings = yield* Queue.unbounded<Bus.Event<"test.ping", { readonly n: number }>>()
      yield* Stream.runForEach(yield* bus.subscribe, (event) => Queue.offer(all, event)).pipe(Effect.forkScoped)
      yield* Stream.runForEach(yield* bus.on(Ping), (event) => Queue.offer(pings, event)).pipe(Effect.forkScoped)
      yield* bus.publish(Ping, { n: 1 })
      yield* bus.publish(Pong, { n: 2 })
      yield* bus.publish(Ping, { n: 3 })
      const received = [yield* Queue.take(all), yield* Queue.take(all), yield* Queue.take(all)]
      expect(received).toEqual([
        { type: "test.ping", payload: { n: 1 } },
        { type: "test.pong", payload: { n: 2 } },
        { type: "test.ping", payload: { n: 3 } },
      ])
      expect([yield* Queue.take(pings), yield* Queue.take(pings)].map((event) => event.payload.n)).toEqual([1, 3])
    }).pipe(Effect.provide(Bus.layer)))
})
