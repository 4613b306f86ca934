/**
 * The turn loop on the AI SDK (spec 11, Runner): one model step at a time, each with the catalog
 * materialized for that step (the SDK's `prepareStep` cannot swap the tool map, so the loop calls
 * the model per step itself, with definitions and no `execute`), the step's tool calls settled in
 * parallel through the one call path and their results appended in call order. Every call of a
 * step belongs to the step's assistant message (its id is what `session revert` goes back to:
 * History records the tree before that message's first change).
 * Stops: no tool calls → `done`; `maxSteps` steps → `max-steps`; a decline or a dismissed question
 * → that kind, and every call of the step that had not settled is cancelled with
 * `Tool execution cancelled by the user`; a reject with feedback is a failed call the model reads,
 * and the loop goes on. Interrupting the loop aborts the model stream and interrupts the running
 * calls (a command's process group is killed). Runs on a Location's services.
 */
export * as Runner from "./runner.js"

import { type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolResultPart, type ToolSet, jsonSchema, streamText, tool } from "ai"
import type { JSONSchema7 } from "ai"
import { Deferred, Effect, Schema } from "effect"
import { Bus } from "../bus.js"
import type { Session } from "../session.js"
import { SessionTurn } from "../session/turn.js"
import { Id } from "../storage/id.js"
import { Todo } from "../todo.js"
import type { ToolRegistry } from "../tool/registry.js"
import { Endpoint } from "./endpoint.js"
import { ModelOutput } from "./model-output.js"
import { isStop } from "./stop.js"
import { Tracing } from "../tracing.js"

export const Messages = {
  cancelledByUser: "Tool execution cancelled by the user",
  maxSteps: (steps: number) => `Stopped after ${steps} steps (--max-steps)`,
  model: (detail: string) => `The model failed: ${detail}`,
  stalled: (ms: number) => `the endpoint sent nothing for ${Math.round(ms / 1_000)} s (--idle-timeout)`,
  tooLong: (characters: number) => `the endpoint sent more than ${characters.toLocaleString("en")} characters in one step`,
} as const

/** Ten minutes: how long a model's stream may send nothing (a slow local model's first token included) before the step fails. */
export const IDLE_TIMEOUT_MS = Endpoint.DEFAULT_IDLE_TIMEOUT_S * 1_000

export const DEFAULT_MAX_STEPS = Endpoint.DEFAULT_MAX_STEPS

/**
 * The most text one model step may stream (its words, reasoning and tool inputs together): an
 * endpoint that never stops would grow the run's memory until the machine gives out. A step that
 * writes a file of several MB through a tool fits.
 */
export const MAX_STEP_CHARACTERS = 16 * 1024 * 1024

/** A model the loop can call: an AI SDK model object (not a gateway id string). */
export type Model = Exclude<LanguageModel, string>

export type Reason = "done" | "max-steps" | "declined" | "dismissed" | "cancelled"

export interface Usage {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly totalTokens: number
}

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }

const UsageSchema = Schema.Struct({ inputTokens: Schema.Number, outputTokens: Schema.Number, totalTokens: Schema.Number })

/** What a run publishes on the Location's bus (the server's `/api/event`, the console), per session. */
export const Step = Bus.event("run.step", Schema.Struct({ sessionID: Schema.String, step: Schema.Number, messageID: Schema.String }))
export const Text = Bus.event("run.text", Schema.Struct({ sessionID: Schema.String, delta: Schema.String }))
export const Call = Bus.event("run.call", Schema.Struct({ sessionID: Schema.String, toolCallID: Schema.String, tool: Schema.String, input: Schema.Unknown }))
export const Outcome = Bus.event(
  "run.outcome",
  Schema.Struct({ sessionID: Schema.String, toolCallID: Schema.String, tool: Schema.String, kind: Schema.String, text: Schema.String }),
)
export const Finished = Bus.event("run.finished", Schema.Struct({ sessionID: Schema.String, reason: Schema.String, steps: Schema.Number, usage: UsageSchema }))
export const Failed = Bus.event("run.failed", Schema.Struct({ sessionID: Schema.String, message: Schema.String }))

/** An event as the bus carries it (todo changes are already `todo.updated`). */
const publish = (bus: Bus.Interface, sessionID: string, event: Event): Effect.Effect<void> => {
  switch (event.type) {
    case "step":
      return bus.publish(Step, { sessionID, step: event.step, messageID: event.messageID })
    case "text":
      return bus.publish(Text, { sessionID, delta: event.delta })
    case "call":
      return bus.publish(Call, { sessionID, toolCallID: event.toolCallID, tool: event.tool, input: event.input })
    case "outcome":
      return bus.publish(Outcome, { sessionID, toolCallID: event.outcome.toolCallID, tool: event.tool, kind: event.outcome.kind, text: SessionTurn.text(event.outcome) })
    case "todo":
      return Effect.void
    case "finish":
      return bus.publish(Finished, { sessionID, reason: event.reason, steps: event.steps, usage: event.usage })
  }
}

/** What the loop reports while it runs, in order. */
export type Event =
  | { readonly type: "step"; readonly step: number; readonly messageID: string }
  | { readonly type: "text"; readonly delta: string }
  | { readonly type: "call"; readonly toolCallID: string; readonly tool: string; readonly input: unknown }
  | { readonly type: "outcome"; readonly tool: string; readonly input: unknown; readonly outcome: SessionTurn.Outcome }
  | { readonly type: "todo"; readonly todos: ReadonlyArray<Todo.Item> }
  | { readonly type: "finish"; readonly reason: Reason; readonly steps: number; readonly usage: Usage }

export interface LoopInput {
  readonly session: Session.Info
  readonly model: Model
  /** The conversation so far; the loop appends to a copy. */
  readonly messages: ReadonlyArray<ModelMessage>
  readonly maxSteps?: number
  readonly system?: string
  /** Retries of a failed model request (the SDK's `maxRetries`; default 2). */
  readonly maxRetries?: number
  /** Called with each event as it happens. */
  readonly onEvent?: (event: Event) => void
  /** How long the model's stream may send nothing before the step fails (default `IDLE_TIMEOUT_MS`). */
  readonly idleTimeoutMs?: number
  /** The most text one step may stream (default MAX_STEP_CHARACTERS): past it the step fails, the stream stopped. */
  readonly maxStepCharacters?: number
}

export interface Result {
  readonly reason: Reason
  /** The input messages, then every assistant and tool message of the run. */
  readonly messages: ReadonlyArray<ModelMessage>
  readonly steps: number
  readonly usage: Usage
  /** The assistant messages' ids, one per step. */
  readonly messageIDs: ReadonlyArray<string>
}

/** The model could not be called, or answered what the SDK could not read. */
export class ModelError extends Schema.TaggedError<ModelError>()("Runner.ModelError", { detail: Schema.String }) {
  override get message() {
    return Messages.model(this.detail)
  }
}

const sum = (total: Usage, step: LanguageModelUsage): Usage => ({
  inputTokens: total.inputTokens + (step.inputTokens ?? 0),
  outputTokens: total.outputTokens + (step.outputTokens ?? 0),
  totalTokens: total.totalTokens + (step.totalTokens ?? (step.inputTokens ?? 0) + (step.outputTokens ?? 0)),
})

/** The catalog's definitions without `execute`: the SDK hands the calls back to the loop. */
const definitions = (catalog: ToolRegistry.Catalog): ToolSet =>
  Object.fromEntries(catalog.definitions.map((definition) => [definition.name, tool({ description: definition.description, inputSchema: jsonSchema(definition.inputSchema as JSONSchema7) })]))

/** The most of a model failure's text kept: an endpoint's error body can be megabytes on one line. */
export const MAX_DETAIL = 500

/** The first line of an error's message, without the SDK's stack, cut at `MAX_DETAIL`. */
export const detail = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error)
  const line = text.split("\n").find((part) => part.trim() !== "") ?? text
  const first = line.trim() === "" ? (error instanceof Error ? error.name : "unknown error") : line.trim()
  return first.length <= MAX_DETAIL ? first : `${first.slice(0, MAX_DETAIL)}…`
}

interface Step {
  readonly assistant: ReadonlyArray<ModelMessage>
  readonly calls: ReadonlyArray<{ readonly toolCallId: string; readonly toolName: string; readonly input: unknown }>
  readonly usage: LanguageModelUsage
}

const callModel = (input: LoopInput, messages: ReadonlyArray<ModelMessage>, catalog: ToolRegistry.Catalog, emit: (event: Event) => void) =>
  Effect.tryPromise({
    try: async (signal): Promise<Step> => {
      // An endpoint that stalls (before its first byte or mid-chunk) would hold the run forever,
      // and a run without a terminal has nobody to press Ctrl-C: silence for this long fails the step.
      const idleMs = input.idleTimeoutMs ?? IDLE_TIMEOUT_MS
      const idle = new AbortController()
      let timer: ReturnType<typeof setTimeout> | undefined
      const arm = () => {
        clearTimeout(timer)
        timer = setTimeout(() => idle.abort(), idleMs)
      }
      const limit = input.maxStepCharacters ?? MAX_STEP_CHARACTERS
      const full = new AbortController()
      let received = 0
      const stalled = () => (idle.signal.aborted ? new Error(Messages.stalled(idleMs)) : full.signal.aborted ? new Error(Messages.tooLong(limit)) : undefined)
      arm()
      try {
        const stream = streamText({
          model: input.model,
          messages: [...messages],
          tools: definitions(catalog),
          abortSignal: AbortSignal.any([signal, idle.signal, full.signal]),
          // The error comes back in the stream and fails the step; the SDK would also log it.
          onError: () => {},
          ...(input.system === undefined ? {} : { system: input.system }),
          ...(input.maxRetries === undefined ? {} : { maxRetries: input.maxRetries }),
        })
        for await (const part of stream.fullStream) {
          arm()
          received += part.type === "text-delta" || part.type === "reasoning-delta" ? part.text.length : part.type === "tool-input-delta" ? part.delta.length : 0
          if (received > limit) {
            full.abort()
            throw stalled()
          }
          if (part.type === "text-delta") emit({ type: "text", delta: part.text })
          else if (part.type === "error") throw part.error
        }
        const late = stalled()
        if (late !== undefined) throw late
        const [calls, response, usage] = await Promise.all([stream.toolCalls, stream.response, stream.usage])
        return { assistant: response.messages.filter((message) => message.role === "assistant"), calls, usage }
      } catch (error) {
        throw stalled() ?? error
      } finally {
        clearTimeout(timer)
      }
    },
    catch: (error) => new ModelError({ detail: detail(error) }),
  })

const cancelled = (toolCallID: string): SessionTurn.Outcome => ({ kind: "cancelled", toolCallID, message: Messages.cancelledByUser })

/**
 * Settles the calls of one step in parallel. The first outcome that stops the loop ends the
 * step: every call still running is interrupted, and every call that ends after it without
 * having run to an answer of its own is cancelled by the user.
 */
const settleStep = (input: LoopInput, catalog: ToolRegistry.Catalog, messageID: string, calls: Step["calls"], emit: (event: Event) => void) =>
  Effect.gen(function* () {
    const stopped = yield* Deferred.make<void>()
    let stopper: string | undefined
    const one = (call: Step["calls"][number]) =>
      Effect.gen(function* () {
        // The model's id is the model's (its tool result answers it); the records, the asks and
        // the console know the call by an id of toolgate's own, which a model cannot repeat.
        const id = Id.create("call")
        emit({ type: "call", toolCallID: id, tool: call.toolName, input: call.input })
        const settled = SessionTurn.settle({ session: input.session, catalog, message: messageID, model: input.model.modelId, call: { id, name: call.toolName, input: call.input } })
        let outcome = yield* Effect.raceFirst(settled, Effect.as(Deferred.await(stopped), cancelled(id)))
        if (isStop(outcome.kind)) {
          if (stopper === undefined) {
            stopper = id
            yield* Deferred.succeed(stopped, undefined)
          } else if (stopper !== id) outcome = cancelled(id)
        }
        emit({ type: "outcome", tool: call.toolName, input: call.input, outcome })
        return outcome
      })
    const outcomes = yield* Effect.forEach(calls, one, { concurrency: "unbounded" })
    return { outcomes, stopper: outcomes.find((outcome) => outcome.toolCallID === stopper) }
  })

const toolMessage = (calls: Step["calls"], outcomes: ReadonlyArray<SessionTurn.Outcome>): ModelMessage => ({
  role: "tool",
  content: calls.map((call, index): ToolResultPart => ({ type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: ModelOutput.of(outcomes[index]!) })),
})

/** Runs the loop until it stops; fails only when the model does. */
export const loop = Tracing.fn("Runner.loop")(function* (input: LoopInput) {
  const bus = yield* Bus.Service
  // The bus is an unbounded PubSub: publishing completes at once, so events keep their order
  // even from inside the model's stream, which is not an Effect.
  const emit = (event: Event) => {
    Effect.runSync(publish(bus, input.session.id, event))
    input.onEvent?.(event)
  }
  const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS
  const todo = yield* Todo.Service
  const messages: Array<ModelMessage> = [...input.messages]
  const messageIDs: Array<string> = []
  let usage = NO_USAGE
  let todos = JSON.stringify(yield* todo.get(input.session.id))
  const finish = (reason: Reason): Result => {
    emit({ type: "finish", reason, steps: messageIDs.length, usage })
    return { reason, messages, steps: messageIDs.length, usage, messageIDs }
  }
  while (true) {
    if (messageIDs.length >= maxSteps) return finish("max-steps")
    const catalog = yield* SessionTurn.catalog(input.session, input.model.modelId)
    const messageID = Id.create("msg")
    messageIDs.push(messageID)
    emit({ type: "step", step: messageIDs.length, messageID })
    const step = yield* callModel(input, messages, catalog, emit).pipe(Effect.tapError((error) => bus.publish(Failed, { sessionID: input.session.id, message: error.message })))
    usage = sum(usage, step.usage)
    messages.push(...step.assistant)
    if (step.calls.length === 0) return finish("done")
    const { outcomes, stopper } = yield* settleStep(input, catalog, messageID, step.calls, emit)
    messages.push(toolMessage(step.calls, outcomes))
    const now = yield* todo.get(input.session.id)
    if (JSON.stringify(now) !== todos) {
      todos = JSON.stringify(now)
      emit({ type: "todo", todos: now })
    }
    if (stopper !== undefined && isStop(stopper.kind)) return finish(stopper.kind)
  }
})

