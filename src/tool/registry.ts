/**
 * The Location layer of tools, and the catalog a turn runs on. A Location registration of a
 * name beats the process one (ApplicationTools). `materialize` freezes, at turn start, which
 * tools the model may see and the identity of each registration; `catalog.settle` refuses a
 * call whose registration changed since (`Stale tool call`), so a stale call never silently runs
 * another implementation. The handler is captured only after that check.
 * Policy stays out: hiding a wholly denied tool is a courtesy, never authorization, and this
 * module has no Permission service dependency (only the pure evaluation). `requests` lists what a
 * call would ask, from the tool's own declaration; judging it is ToolRequests'.
 */
export * as ToolRegistry from "./registry.js"

import { Clock, Context, Effect, Layer, Schema, Scope } from "effect"
import { Bus } from "../bus.js"
import { JsonDepth } from "../json-depth.js"
import type { Config } from "../config.js"
import { PermissionEvaluate } from "../permission/evaluate.js"
import type { Permission } from "../permission/permission.js"
import { PermissionRule } from "../permission/rule.js"
import type { Question } from "../question.js"
import { Tracing } from "../tracing.js"
import { ToolOutputStore } from "../tool-output-store.js"
import { ApplicationTools } from "./application-tools.js"
import { ModelTools } from "./model-tools.js"
import { Registrations } from "./registrations.js"
import { Tool } from "./tool.js"

export const Messages = {
  unknownTool: (name: string) => `Unknown tool: ${name}`,
  staleToolCall: (name: string) => `Stale tool call: ${name}`,
  undeclared: (name: string) => `Tool ${name} does not say which permission requests it makes`,
} as const

/** `requests` for a name nothing is registered under. */
export class UnknownToolError extends Schema.TaggedError<UnknownToolError>()("ToolRegistry.UnknownToolError", { name: Schema.String }) {
  override get message() {
    return Messages.unknownTool(this.name)
  }
}

/** `requests` for a tool that does not declare them (a plugin's, say): only running it would tell. */
export class UndeclaredError extends Schema.TaggedError<UndeclaredError>()("ToolRegistry.UndeclaredError", { name: Schema.String }) {
  override get message() {
    return Messages.undeclared(this.name)
  }
}

export type RequestsError = UnknownToolError | UndeclaredError | Tool.InvalidInputError | Tool.Failure

export const Started = Bus.event(
  "tool.started",
  Schema.Struct({ sessionID: Schema.String, toolCallID: Schema.String, tool: Schema.String }),
)

export const Settled = Bus.event(
  "tool.settled",
  Schema.Struct({
    sessionID: Schema.String,
    toolCallID: Schema.String,
    tool: Schema.String,
    durationMs: Schema.Number,
    failed: Schema.Boolean,
  }),
)

/** What the model reads back for one call: the settled result, or an error text. */
export type Outcome =
  | ({ readonly type: "success" } & Tool.Settled)
  | { readonly type: "error"; readonly message: string; readonly blocked?: true }

export interface MaterializeOptions {
  /** The agent's effective rules; used only to hide wholly denied tools. */
  readonly rules: PermissionRule.Ruleset
  /** The model id, for the apply_patch / edit+write choice. */
  readonly model?: string
  /** Feature switches (config `tools`): a tool switched off (`false`) is left out. */
  readonly switches?: Readonly<Record<string, boolean>>
  /** Which models get apply_patch (config `models.apply_patch`); the built-in rule when absent. */
  readonly applyPatchModels?: ReadonlyArray<string>
}

/** The materialize options a Location's config gives: its tool switches and apply_patch models. */
export const fromConfig = (config: Config.Info): Pick<MaterializeOptions, "switches" | "applyPatchModels"> => ({
  switches: config.tools,
  ...(config.models.apply_patch === undefined ? {} : { applyPatchModels: config.models.apply_patch }),
})

export interface Catalog {
  /** What the model may see, sorted by name. */
  readonly definitions: ReadonlyArray<Tool.Definition>
  /**
   * The only way a call runs. Errors the model should read are outcomes (a deny is one, marked
   * `blocked`); a person's decline or dismissed question, interruption and defects propagate:
   * they end the turn.
   */
  readonly settle: (call: Tool.Call, context: Tool.Context) => Effect.Effect<Outcome, Permission.DeclinedError | Question.DismissedError>
}

export interface Interface {
  readonly register: (record: Readonly<Record<string, Tool.AnyTool>>) => Effect.Effect<void, Tool.RegistrationError, Scope.Scope>
  /** The registration a call to `name` would run now: Location first, then process. */
  readonly lookup: (name: string) => Registrations.Entry | undefined
  readonly materialize: (options: MaterializeOptions) => Effect.Effect<Catalog>
  /** The permission action of every registered tool (Location and process), and the shared ones, sorted. */
  readonly actions: () => ReadonlyArray<string>
  /**
   * The permission requests a call of `name` with `input` (JSON arguments) would make now, in
   * order, from the registration `lookup` finds; nothing runs and nothing is asked.
   */
  readonly requests: (name: string, input: unknown, context: Tool.RequestContext) => Effect.Effect<ReadonlyArray<Tool.PermissionRequest>, RequestsError>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/ToolRegistry") {}

/** The register-only view built-ins and Location plugins receive. */
export class Tools extends Context.Service<Tools, Pick<Interface, "register">>()("@toolgate/Tools") {}

/** Model-visible errors become outcomes the model reads; declines and interruption are not caught. */
const failed = (error: { readonly message: string }) => Effect.succeed<Outcome>({ type: "error", message: error.message })

const permissionAction = (entry: Registrations.Entry) => Tool.action(entry.tool) ?? entry.name

/** Everything of `options` a catalog depends on, as a string: of a rule, what evaluating it reads. */
const keyOf = (options: MaterializeOptions) =>
  JSON.stringify([
    options.model ?? null,
    options.switches ?? null,
    options.applyPatchModels ?? null,
    options.rules.map((rule) => [rule.action, rule.resource, rule.effect, rule.when ?? null]),
  ])

const sameIdentities = (a: ReadonlyArray<symbol>, b: ReadonlyArray<symbol>) => a.length === b.length && a.every((identity, index) => identity === b[index])

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const application = yield* ApplicationTools.Service
    const store = yield* ToolOutputStore.Service
    const registrations = Registrations.make()
    const changed = (names: ReadonlyArray<string>) => bus.publish(ApplicationTools.Changed, { layer: "location", names })

    const lookup = (name: string) => registrations.lookup(name) ?? application.lookup(name)

    // Built once, not per call: the call path's own cost is measured (docs/benchmarks.md).
    const success = (settled: Tool.Settled): Outcome => ({ type: "success", ...settled })
    const modelVisible = {
      "Tool.Failure": failed,
      "Permission.BlockedError": (error: Permission.BlockedError) => Effect.succeed<Outcome>({ type: "error", message: error.message, blocked: true }),
      "ToolOutputStore.MediaLimitError": failed,
      "ToolOutputStore.StorageError": failed,
    } as const
    const run = (entry: Registrations.Entry, call: Tool.Call, context: Tool.Context) => {
      const bounded = Effect.flatMap(Tool.settle(entry.tool, call, context), (result) =>
        store.bound({ sessionID: context.sessionID, toolCallID: context.toolCallID, result }),
      )
      return Effect.catchTags(Effect.map(bounded, success), modelVisible)
    }

    // Untraced with a span of its own when spans are recorded: `Effect.fn` would capture a stack
    // and copy the context on every call (docs/benchmarks.md).
    const traced = Tracing.perCall("ToolRegistry.settle")
    const settleWith = (advertised: ReadonlyMap<string, symbol>) => (call: Tool.Call, context: Tool.Context) =>
      traced(settleOne(advertised, call, context))
    const settleOne = Effect.fnUntraced(function* (advertised: ReadonlyMap<string, symbol>, call: Tool.Call, context: Tool.Context) {
      const identity = advertised.get(call.name)
      if (identity === undefined) return { type: "error", message: Messages.unknownTool(call.name) } satisfies Outcome
      const entry = lookup(call.name)
      if (entry === undefined || entry.identity !== identity) return { type: "error", message: Messages.staleToolCall(call.name) } satisfies Outcome
      // Refused before the tool, its decode or its records walk it (json-depth.ts).
      if (JsonDepth.deeperThan(call.input)) return { type: "error", message: Tool.Messages.invalidInput(JsonDepth.Messages.tooDeep) } satisfies Outcome
      const start = yield* Clock.currentTimeMillis
      yield* bus.publish(Started, { sessionID: context.sessionID, toolCallID: context.toolCallID, tool: call.name })
      const outcome = yield* run(entry, call, context)
      const end = yield* Clock.currentTimeMillis
      yield* bus.publish(Settled, {
        sessionID: context.sessionID,
        toolCallID: context.toolCallID,
        tool: call.name,
        durationMs: end - start,
        failed: outcome.type === "error",
      })
      return outcome
    })

    // The last catalog and what it was made from: a server materializes one per call, mostly
    // from the same registrations and rules, and hiding wholly denied tools evaluates every rule.
    let last: { readonly key: string; readonly identities: ReadonlyArray<symbol>; readonly catalog: Catalog } | undefined
    const materialize = Tracing.fn("ToolRegistry.materialize")(function* (options: MaterializeOptions) {
      const names = [...new Set([...application.names(), ...registrations.names()])].sort()
      const registered = names.map((name) => lookup(name)).filter((entry): entry is Registrations.Entry => entry !== undefined)
      const identities = registered.map((entry) => entry.identity)
      const key = keyOf(options)
      if (last !== undefined && last.key === key && sameIdentities(last.identities, identities)) return last.catalog
      const offered = registered
        .filter((entry) => options.switches?.[entry.name] !== false)
        .filter((entry) => ModelTools.offers(entry.name, options.model, options.applyPatchModels))
        .filter((entry) => !PermissionEvaluate.deniesEverything(permissionAction(entry), options.rules))
      const advertised = new Map(offered.map((entry) => [entry.name, entry.identity]))
      const catalog: Catalog = {
        definitions: offered.map((entry) => Tool.definition(entry.name, entry.tool)),
        settle: settleWith(advertised),
      }
      last = { key, identities, catalog }
      return catalog
    })

    const requests = Tracing.fn("ToolRegistry.requests")(function* (name: string, input: unknown, context: Tool.RequestContext) {
      const entry = lookup(name)
      if (entry === undefined) return yield* new UnknownToolError({ name })
      if (!Tool.declaresRequests(entry.tool)) return yield* new UndeclaredError({ name })
      return yield* Tool.requests(entry.tool, input, context)
    })

    const actions = () =>
      [...new Set([...PermissionRule.SHARED_ACTIONS, ...[...application.names(), ...registrations.names()].flatMap((name) => {
        const entry = lookup(name)
        return entry === undefined ? [] : [permissionAction(entry)]
      })])].sort()

    return Service.of({ register: (record) => registrations.register(record, changed), lookup, materialize, actions, requests })
  }),
)

/** The registry and its register-only `Tools` view together. */
export const layerWithTools = Layer.effect(Tools, Effect.map(Service, (registry) => Tools.of({ register: registry.register }))).pipe(
  Layer.provideMerge(layer),
)
