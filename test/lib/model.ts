/**
 * A scripted model for the AI SDK surfaces: `MockLanguageModelV3` (the SDK's own test model)
 * answering each call with the next step of a script, streaming or not. A step is some text and
 * some tool calls; `before` runs before it answers (a registry change while the model "thinks").
 * Every call's options are kept, so a test reads what the model was shown (tools, results).
 */
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test"

export interface Step {
  readonly text?: string
  readonly calls?: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly input: unknown }>
  readonly before?: (options: CallOptions) => Promise<void> | void
}

export type CallOptions = Parameters<MockLanguageModelV3["doStream"]>[0]
type StreamPart = Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never

export const STEP_USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } }

export interface Scripted {
  readonly model: MockLanguageModelV3
  /** The options of every call, in order. */
  readonly calls: Array<CallOptions>
}

/** A model that answers call n with `script(n)` (0-based), or the list's step n (then "done"). */
export const scripted = (script: ReadonlyArray<Step> | ((index: number, options: CallOptions) => Step), modelId = "mock-model"): Scripted => {
  const calls: Array<CallOptions> = []
  const next = async (options: CallOptions) => {
    const index = calls.length
    calls.push(options)
    const step = typeof script === "function" ? script(index, options) : (script[index] ?? { text: "done" })
    await step.before?.(options)
    return step
  }
  const callsOf = (step: Step, index: number) =>
    (step.calls ?? []).map((call, position) => ({ type: "tool-call" as const, toolCallId: call.id ?? `call_${index}_${position}`, toolName: call.name, input: JSON.stringify(call.input) }))
  const model = new MockLanguageModelV3({
    modelId,
    doGenerate: async (options) => {
      const step = await next(options)
      const toolCalls = callsOf(step, calls.length - 1)
      return {
        content: [...(step.text === undefined ? [] : [{ type: "text" as const, text: step.text }]), ...toolCalls],
        finishReason: { unified: toolCalls.length > 0 ? "tool-calls" : "stop", raw: undefined },
        usage: STEP_USAGE,
        warnings: [],
      }
    },
    doStream: async (options) => {
      const step = await next(options)
      const toolCalls = callsOf(step, calls.length - 1)
      const parts: Array<StreamPart> = [
        { type: "stream-start", warnings: [] },
        ...(step.text === undefined ? [] : ([{ type: "text-start", id: "text" }, { type: "text-delta", id: "text", delta: step.text }, { type: "text-end", id: "text" }] as const)),
        ...toolCalls,
        { type: "finish", finishReason: { unified: toolCalls.length > 0 ? "tool-calls" : "stop", raw: undefined }, usage: STEP_USAGE },
      ]
      return { stream: convertArrayToReadableStream(parts) }
    },
  })
  return { model, calls }
}

/** The tool results the model was shown in `options`, by call id: the text it read. */
export const resultsShown = (options: CallOptions): Record<string, string> =>
  Object.fromEntries(
    options.prompt.flatMap((message) =>
      message.role === "tool"
        ? message.content.flatMap((part) => (part.type === "tool-result" ? [[part.toolCallId, "value" in part.output ? String(typeof part.output.value === "string" ? part.output.value : JSON.stringify(part.output.value)) : part.output.type]] : []))
        : [],
    ),
  )

/** The names of the tools the model was offered in `options`. */
export const toolsShown = (options: CallOptions): ReadonlyArray<string> => (options.tools ?? []).map((tool) => tool.name)
