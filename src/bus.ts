/**
 * The typed event bus of one process. Events are declared by the module that owns them with
 * `Bus.event(type, schema)`; everything published goes through one unbounded PubSub so that a
 * subscriber (SSE, MCP, the console) sees every event in publish order. An event published in a
 * Location carries the Location's id; inside a Location, `Bus.Service` is that Location's view. Publishing never blocks
 * and never fails: a slow subscriber only grows its own queue. A tap (`tap`) is the cheaper
 * reader: a function called in the publisher, in order, for a reader that only queues.
 */
export * as Bus from "./bus.js"

import { Context, Effect, Layer, PubSub, Schema, Scope, Stream } from "effect"

/** An event type: its name on the wire and the schema of its payload. */
export interface Definition<Type extends string, Payload> {
  readonly type: Type
  readonly payload: Schema.Codec<Payload, unknown>
}

/** One published event as subscribers receive it. */
export interface Event<Type extends string = string, Payload = unknown> {
  readonly type: Type
  readonly payload: Payload
  /** The id of the Location it happened in; absent for what belongs to the whole process. */
  readonly location?: string
}

/** @example const Changed = Bus.event("registry.changed", Schema.Struct({ names: Schema.Array(Schema.String) })) */
export const event = <const Type extends string, S extends Schema.Top>(type: Type, payload: S): Definition<Type, S["Type"]> => ({
  type,
  payload: payload as unknown as Schema.Codec<S["Type"], unknown>,
})

export interface Interface {
  /** Publishes an event; a Location's view of the bus (location/bus.ts) stamps its id. */
  readonly publish: <Type extends string, Payload>(definition: Definition<Type, Payload>, payload: Payload, location?: string) => Effect.Effect<void>
  /**
   * Subscribes now, in the caller's scope, and returns the stream of every event published
   * from this moment on: nothing published after `subscribe` returns can be missed.
   */
  readonly subscribe: Effect.Effect<Stream.Stream<Event>, never, Scope.Scope>
  /** The same, for the events of one definition only, typed. */
  readonly on: <Type extends string, Payload>(definition: Definition<Type, Payload>) => Effect.Effect<Stream.Stream<Event<Type, Payload>>, never, Scope.Scope>
  /**
   * Calls `listener` with every event published from now on, in the publisher, in publish order,
   * until the caller's scope closes: for a reader that keeps every event and schedules its own
   * work (the server's event log), without a stream and its fiber on every publish. `listener`
   * must not throw or block.
   */
  readonly tap: (listener: (event: Event) => void) => Effect.Effect<void, never, Scope.Scope>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Bus") {}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const pubsub = yield* PubSub.unbounded<Event>()
    yield* Effect.addFinalizer(() => PubSub.shutdown(pubsub))
    // With nobody subscribed an event has no reader: publishing it is skipped, which keeps the
    // call path free of the bus's cost when no surface listens (docs/benchmarks.md). The count
    // rises before `subscribe` returns, so nothing published after that can be missed.
    let subscribers = 0
    const listeners = new Set<(event: Event) => void>()
    // Who listens is read when the effect runs, not when it is built: a publish built before a
    // call (`Effect.andThen(work, publish)`) reaches a subscriber that came during the call.
    const publish = <Type extends string, Payload>(definition: Definition<Type, Payload>, payload: Payload, location?: string) =>
      Effect.suspend(() => {
        if (subscribers === 0 && listeners.size === 0) return Effect.void
        const event: Event = { type: definition.type, payload, ...(location === undefined ? {} : { location }) }
        for (const listener of listeners) listener(event)
        return subscribers === 0 ? Effect.void : Effect.asVoid(PubSub.publish(pubsub, event))
      })
    const counted = Effect.acquireRelease(
      Effect.sync(() => {
        subscribers++
      }),
      () =>
        Effect.sync(() => {
          subscribers--
        }),
    )
    const subscribe = Effect.andThen(counted, Effect.map(PubSub.subscribe(pubsub), Stream.fromSubscription))
    const on = <Type extends string, Payload>(definition: Definition<Type, Payload>) =>
      Effect.map(subscribe, Stream.filter((event): event is Event<Type, Payload> => event.type === definition.type))
    const tap = (listener: (event: Event) => void) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          // A new function each time, so the same listener tapped twice is called twice.
          const own = (event: Event) => listener(event)
          listeners.add(own)
          return own
        }),
        (own) => Effect.sync(() => listeners.delete(own)),
      ).pipe(Effect.asVoid)
    return Service.of({ publish, subscribe, on, tap })
  }),
)

export const defaultLayer = layer
