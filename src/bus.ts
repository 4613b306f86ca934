/**
 * The typed event bus of one process. Events are declared by the module that owns them with
 * `Bus.event(type, schema)`; everything published goes through one unbounded PubSub so that a
 * subscriber (SSE, MCP, the console) sees every event in publish order. Publishing never blocks
 * and never fails: a slow subscriber only grows its own queue.
 */
export * as Bus from "./bus.js"

import { Context, Effect, Layer, PubSub, Schema, Stream } from "effect"

/** An event type: its name on the wire and the schema of its payload. */
export interface Definition<Type extends string, Payload> {
  readonly type: Type
  readonly payload: Schema.Codec<Payload, unknown>
}

/** One published event as subscribers receive it. */
export interface Event<Type extends string = string, Payload = unknown> {
  readonly type: Type
  readonly payload: Payload
}

/** @example const Changed = Bus.event("registry.changed", Schema.Struct({ names: Schema.Array(Schema.String) })) */
export const event = <const Type extends string, S extends Schema.Top>(type: Type, payload: S): Definition<Type, S["Type"]> => ({
  type,
  payload: payload as unknown as Schema.Codec<S["Type"], unknown>,
})

export interface Interface {
  readonly publish: <Type extends string, Payload>(definition: Definition<Type, Payload>, payload: Payload) => Effect.Effect<void>
  /** Every event, from the moment the stream is run. */
  readonly all: Stream.Stream<Event>
  /** Only the events of one definition, typed. */
  readonly on: <Type extends string, Payload>(definition: Definition<Type, Payload>) => Stream.Stream<Event<Type, Payload>>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Bus") {}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const pubsub = yield* PubSub.unbounded<Event>()
    yield* Effect.addFinalizer(() => PubSub.shutdown(pubsub))
    const publish = <Type extends string, Payload>(definition: Definition<Type, Payload>, payload: Payload) =>
      PubSub.publish(pubsub, { type: definition.type, payload }).pipe(Effect.asVoid)
    const all = Stream.fromPubSub(pubsub)
    const on = <Type extends string, Payload>(definition: Definition<Type, Payload>) =>
      all.pipe(Stream.filter((event): event is Event<Type, Payload> => event.type === definition.type))
    return Service.of({ publish, all, on })
  }),
)

export const defaultLayer = layer
