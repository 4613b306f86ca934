/**
 * What the AI SDK surfaces of toolgate throw or fail with, as plain errors a Promise caller can
 * catch: `StopError` when a person said no (a decline, a dismissed question, a call cut off),
 * which must end the agent's loop, and `ToolCallError` for what the model reads and may react to
 * (a tool failure, a configured deny, a reject with feedback, an unknown or stale call).
 */
export * as AiStop from "./stop.js"

export type StopKind = "declined" | "dismissed" | "cancelled"

/** Whether an outcome of this kind ends the agent's loop (as `SessionTurn.stops`). */
export const isStop = (kind: string): kind is StopKind => kind === "declined" || kind === "dismissed" || kind === "cancelled"

/**
 * A person declined a call or dismissed a question (or the call was cut off): the agent stops.
 * `generateText`, `streamText` and `ToolLoopAgent` reject with it; `message` is the outcome's text.
 */
export class StopError extends Error {
  override readonly name = "ToolgateStopError"
  readonly kind: StopKind
  readonly toolCallID: string
  readonly toolName: string
  constructor(kind: StopKind, message: string, toolCallID: string, toolName: string) {
    super(message)
    this.kind = kind
    this.toolCallID = toolCallID
    this.toolName = toolName
  }

  /** Whether `error`, or the error it wraps (`cause`), is a StopError. */
  static find(error: unknown): StopError | undefined {
    for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
      if (current instanceof StopError) return current
      current = (current as { cause?: unknown }).cause
    }
    return undefined
  }
}

/** What the model reads as the call's error: the outcome's exact text. */
export class ToolCallError extends Error {
  override readonly name = "ToolgateToolCallError"
  readonly kind: "failed" | "blocked"
  constructor(kind: "failed" | "blocked", message: string) {
    super(message)
    this.kind = kind
  }
}
