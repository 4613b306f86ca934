/**
 * `toolSet(handle, { session, model })`: a session's materialized catalog as an AI SDK `ToolSet`.
 * Definitions are the catalog's (JSON Schemas through `jsonSchema`, which the SDK does not
 * validate: the call path does, with its own messages); every `execute` settles through the one
 * call path with that catalog, so a registration that changed since is a `Stale tool call`, and a
 * name the catalog lacks reaches the call path too (`Unknown tool: <name>`) instead of the SDK's
 * own text. An ask waits for the session's answerers. A failure, a configured deny or a reject
 * with feedback is thrown as a `ToolCallError` (the model reads its exact text as a tool error);
 * a decline, a dismissed question or a cut-off call ends `generateText` / `streamText` /
 * `ToolLoopAgent` with a `StopError`: `execute` hands the outcome back and `toModelOutput`, which
 * the SDK calls outside its catch of tool errors, throws. The calls of one model step share one
 * assistant message id (what `session revert` goes back to), keyed by the step's message list.
 */
export * as AiToolSet from "./tool-set.js"

import { type JSONSchema7, type Tool as AiTool, type ToolSet, jsonSchema, tool } from "ai"
import { Effect } from "effect"
import type { Session } from "../session.js"
import { SessionTurn } from "../session/turn.js"
import { Id } from "../storage/id.js"
import type { Toolgate } from "../toolgate.js"
import type { ToolRegistry } from "../tool/registry.js"
import type { Tool } from "../tool/tool.js"
import { ModelOutput } from "./model-output.js"
import { StopError, ToolCallError, isStop } from "./stop.js"

export interface Options {
  readonly session: Session.Info
  /** The model id the catalog is materialized for (apply_patch or edit/write). */
  readonly model?: string
}

/** The part of a handle a tool set needs: the Location's call path. */
export type Settler = Pick<Toolgate.Handle, "catalog" | "settle">

/** Accepts any object: the call path validates the input against the tool's own schema. */
const ANY_INPUT = jsonSchema<unknown>({ type: "object" })

/** The tool set of `catalog`, each call settled by `settle` in `session`. */
export const fromCatalog = (settler: Pick<Settler, "settle">, catalog: ToolRegistry.Catalog, options: Options): ToolSet => {
  const messages = new WeakMap<object, string>()
  const messageFor = (list: object) => {
    const known = messages.get(list)
    if (known !== undefined) return known
    const made = Id.create("msg")
    messages.set(list, made)
    return made
  }
  const make = (name: string, definition?: Tool.Definition): AiTool =>
    tool<unknown, SessionTurn.Outcome>({
      description: definition?.description ?? "",
      inputSchema: definition === undefined ? ANY_INPUT : jsonSchema<unknown>(definition.inputSchema as JSONSchema7),
      execute: async (input, { toolCallId, messages: sent, abortSignal }) => {
        const outcome = await Effect.runPromise(
          settler.settle({
            session: options.session,
            catalog,
            message: messageFor(sent),
            call: { id: toolCallId, name, input },
            ...(options.model === undefined ? {} : { model: options.model }),
          }),
          abortSignal === undefined ? undefined : { signal: abortSignal },
        )
        if (outcome.kind === "failed" || outcome.kind === "blocked") throw new ToolCallError(outcome.kind, outcome.message)
        return outcome
      },
      toModelOutput: ({ output }) => {
        if (output.kind !== "success" && isStop(output.kind)) throw new StopError(output.kind, output.message, output.toolCallID, name)
        return ModelOutput.of(output)
      },
    })
  const tools: Record<string, AiTool> = Object.fromEntries(catalog.definitions.map((definition) => [definition.name, make(definition.name, definition)]))
  const unknown = new Map<string, AiTool>()
  // The SDK lists the tools it shows the model from the object's own keys (the catalog's), and
  // looks a called name up by property: a name the catalog lacks gets a tool that settles it, even
  // one Object.prototype has (a model calling `constructor` reaches the call path, not Object).
  // Only what makes the set a thenable or shapes its JSON is left alone.
  return new Proxy(tools, {
    get: (target, key, receiver) => {
      if (typeof key !== "string" || Object.hasOwn(target, key) || key === "then" || key === "toJSON") return Reflect.get(target, key, receiver)
      const made = unknown.get(key) ?? make(key)
      unknown.set(key, made)
      return made
    },
  })
}

/** The session's catalog for `model`, now, as an AI SDK tool set. */
export const toolSet = (handle: Settler, options: Options): Effect.Effect<ToolSet> =>
  Effect.map(handle.catalog(options.session, options.model), (catalog) => fromCatalog(handle, catalog, options))
