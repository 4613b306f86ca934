/**
 * A Location's view of the process bus: everything published through it carries the Location's
 * id, and its subscribers see the events of this Location and of the whole process (plugins'
 * tools changing), never another Location's. Inside a Location this view is `Bus.Service`; a
 * surface that hosts many Locations subscribes to the process bus and reads `event.location`.
 */
export * as LocationBus from "./bus.js"

import { Effect, Layer, Stream } from "effect"
import { Bus } from "../bus.js"
import { Location } from "./location.js"

/** Whether an event concerns the Location `id`: its own, or the process's. */
export const concerns = (id: string) => (event: Bus.Event) => event.location === undefined || event.location === id

/** The view of `bus` from the Location `id`. */
export const view = (bus: Bus.Interface, id: string): Bus.Interface => {
  const mine = concerns(id)
  const subscribe = Effect.map(bus.subscribe, Stream.filter(mine))
  return Bus.Service.of({
    publish: (definition, payload) => bus.publish(definition, payload, id),
    subscribe,
    on: <Type extends string, Payload>(definition: Bus.Definition<Type, Payload>) =>
      Effect.map(bus.on(definition), Stream.filter((event): event is Bus.Event<Type, Payload> => mine(event))),
    tap: (listener) => bus.tap((event) => (mine(event) ? listener(event) : undefined)),
  })
}

/** Replaces `Bus.Service` with the view of the Location in context. */
export const layer = Layer.effect(
  Bus.Service,
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const location = yield* Location.Service
    return view(bus, location.id)
  }),
)
