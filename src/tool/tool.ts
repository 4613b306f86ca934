/**
 * The tool contract. `make` returns an opaque, frozen, empty value; its definition lives in a
 * module-private WeakMap, so the only ways in are `definition` and `settle`. `settle` runs a
 * fixed order: decode input → execute → encode output → project to content. An input that does
 * not decode never reaches `execute`; an output that does not encode never counts as success.
 * Interruption and defects pass through untouched: only `Failure` is the model-visible error.
 * A tool has no name of its own: names belong to registrations (see registry.ts).
 * A tool that asks may declare `requests`: the permission requests a call would make, computed
 * without running it; its `execute` asks through the same function, so the two cannot drift.
 */
export * as Tool from "./tool.js"

import { EffectCopy } from "./effect-copy.js"
import { Effect, Schema } from "effect"
import type { Permission } from "../permission/permission.js"
import type { Question } from "../question.js"
import { ToolJsonSchema } from "./json-schema.js"

export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/

export const Messages = {
  invalidInput: (detail: string) => `Invalid tool input: ${detail}`,
  invalidOutput: (detail: string) => `Tool returned an invalid value for its output schema: ${detail}`,
  invalidName: (name: string) => `Invalid tool name: ${name}`,
  notStruct: (name: string) => `Invalid tool definition for ${name}: input must be a Schema.Struct`,
  undescribed: (name: string, fields: ReadonlyArray<string>) =>
    `Invalid tool definition for ${name}: input fields without a description: ${fields.join(", ")}`,
  invalidValue: "Invalid tool value",
  notObjectSchema: (name: string) => `Invalid tool definition for ${name}: its input JSON Schema must have type "object"`,
  undeclared: "The tool does not declare its permission requests",
} as const

/** A part of what the model reads back. */
export type Content =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "file"; readonly mime: string; readonly data: string; readonly name?: string }

/** The provider's tool call; `input` is the parsed JSON arguments. */
export interface Call {
  readonly id: string
  readonly name: string
  readonly input: unknown
}

/** Everything a call receives. Cancellation is interruption; permission is asked by the tool itself. */
export interface Context {
  readonly sessionID: string
  readonly agent: string
  readonly assistantMessageID: string
  readonly toolCallID: string
}

/**
 * What a call's permission requests may depend on besides its input: the agent, and the session
 * when there is one (its own saved tool output is not an external folder). The Location (the
 * working directory) is the tool's own, and rules are applied by whoever judges.
 */
export interface RequestContext {
  readonly agent: string
  readonly sessionID?: string
}

export interface Settled {
  readonly content: ReadonlyArray<Content>
  readonly structured: unknown
  readonly outputPaths: ReadonlyArray<string>
  /** How `ToolOutputStore.bound` previews text over the limits: both ends (default) or the tail (shell output, 03). */
  readonly preview?: Preview
  /** Where the tool already saved the full output (bash's spool file): `bound` points there instead of writing a copy. */
  readonly saved?: string
  /** The exit status of the process the call ran, when it exited (bash): for a caller's script; the model reads it in `content`. */
  readonly exitCode?: number
}

export type Preview = "head-tail" | "tail"

/** The model-facing definition of a registered tool. */
export interface Definition {
  readonly name: string
  readonly description: string
  readonly inputSchema: ToolJsonSchema.JsonSchema
  /** Absent for a tool described by JSON Schema that declares none (an external MCP tool). */
  readonly outputSchema?: ToolJsonSchema.JsonSchema
}

/** A model-readable failure: the model sees `message` and may react to it. */
export class Failure extends Schema.TaggedError<Failure>()("Tool.Failure", { message: Schema.String }) {}

/** An invalid name or definition at registration; never reaches the model. */
export class RegistrationError extends Schema.TaggedError<RegistrationError>()("Tool.RegistrationError", {
  name: Schema.String,
  reason: Schema.String,
}) {
  override get message() {
    return this.reason
  }
}

/** An input that does not decode against the tool's input schema, when asked for its requests. */
export class InvalidInputError extends Schema.TaggedError<InvalidInputError>()("Tool.InvalidInputError", { detail: Schema.String }) {
  override get message() {
    return Messages.invalidInput(this.detail)
  }
}

export type Error = Failure | RegistrationError

/**
 * What `execute` may fail with: a `Failure` the model reads, a configured deny (which the catalog
 * also turns into a result the model reads), or a person's decline or dismissed question, which
 * stops the turn.
 */
export type ExecuteError = Failure | Permission.BlockedError | Permission.DeclinedError | Question.DismissedError

/** A struct schema whose codec needs no services. */
export type InputSchema = Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never; readonly fields: Schema.Struct.Fields }
export type OutputSchema = Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never }

export interface Config<In extends InputSchema, Out extends OutputSchema> {
  readonly description: string
  readonly input: In
  readonly output: Out
  readonly execute: (input: In["Type"], context: Context) => Effect.Effect<Out["Type"], ExecuteError>
  readonly toModelOutput?: (args: { readonly input: In["Type"]; readonly output: Out["Encoded"] }) => ReadonlyArray<Content>
  /** How text over the output limits is previewed; default both ends. */
  readonly preview?: Preview
  /** Where the full output of a call is already saved, if the tool saved it itself. */
  readonly saved?: (output: Out["Type"]) => string | undefined
  /** The exit status of the process a call ran, if it ran one that exited. */
  readonly exitCode?: (output: Out["Type"]) => number | undefined
  /**
   * The permission requests a call with `input` would make, in the order `execute` asks them,
   * without running anything: the file system is read only as path resolution reads it. A
   * `Failure` is what `execute` would fail with before asking. `execute` must ask through this
   * same function; a request whose metadata depends on content (a diff) is listed without it.
   */
  readonly requests?: (input: In["Type"], context: RequestContext) => Effect.Effect<ReadonlyArray<PermissionRequest>, Failure>
}

declare const Phantom: unique symbol

/** An opaque tool value. The type parameters exist for inference at `make` only. */
export interface Value<In = unknown, Out = unknown> {
  readonly [Phantom]?: { readonly in: In; readonly out: Out }
}

/** A tool with its generics erased, as registries hold it. */
export type AnyTool = Value<any, any>

interface Runtime {
  readonly description: string
  readonly input: OutputSchema
  readonly output: OutputSchema
  /**
   * The canonical JSON codecs of the schemas, compiled once at `make` (building a parser per
   * call costs more than the rest of a call). JSON because the model speaks JSON and the
   * advertised JSON Schema describes exactly this form: a bigint arrives as a string, an omitted
   * optional field may arrive as null, and the structured output is JSON-safe.
   */
  readonly decode: (input: unknown) => Effect.Effect<unknown, Schema.SchemaError>
  readonly encode: (output: unknown) => Effect.Effect<unknown, Schema.SchemaError>
  readonly execute: (input: unknown, context: Context) => Effect.Effect<unknown, ExecuteError>
  readonly toModelOutput: ((args: { readonly input: unknown; readonly output: unknown }) => ReadonlyArray<Content>) | undefined
  readonly action: string | undefined
  readonly preview: Preview | undefined
  readonly saved: ((output: unknown) => string | undefined) | undefined
  readonly exitCode: ((output: unknown) => number | undefined) | undefined
  readonly requests: ((input: unknown, context: RequestContext) => Effect.Effect<ReadonlyArray<PermissionRequest>, Failure>) | undefined
  /** For a tool made by `fromJsonSchema`: its schemas as given, and where its structured output is. */
  readonly json: { readonly input: ToolJsonSchema.JsonSchema; readonly output: ToolJsonSchema.JsonSchema | undefined } | undefined
}

const runtimes = new WeakMap<object, Runtime>()
const definitions = new WeakMap<object, Map<string, Definition>>()

const runtimeOf = (tool: unknown): Runtime => {
  const runtime = typeof tool === "object" && tool !== null ? runtimes.get(tool) : undefined
  // A non-tool value here is a programming error, not a model error: surface it as a defect.
  if (runtime === undefined) throw new TypeError(Messages.invalidValue)
  return runtime
}

const seal = (runtime: Runtime): AnyTool => {
  const tool = Object.freeze(Object.create(null) as object)
  runtimes.set(tool, runtime)
  return tool
}

/**
 * @example
 * const echo = Tool.make({
 *   description: "Echo the text back.",
 *   input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }),
 *   output: Schema.String,
 *   execute: ({ text }) => Effect.succeed(text),
 * })
 */
export const make = <In extends InputSchema, Out extends OutputSchema>(config: Config<In, Out>): Value<In["Type"], Out["Type"]> => {
  // Two copies of effect cannot share a tool: say so now rather than return empty output later.
  if (!EffectCopy.isOurs(config.input) || !EffectCopy.isOurs(config.output)) throw new TypeError(EffectCopy.Messages.twoCopies)
  return seal({
    description: config.description,
    input: config.input,
    output: config.output,
    decode: Schema.decodeUnknownEffect(Schema.toCodecJson(config.input)),
    encode: Schema.encodeUnknownEffect(Schema.toCodecJson(config.output)),
    execute: config.execute as Runtime["execute"],
    toModelOutput: config.toModelOutput as Runtime["toModelOutput"],
    action: undefined,
    preview: config.preview,
    saved: config.saved as Runtime["saved"],
    exitCode: config.exitCode as Runtime["exitCode"],
    requests: config.requests as Runtime["requests"],
    json: undefined,
  })
}

/** What a tool described by JSON Schema returns: what the model reads, and its structured output if any. */
export interface JsonOutput {
  readonly content: ReadonlyArray<Content>
  readonly structured?: unknown
}

export interface JsonConfig {
  readonly description: string
  /** The input's JSON Schema, advertised as given. Only "a JSON object" is checked here: the tool's owner checks the rest. */
  readonly inputSchema: ToolJsonSchema.JsonSchema
  readonly outputSchema?: ToolJsonSchema.JsonSchema
  readonly execute: (input: Readonly<Record<string, unknown>>, context: Context) => Effect.Effect<JsonOutput, ExecuteError>
}

const JsonInput = Schema.Record(Schema.String, Schema.Unknown)

/**
 * A tool whose schemas are JSON Schema documents rather than Effect schemas: a tool of an
 * external MCP server. It settles like any other (decode, execute, bound, the gate inside
 * `execute`); its content is what `execute` returns.
 */
export const fromJsonSchema = (config: JsonConfig): AnyTool =>
  seal({
    description: config.description,
    input: JsonInput,
    output: Schema.Unknown,
    decode: Schema.decodeUnknownEffect(JsonInput),
    encode: Effect.succeed,
    execute: config.execute as Runtime["execute"],
    toModelOutput: ({ output }) => (output as JsonOutput).content,
    action: undefined,
    preview: undefined,
    saved: undefined,
    exitCode: undefined,
    requests: undefined,
    json: { input: config.inputSchema, output: config.outputSchema },
  })

/** The same tool with another permission action for catalog filtering (`write` → `edit`). */
export const withPermission = <T extends AnyTool>(tool: T, action: string): T => seal({ ...runtimeOf(tool), action }) as T

/** The permission action the catalog filters this tool by; undefined means its registered name. */
export const action = (tool: AnyTool): string | undefined => runtimeOf(tool).action

/** Whether the tool says which permission requests a call would make (`requests` in its definition). */
export const declaresRequests = (tool: AnyTool): boolean => runtimeOf(tool).requests !== undefined

/**
 * The permission requests a call with `input` (the model's JSON arguments) would make, in order,
 * without running it. The input is decoded as `settle` decodes it. Only for a tool that
 * `declaresRequests`: asking another is a programming error (a defect).
 * @example const requests = yield* Tool.requests(read, { path: ".env" }, { agent: "build" })
 */
export const requests = (tool: AnyTool, input: unknown, context: RequestContext): Effect.Effect<ReadonlyArray<PermissionRequest>, InvalidInputError | Failure> => {
  const runtime = runtimeOf(tool)
  const declared = runtime.requests
  if (declared === undefined) return Effect.die(new TypeError(Messages.undeclared))
  return runtime.decode(input).pipe(
    Effect.mapError((error) => new InvalidInputError({ detail: error.message })),
    Effect.flatMap((decoded) => declared(decoded, context)),
  )
}

/** Whether a value was made by `make` or `withPermission`. */
export const isTool = (value: unknown): value is AnyTool => typeof value === "object" && value !== null && runtimes.has(value)

/** The model-facing definition under `name`, generated once per tool and name. */
export const definition = (name: string, tool: AnyTool): Definition => {
  const runtime = runtimeOf(tool)
  const cache = definitions.get(tool) ?? new Map<string, Definition>()
  definitions.set(tool, cache)
  const cached = cache.get(name)
  if (cached !== undefined) return cached
  const made: Definition =
    runtime.json === undefined
      ? lazySchemas(name, runtime.description, () => ToolJsonSchema.make(runtime.input), () => ToolJsonSchema.make(runtime.output))
      : { name, description: runtime.description, inputSchema: runtime.json.input, ...(runtime.json.output === undefined ? {} : { outputSchema: runtime.json.output }) }
  cache.set(name, made)
  return made
}

/**
 * A definition whose JSON Schemas are generated when first read, then kept: a command that
 * calls one tool (`toolgate call`) never reads them, and generating all of them is a fifth of its
 * work after start-up. The fields are enumerable, so a spread or `JSON.stringify` sees them.
 */
const lazySchemas = (name: string, description: string, input: () => ToolJsonSchema.JsonSchema, output: () => ToolJsonSchema.JsonSchema): Definition => {
  const once = (make: () => ToolJsonSchema.JsonSchema) => {
    let made: ToolJsonSchema.JsonSchema | undefined
    return () => (made ??= make())
  }
  return Object.defineProperties({ name, description } as Definition, {
    inputSchema: { get: once(input), enumerable: true },
    outputSchema: { get: once(output), enumerable: true },
  })
}

/** Checks a name and a tool before registration: the name pattern, a struct input, described fields. */
export const validate = (name: string, tool: AnyTool): RegistrationError | undefined => {
  if (!NAME_PATTERN.test(name)) return new RegistrationError({ name, reason: Messages.invalidName(name) })
  if (!isTool(tool)) return new RegistrationError({ name, reason: Messages.invalidValue })
  const json = runtimeOf(tool).json
  if (json !== undefined) return json.input.type === "object" ? undefined : new RegistrationError({ name, reason: Messages.notObjectSchema(name) })
  if (typeof (runtimeOf(tool).input as { fields?: unknown }).fields !== "object") return new RegistrationError({ name, reason: Messages.notStruct(name) })
  // Read from the schema when it shows every field described; the JSON Schema is generated (and
  // names what is missing) only when it does not.
  if (ToolJsonSchema.describesEveryField(runtimeOf(tool).input)) return undefined
  const missing = ToolJsonSchema.undescribed(definition(name, tool).inputSchema)
  if (missing.length > 0) return new RegistrationError({ name, reason: Messages.undescribed(name, missing) })
  return undefined
}

const JSON_INDENT = 2

/** Pretty JSON of an encoded output, or the reason it has none (a bigint, a cycle). */
export const prettyJson = (value: unknown): string | globalThis.Error => {
  try {
    return JSON.stringify(value, null, JSON_INDENT) ?? ""
  } catch (error) {
    // JSON.stringify signals an unserialisable value only by throwing.
    return error as globalThis.Error
  }
}

const project = (runtime: Runtime, input: unknown, output: unknown): ReadonlyArray<Content> | Failure => {
  if (runtime.toModelOutput !== undefined) return runtime.toModelOutput({ input, output })
  if (typeof output === "string") return [{ type: "text", text: output }]
  const json = prettyJson(output)
  if (json instanceof globalThis.Error) return new Failure({ message: Messages.invalidOutput(json.message) })
  return [{ type: "text", text: json }]
}

/**
 * Decode → execute → encode → project. The result is not bounded yet: the registry does that.
 * Deliberately untraced: the registry's "ToolRegistry.settle" span already covers every call,
 * and a second span (≈ 5 µs) or `Effect.fn`'s per-call stack capture would exceed the per-call
 * budget measured in bench/settle.ts.
 */
export const settle: (tool: AnyTool, call: Call, context: Context) => Effect.Effect<Settled, ExecuteError> = Effect.fnUntraced(function* (
  tool: AnyTool,
  call: Call,
  context: Context,
) {
  const runtime = runtimeOf(tool)
  const input = yield* runtime.decode(call.input).pipe(
    Effect.mapError((error) => new Failure({ message: Messages.invalidInput(error.message) })),
  )
  const output = yield* runtime.execute(input, context)
  const structured = yield* runtime.encode(output).pipe(
    Effect.mapError((error) => new Failure({ message: Messages.invalidOutput(error.message) })),
  )
  const content = project(runtime, input, structured)
  if (content instanceof Failure) return yield* content
  const saved = runtime.saved?.(output)
  const exitCode = runtime.exitCode?.(output)
  const settled: Settled = {
    content,
    structured: runtime.json === undefined ? structured : (output as JsonOutput).structured,
    outputPaths: [],
    ...(runtime.preview === undefined ? {} : { preview: runtime.preview }),
    ...(saved === undefined ? {} : { saved }),
    ...(exitCode === undefined ? {} : { exitCode }),
  }
  return settled
})

/** One permission request, as a tool asks it and as `requests` lists it. */
export interface PermissionRequest {
  readonly action: string
  readonly resources: ReadonlyArray<string>
  readonly save?: ReadonlyArray<string>
  readonly metadata?: Readonly<Record<string, unknown>>
  /** Opaque resources: only a rule or approval naming the exact text allows them (07). */
  readonly opaque?: boolean
  /** Only a rule whose action starts with this allows: a wildcard allow asks (a project's MCP server's tools). */
  readonly namedBy?: string
  /** The command runs in the OS sandbox: rules with `when: "sandboxed"` apply to it. */
  readonly sandboxed?: boolean
  /**
   * The first resource is what the call touches and the others are forms it also arrives as
   * (webfetch: the loopback a host reaches); a form counts only through a rule that does not also
   * match the first (`PermissionEvaluate.counted`). Listed by `requests`; never passed to `ask`.
   */
  readonly aliased?: true
}

/**
 * The one way a tool asks for permission, with the exact resources it is about to touch. A
 * refusal with feedback becomes a `Failure` (the model reads the feedback and continues); a
 * deny and a decline pass through.
 * @example yield* Tool.ask(permission, context, { action: "edit", resources: ["src/a.ts"], save: ["src/a.ts"] })
 */
export const ask = (permission: Permission.Interface, context: Context, request: PermissionRequest): Effect.Effect<void, ExecuteError> =>
  permission
    .assert({
      sessionID: context.sessionID,
      action: request.action,
      resources: request.resources,
      ...(request.save === undefined ? {} : { save: request.save }),
      ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
      ...(request.opaque === true ? { opaque: true } : {}),
      ...(request.namedBy === undefined ? {} : { namedBy: request.namedBy }),
      ...(request.sandboxed === true ? { sandboxed: true } : {}),
      source: { toolCallID: context.toolCallID, messageID: context.assistantMessageID },
    })
    .pipe(Effect.catchTag("Permission.CorrectedError", (error) => Effect.fail(new Failure({ message: error.message }))))

/** The first of `requests` a rule denies, decided without asking anyone; undefined when none is. */
const firstDenied = (permission: Permission.Interface, context: Context, requests: ReadonlyArray<PermissionRequest>) =>
  Effect.findFirst(requests, (request) =>
    Effect.map(
      permission.decide({
        sessionID: context.sessionID,
        action: request.action,
        resources: request.resources,
        ...(request.opaque === true ? { opaque: true } : {}),
        ...(request.namedBy === undefined ? {} : { namedBy: request.namedBy }),
        ...(request.sandboxed === true ? { sandboxed: true } : {}),
      }),
      (decision) => decision.effect === "deny",
    ),
  )

/**
 * `ask` for each request in order, stopping at the first that does not go through: how a tool
 * asks what its `requests` listed. A call a rule denies anywhere is blocked before anything is
 * asked (the denied request is the one asserted, and recorded): a person is never asked about a
 * call that cannot run, and the call's effect is its strictest request's, as `permission eval`
 * reports it (tool/requests.ts).
 * @example yield* Tool.askAll(permission, context, yield* requests(input, context))
 */
export const askAll = (permission: Permission.Interface, context: Context, requests: ReadonlyArray<PermissionRequest>): Effect.Effect<void, ExecuteError> =>
  requests.length < 2
    ? Effect.forEach(requests, (request) => ask(permission, context, request), { discard: true })
    : Effect.flatMap(firstDenied(permission, context, requests), (denied) =>
        denied._tag === "Some" ? ask(permission, context, denied.value) : Effect.forEach(requests, (request) => ask(permission, context, request), { discard: true }),
      )
