/**
 * How `toolgate call` asks a person for a permission at the terminal: it shows the request
 * (action, resources, and exactly what each save pattern would allow for the session and for the
 * project) and reads `o`, `s`, `a` or `r`, then optional feedback after a reject. An answer it does
 * not recognise asks again; the end of input is a reject. `once`, `always` (the project) and
 * `reject` answer by themselves and `deny` denies asks at once (cli/answerer.ts). Without a
 * terminal the default is `reject`, so a non-interactive run never hangs.
 */
export * as OnAsk from "./on-ask.js"

import { Answerer } from "../interaction/answerer.js"
import type { Permission } from "../permission/permission.js"
import { Io } from "./io.js"

export const MODES = ["prompt", ...Answerer.POLICIES] as const
export type Mode = (typeof MODES)[number]

export const Messages = {
  request: (request: Permission.Request) => `Permission requested: ${Io.visible(request.action)} ${request.resources.map(Io.visible).join(", ")}`,
  session: (allow: string) => `  [s]ession would ${Io.visible(allow)}`,
  allows: (allow: string) => `  [a]lways would ${Io.visible(allow)}`,
  noSave: "  [s]ession and [a]lways save nothing for this request: they count as once",
  /** An external MCP tool's call: the arguments it would send. */
  arguments: (text: string) => `  Arguments: ${Io.visible(text)}`,
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

/** What the prompt shows before the question: the request and what each "always" would allow. */
export const shown = (request: Permission.Request): string =>
  [
    Messages.request(request),
    ...(typeof request.metadata.arguments === "string" ? [Messages.arguments(request.metadata.arguments)] : []),
    ...(request.save.length === 0 ? [Messages.noSave] : [...request.allows.session.map(Messages.session), ...request.allows.project.map(Messages.allows)]),
  ].join("\n")

/** Reads answers until one is recognised; the end of input is undefined. */
const read = async (io: Io.Io, question: string): Promise<Permission.Answer | undefined> => {
  const answer = await io.prompt(question)
  if (answer === undefined) return undefined
  const known = ANSWERS[answer.trim().toLowerCase()]
  if (known !== undefined) return known
  return read(io, `${Messages.unrecognised(answer)}\n${Messages.question}`)
}

/** Asks the person at the terminal; the end of input is a plain reject. */
export const prompt = async (io: Io.Io, request: Permission.Request): Promise<Permission.Answer> => {
  const answer = await read(io, `${shown(request)}\n${Messages.question}`)
  if (answer === undefined) return { reply: "reject" }
  if (answer.reply !== "reject") return answer
  const feedback = (await io.prompt(Messages.feedback))?.trim() ?? ""
  return feedback === "" ? answer : { reply: "reject", message: feedback }
}
