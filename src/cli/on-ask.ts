/**
 * How `toolgate call` asks a person for a permission at the terminal: it shows the request
 * (ask-view.ts: what the call will do, why it asks, the diff, and exactly what each save pattern
 * would allow for the session and for the project) and reads `o`, `s`, `a` or `r`, then optional
 * feedback after a reject. An answer it does not recognise asks again (`d` shows a cut diff in
 * full, then asks again); the end of input is a reject. `once`, `always` (the project) and
 * `reject` answer by themselves and `deny` denies asks at once (cli/answerer.ts). Without a
 * terminal the default is `reject`, so a non-interactive run never hangs.
 */
export * as OnAsk from "./on-ask.js"

import { Answerer } from "../interaction/answerer.js"
import type { Permission } from "../permission/permission.js"
import { AskView } from "./ask-view.js"
import { Io } from "./io.js"

export const MODES = ["prompt", ...Answerer.POLICIES] as const
export type Mode = (typeof MODES)[number]

export const Messages = {
  question: "Allow? [o]nce, [s]ession, [a]lways (project), [r]eject: ",
  unrecognised: (answer: string) => `Not an answer: "${Io.visible(answer)}". Type o for once, s for this session, a for always in this project, or r to reject.`,
  feedback: "Feedback for the agent (empty to stop the agent): ",
} as const

/** The default mode: ask the person at a terminal, reject anywhere else. */
export const defaultMode = (io: Io.Io): Mode => (io.isTTY ? "prompt" : "reject")

const ANSWERS: Readonly<Record<string, Permission.Answer>> = {
  o: { reply: "once" },
  once: { reply: "once" },
  s: { reply: "always", scope: "session" },
  session: { reply: "always", scope: "session" },
  a: { reply: "always", scope: "project" },
  always: { reply: "always", scope: "project" },
  r: { reply: "reject" },
  reject: { reply: "reject" },
}

/**
 * Reads answers until one is recognised; the end of input is undefined. When the view cut the
 * diff, `d` shows all of it (through the pager at a terminal, else printed) and asks again.
 */
const read = async (io: Io.Io, question: string, view: AskView.View): Promise<Permission.Answer | undefined> => {
  const answer = await io.prompt(question)
  if (answer === undefined) return undefined
  const typed = answer.trim().toLowerCase()
  const known = ANSWERS[typed]
  if (known !== undefined) return known
  if (typed === AskView.WHOLE_DIFF && view.whole !== undefined) {
    const paged = io.page !== undefined && (await io.page(view.whole))
    return read(io, paged ? Messages.question : `${view.whole}\n${Messages.question}`, view)
  }
  return read(io, `${Messages.unrecognised(answer)}\n${Messages.question}`, view)
}

/** Asks the person at the terminal; the end of input is a plain reject. */
export const prompt = async (io: Io.Io, request: Permission.Request): Promise<Permission.Answer> => {
  const view = AskView.of(request, AskView.terminalOf(io))
  const answer = await read(io, `${view.text}\n${Messages.question}`, view)
  if (answer === undefined) return { reply: "reject" }
  if (answer.reply !== "reject") return answer
  const feedback = (await io.prompt(Messages.feedback))?.trim() ?? ""
  return feedback === "" ? answer : { reply: "reject", message: feedback }
}
