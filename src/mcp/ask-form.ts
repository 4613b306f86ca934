/**
 * What an MCP client shows a person when toolgate asks: one form elicitation per pending
 * interaction, flat as the spec requires (primitive properties only). A permission request gets
 * `decision` (Allow once / Allow for this session / Always allow: <the exact patterns> / Reject)
 * and an optional `feedback`; the message names the tool, the action and every resource, what each
 * "always" would allow, and for an edit its diff, for bash the command, its description and its
 * directory, for a file tool's external_directory what it does there, a redirect's origin. A
 * question gets one field per question: its options as a titled single-select, or a multi-select
 * where several may be chosen, and a text field for an answer of the person's own. Declining or
 * cancelling the form is a reject without feedback (the agent stops); an answer the form did not
 * offer is refused the same way, never taken as an allow.
 */
export * as McpAskForm from "./ask-form.js"

import type { Interaction } from "../interaction/interaction.js"
import type { PermissionRequest } from "../permission/request.js"
import { PermissionShown } from "../permission/shown.js"
import type { Question } from "../question.js"
import { VisibleText } from "../visible-text.js"

/** What a diff keeps as it is: its lines and its tabs lay it out. */
const DIFF_KEPT = "\n\t"
const safe = (text: string) => VisibleText.of(text)

/** The longest diff or command a form message carries; the rest is named, not shown. */
export const MAX_SHOWN = 20_000

export const Titles = {
  decision: "Decision",
  once: "Allow once",
  session: "Allow for this session",
  always: (patterns: ReadonlyArray<string>) => `Always allow: ${patterns.map(safe).join(", ")}`,
  reject: "Reject",
  feedback: "Feedback for the agent (optional; with Reject, the agent reads it and goes on instead of stopping)",
  own: (header: string) => `${safe(header)}: your own answer (optional)`,
} as const

export const Messages = {
  permission: (tool: string, request: PermissionRequest.Request) =>
    `toolgate: the ${safe(tool)} tool asks for ${safe(request.action)} on ${request.resources.map(safe).join(", ")}`,
  session: (allows: string) => `"Allow for this session" would ${safe(allows)}.`,
  always: (allows: string) => `"Always allow" would ${safe(allows)}.`,
  noSave: `"Allow for this session" and "Always allow" are not offered: this request has nothing to save.`,
  purpose: (purpose: string) => `For: ${safe(purpose)}`,
  command: (command: string) => `Command: ${safe(command)}`,
  description: (description: string) => `Description: ${safe(PermissionShown.description(description))}`,
  sandbox: (text: string) => `Runs ${safe(text)}`,
  workdir: (directory: string) => `Directory: ${safe(directory)}`,
  redirectedFrom: (url: string) => `Redirected from: ${safe(url)}`,
  arguments: (text: string) => `Arguments: ${safe(text)}`,
  diff: (diff: string) => `Diff:\n${VisibleText.of(diff, DIFF_KEPT)}`,
  cut: (more: number) => `… (${more} more characters not shown)`,
  questions: (count: number) => `toolgate: the agent asks ${count === 1 ? "a question" : `${count} questions`}`,
  question: (index: number, info: Question.Info) => `${index + 1}. [${safe(info.header)}] ${safe(info.question)}`,
  option: (option: Question.Option) => `   - ${safe(option.label)}: ${safe(option.description)}`,
} as const

/** The restricted JSON Schema of a form: a flat object of primitive properties. */
export interface Schema {
  readonly type: "object"
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly required?: ReadonlyArray<string>
}

export interface Form {
  readonly message: string
  readonly requestedSchema: Schema
}

/** What a client sent back for one form: the elicitation result, as untrusted JSON. */
export type Response = unknown

const shown = (text: string) => (text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN)}\n${Messages.cut(text.length - MAX_SHOWN)}`)

const DECISIONS = ["once", "session", "always", "reject"] as const
type Decision = (typeof DECISIONS)[number]

const stringOf = (value: unknown) => (typeof value === "string" ? value : undefined)

/** The form for a permission request made by `tool`. */
export const permission = (tool: string, request: PermissionRequest.Request): Form => {
  const saves = request.save.length > 0
  const offered: ReadonlyArray<Decision> = saves ? DECISIONS : ["once", "reject"]
  const title = (decision: Decision) =>
    decision === "once" ? Titles.once : decision === "session" ? Titles.session : decision === "always" ? Titles.always(request.save) : Titles.reject
  const { purpose, command, description, sandbox, workdir, redirectedFrom, arguments: sent, diff } = PermissionShown.of(request.metadata)
  const lines = [
    Messages.permission(tool, request),
    ...(purpose === undefined ? [] : [Messages.purpose(purpose)]),
    ...(command === undefined ? [] : [Messages.command(shown(command))]),
    ...(description === undefined ? [] : [Messages.description(description)]),
    ...(sandbox === undefined ? [] : [Messages.sandbox(sandbox)]),
    ...(workdir === undefined ? [] : [Messages.workdir(workdir)]),
    ...(redirectedFrom === undefined ? [] : [Messages.redirectedFrom(redirectedFrom)]),
    ...(sent === undefined ? [] : [Messages.arguments(shown(sent))]),
    ...(saves ? [...request.allows.session.map(Messages.session), ...request.allows.project.map(Messages.always)] : [Messages.noSave]),
    ...(diff === undefined ? [] : [Messages.diff(shown(diff))]),
  ]
  return {
    message: lines.join("\n"),
    requestedSchema: {
      type: "object",
      properties: {
        decision: { type: "string", title: Titles.decision, oneOf: offered.map((decision) => ({ const: decision, title: title(decision) })) },
        feedback: { type: "string", title: Titles.feedback },
      },
      required: ["decision"],
    },
  }
}

/** The field names of a question form: `q<n>` for the choice, `q<n>_own` for the person's own words. */
const choiceKey = (index: number) => `q${index + 1}`
const ownKey = (index: number) => `q${index + 1}_own`

/** The form for the `question` tool's questions. */
export const question = (request: Question.Request): Form => {
  const properties: Record<string, Readonly<Record<string, unknown>>> = {}
  request.questions.forEach((info, index) => {
    const choices = info.options.map((option) => ({ const: option.label, title: safe(option.label) }))
    properties[choiceKey(index)] =
      info.multiple === true
        ? { type: "array", title: `${safe(info.header)}: ${safe(info.question)}`, items: { anyOf: choices } }
        : { type: "string", title: `${safe(info.header)}: ${safe(info.question)}`, oneOf: choices }
    properties[ownKey(index)] = { type: "string", title: Titles.own(info.header) }
  })
  const lines = [
    Messages.questions(request.questions.length),
    ...request.questions.flatMap((info, index) => [Messages.question(index, info), ...info.options.map(Messages.option)]),
  ]
  return { message: lines.join("\n"), requestedSchema: { type: "object", properties } }
}

/** The form for a pending interaction; `tool` is the tool whose call asks. */
export const of = (tool: string, pending: Interaction.Pending): Form =>
  pending.kind === "permission" ? permission(tool, pending.payload) : question(pending.payload)

/** The accepted content of an elicitation result, or undefined when it was declined, cancelled or malformed. */
const accepted = (response: Response): Readonly<Record<string, unknown>> | undefined => {
  if (response === null || typeof response !== "object") return undefined
  const { action, content } = response as { readonly action?: unknown; readonly content?: unknown }
  if (action !== "accept" || content === null || typeof content !== "object" || Array.isArray(content)) return undefined
  return content as Record<string, unknown>
}

/** The answer to a permission request a form response means; anything unclear is a plain reject. */
export const permissionAnswer = (request: PermissionRequest.Request, response: Response): PermissionRequest.Answer => {
  const content = accepted(response)
  if (content === undefined) return { reply: "reject" }
  const feedback = stringOf(content.feedback)?.trim() ?? ""
  const decision = content.decision
  const saves = request.save.length > 0
  if (decision === "once") return { reply: "once" }
  if (decision === "session" && saves) return { reply: "always", scope: "session" }
  if (decision === "always" && saves) return { reply: "always", scope: "project" }
  if (decision === "reject" && feedback !== "") return { reply: "reject", message: feedback }
  return { reply: "reject" }
}

/** The answer to a question a form response means; declined, cancelled or malformed dismisses. */
export const questionAnswer = (request: Question.Request, response: Response): Question.Answer => {
  const content = accepted(response)
  if (content === undefined) return { reply: "dismissed" }
  const answers = request.questions.map((info, index) => {
    const labels = new Set(info.options.map((option) => option.label))
    const picked = content[choiceKey(index)]
    const chosen = (Array.isArray(picked) ? picked : [picked]).filter((item): item is string => typeof item === "string" && labels.has(item))
    const own = stringOf(content[ownKey(index)])?.trim() ?? ""
    const all = [...(info.multiple === true ? chosen : chosen.slice(0, 1)), ...(own === "" ? [] : [own])]
    return [...new Set(all)]
  })
  return { reply: "answered", answers }
}

/** The answer a form response means for a pending interaction. */
export const answerOf = (pending: Interaction.Pending, response: Response): Interaction.Answer =>
  pending.kind === "permission" ? permissionAnswer(pending.payload, response) : questionAnswer(pending.payload, response)
