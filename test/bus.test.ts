import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue, Schema, Stream } from "effect"
import { Bus } from "../src/bus.js"
import { LocationBus } from "../src/location/bus.js"

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

  it.live("calls a tap in the publisher, in order, from the moment it is tapped until its scope closes", () =>
    Effect.gen(function* () {
      const bus = yield* Bus.Service
      const seen: Array<number> = []
      yield* bus.publish(Ping, { n: 0 })
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* bus.tap((event) => seen.push((event.payload as { n: number }).n))
          yield* bus.publish(Ping, { n: 1 })
          // Synchronous: the tap has run before publish returns, with no subscriber at all.
          expect(seen).toEqual([1])
          yield* bus.publish(Pong, { n: 2 }, "loc_a")
        }),
      )
      yield* bus.publish(Ping, { n: 3 })
      expect(seen).toEqual([1, 2])
    }).pipe(Effect.provide(Bus.layer)))

  it.live("a Location's view taps only its own events and the process's", () =>
    Effect.gen(function* () {
      const bus = yield* Bus.Service
      const view = LocationBus.view(bus, "loc_a")
      const seen: Array<string | undefined> = []
      yield* view.tap((event) => seen.push(event.location))
      yield* bus.publish(Ping, { n: 1 }, "loc_b")
      yield* view.publish(Ping, { n: 2 })
      yield* bus.publish(Ping, { n: 3 })
      expect(seen).toEqual(["loc_a", undefined])
    }).pipe(Effect.scoped, Effect.provide(Bus.layer)))

  it.live("delivers to a subscriber that joins after everyone else left, and nothing from before it joined", () =>
    Effect.gen(function* () {
      const bus = yield* Bus.Service
      yield* bus.publish(Ping, { n: 1 })
      yield* Effect.scoped(Effect.gen(function* () {
        const first = yield* Queue.unbounded<Bus.Event>()
        yield* Stream.runForEach(yield* bus.subscribe, (event) => Queue.offer(first, event)).pipe(Effect.forkScoped)
        yield* bus.publish(Ping, { n: 2 })
        expect((yield* Queue.take(first)).payload).toEqual({ n: 2 })
      }))
      yield* bus.publish(Ping, { n: 3 })
      const second = yield* Queue.unbounded<Bus.Event>()
      yield* Stream.runForEach(yield* bus.subscribe, (event) => Queue.offer(second, event)).pipe(Effect.forkScoped)
      yield* bus.publish(Ping, { n: 4 })
      expect((yield* Queue.take(second)).payload).toEqual({ n: 4 })
      expect(yield* Queue.size(second)).toBe(0)
    }).pipe(Effect.provide(Bus.layer)))

  it.live("a publish built before anyone listened reaches who listens when it runs", () =>
    Effect.gen(function* () {
      const bus = yield* Bus.Service
      // Built with nobody listening, as a call path builds what it runs after the call.
      const tapped = bus.publish(Ping, { n: 1 })
      const subscribed = bus.publish(Pong, { n: 2 })
      const seen: Array<number> = []
      yield* bus.tap((event) => seen.push((event.payload as { n: number }).n))
      yield* tapped
      expect(seen).toEqual([1])
      const queue = yield* Queue.unbounded<Bus.Event>()
      yield* Stream.runForEach(yield* bus.subscribe, (event) => Queue.offer(queue, event)).pipe(Effect.forkScoped)
      yield* subscribed
      expect((yield* Queue.take(queue)).payload).toEqual({ n: 2 })
    }).pipe(Effect.scoped, Effect.provide(Bus.layer)))
})
