/**
 * How `toolgate call` answers business questions (the `question` tool). Under `--on-ask prompt`
 * each question is shown with its header and numbered options; the person answers with numbers,
 * labels or their own words (several, comma-separated, where the question allows several). A line
 * starting with "!" dismisses: "! <message>" tells the agent why and lets it continue, a bare "!"
 * or the end of input stops it. Every other mode dismisses without a message: a question has no
 * automatic answer (`once` and `always` approve actions, they do not choose), and a run without a
 * person must never hang (cli/answerer.ts). The permission ask for `question [*]` itself is
 * on-ask.ts's business.
 */
export * as OnQuestion from "./on-question.js"

import type { Question } from "../question.js"
import { Io } from "./io.js"

/** The prefix of an answer line that dismisses the questions instead of answering them. */
export const DISMISS = "!"

const HINT = `empty skips; "${DISMISS}" dismisses; "${DISMISS} <message>" dismisses and tells the agent why`

export const Messages = {
  heading: (index: number, count: number, info: Question.Info) =>
    `Question ${index + 1} of ${count} [${Io.visible(info.header)}]: ${Io.visible(info.question)}`,
  option: (number: number, option: Question.Option) => `  ${number}. ${Io.visible(option.label)}: ${Io.visible(option.description)}`,
  single: `Answer with a number, a label or your own words (${HINT}): `,
  multiple: `Answers, separated by commas: numbers, labels or your own words (${HINT}): `,
} as const

/** What one answer line means for one question. */
export type Parsed = { readonly type: "answer"; readonly answers: ReadonlyArray<string> } | { readonly type: "dismiss"; readonly message?: string }

/** A number or a label (in any case) picks that option's label; anything else is the person's own answer. */
const choose = (info: Question.Info) => (text: string) => {
  const number = /^\d+$/.test(text) ? Number(text) : 0
  const picked = info.options[number - 1] ?? info.options.find((option) => option.label.toLowerCase() === text.toLowerCase())
  return picked?.label ?? text
}

/**
 * Reads one answer line; `undefined` (end of input) dismisses without a message.
 * @example parse(info, "1, my own idea") // { type: "answer", answers: ["Postgres", "my own idea"] } when info.multiple
 */
export const parse = (info: Question.Info, line: string | undefined): Parsed => {
  if (line === undefined) return { type: "dismiss" }
  const text = line.trim()
  if (text.startsWith(DISMISS)) {
    const message = text.slice(DISMISS.length).trim()
    return message === "" ? { type: "dismiss" } : { type: "dismiss", message }
  }
  const parts = (info.multiple === true ? text.split(",") : [text]).map((part) => part.trim()).filter((part) => part !== "")
  return { type: "answer", answers: [...new Set(parts.map(choose(info)))] }
}

/** Asks every question of a request in turn; the first dismissal ends it. */
export const prompt = async (io: Io.Io, request: Question.Request): Promise<Question.Answer> => {
  const answers: Array<ReadonlyArray<string>> = []
  for (const [index, info] of request.questions.entries()) {
    const lines = [Messages.heading(index, request.questions.length, info), ...info.options.map((option, i) => Messages.option(i + 1, option))]
    const parsed = parse(info, await io.prompt(`${lines.join("\n")}\n${info.multiple === true ? Messages.multiple : Messages.single}`))
    if (parsed.type === "dismiss") return { reply: "dismissed", ...(parsed.message === undefined ? {} : { message: parsed.message }) }
    answers.push(parsed.answers)
  }
  return { reply: "answered", answers }
}
