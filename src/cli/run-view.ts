/**
 * How `toolgate run` shows a run at the terminal: each tool call as one line (the tool, the part
 * of its input that says what it does, how it ended), the todo list when it changes, and the
 * last line, which names the session so `session diff` and `session revert` can follow.
 * Everything a request carries is shown with its control characters escaped.
 */
export * as RunView from "./run-view.js"

import type { Runner } from "../ai/runner.js"
import type { SessionTurn } from "../session/turn.js"
import { Todo } from "../todo.js"
import { VisibleText } from "../visible-text.js"
import { Io } from "./io.js"

/** The input fields that say what a call does, the first one present is shown. */
const TELLING = ["command", "path", "file_path", "pattern", "url", "query", "name"] as const
const INPUT_WIDTH = 80
const MESSAGE_WIDTH = 120

const REASONS: Readonly<Record<Runner.Reason, string>> = {
  done: "Done",
  "max-steps": "Stopped at --max-steps",
  declined: "Stopped: a person declined a call",
  dismissed: "Stopped: a person dismissed a question",
  cancelled: "Stopped: a call was cancelled",
}

export const Messages = {
  call: (tool: string, input: string, ended: string) => `• ${tool}${input === "" ? "" : ` ${input}`} → ${ended}`,
  todo: "Todo:",
  session: (session: string) => `Session ${session}: see its changes with toolgate session diff ${session}`,
  finished: (reason: Runner.Reason, steps: number, tokens: number, session: string) =>
    `${REASONS[reason]} after ${steps} ${steps === 1 ? "step" : "steps"} (${tokens} tokens). ${Messages.session(session)}`,
} as const

/**
 * A line of the model's text as the terminal shows it: what does not show as itself escaped
 * (VisibleText; tabs kept), so an endpoint cannot hide, recolour or redraw what comes after it
 * (the ask), retitle the terminal or write the clipboard (OSC 52).
 * @example RunView.modelText("hi\u001b[8m") // "hi\\u001b[8m"
 */
export const modelText = (line: string): string => VisibleText.of(line, "\t")

/** A model failure's text (the endpoint's own words among it, cut by the runner) as the terminal shows it. */
export const failure = (message: string): string => Io.visible(message)

const cut = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text)

const firstLine = (text: string) => text.split("\n").find((line) => line.trim() !== "")?.trim() ?? ""

/** The part of `input` that says what the call does, on one short line. */
export const shortInput = (input: unknown): string => {
  if (typeof input === "object" && input !== null) {
    const record = input as Record<string, unknown>
    const telling = TELLING.find((key) => typeof record[key] === "string")
    if (telling !== undefined) return cut(Io.visible(record[telling] as string), INPUT_WIDTH)
  }
  return cut(Io.visible(JSON.stringify(input) ?? ""), INPUT_WIDTH)
}

/** How a call ended, in a few words. */
export const ended = (outcome: SessionTurn.Outcome): string => {
  switch (outcome.kind) {
    case "success":
      return outcome.exitCode === undefined || outcome.exitCode === 0 ? "ok" : `exit ${outcome.exitCode}`
    case "failed":
      return `failed: ${cut(Io.visible(firstLine(outcome.message)), MESSAGE_WIDTH)}`
    case "blocked":
      return `denied: ${cut(Io.visible(firstLine(outcome.message)), MESSAGE_WIDTH)}`
    default:
      return outcome.kind
  }
}

export const callLine = (tool: string, input: unknown, outcome: SessionTurn.Outcome): string => Messages.call(Io.visible(tool), shortInput(input), ended(outcome))

/** The todo list as lines: the heading, then one line per item and the count still open. */
export const todoLines = (todos: ReadonlyArray<Todo.Item>): ReadonlyArray<string> => [Messages.todo, ...Todo.text(todos).split("\n")]
