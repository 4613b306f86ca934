/**
 * The process layer of tools: one per process, shared by every Location. Plugin authors add
 * tools here with `toolgate.tools.register({ name: tool })` inside a scope; closing that scope
 * revokes them. A Location registration of the same name beats an entry here (registry.ts).
 */
export * as ApplicationTools from "./application-tools.js"

import { Context, Effect, Layer, Schema, Scope } from "effect"
import { Bus } from "../bus.js"
import { Registrations } from "./registrations.js"
import type { Tool } from "./tool.js"
import { Tracing } from "../tracing.js"

export const Changed = Bus.event(
  "registry.changed",
  Schema.Struct({ layer: Schema.Literals(["process", "location"]), names: Schema.Array(Schema.String) }),
)

export interface Interface {
  readonly register: (record: Readonly<Record<string, Tool.AnyTool>>) => Effect.Effect<void, Tool.RegistrationError, Scope.Scope>
  readonly lookup: (name: string) => Registrations.Entry | undefined
  readonly names: () => ReadonlyArray<string>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/ApplicationTools") {}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const registrations = Registrations.make()
    const changed = (names: ReadonlyArray<string>) => bus.publish(Changed, { layer: "process", names })
    return Service.of({
      register: (record) => registrations.register(record, changed),
      lookup: registrations.lookup,
      names: registrations.names,
    })
  }),
)

/**
 * Registers process-wide tools for as long as the caller's scope is open.
 * @example yield* toolgate.tools.register({ echo })
 */
export const register = Tracing.fn("ApplicationTools.register")(function* (record: Readonly<Record<string, Tool.AnyTool>>) {
  const service = yield* Service
  return yield* service.register(record)
})
