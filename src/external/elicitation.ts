/**
 * A form an external MCP server asks for (`elicitation/create`, form mode) while one of its tools
 * runs, shown to the person as questions of the calling session, through whoever answers that
 * session (the terminal, a policy, an MCP client, later the console). Each field is one question,
 * its header and text saying which server asks; an enum's values are the options, a boolean is
 * Yes / No, and any other field takes the person's own words (or "(no answer)"). A form that asks
 * for a secret (a field named like a password, token, key or credential) is declined without
 * asking: the spec forbids form mode for secrets, and a client must not pass one on. A dismissal
 * declines the form; the server decides what its tool does then.
 */
export * as ExternalElicitation from "./elicitation.js"

import { Question } from "../question.js"

export const Messages = {
  header: (server: string, field: string) => `${server}: ${field}`.slice(0, Question.MAX_HEADER_LENGTH),
  question: (server: string, message: string, field: string, description?: string) =>
    `The MCP server ${server} asks: ${message}${description === undefined ? "" : `\n${field}: ${description}`}`,
  yes: "Yes",
  no: "No",
  none: "(no answer)",
  noneDescription: "Leave this field empty",
  own: "Type your own answer",
} as const

/** A field name or title that asks for a secret. */
export const SECRET = /pass(word|phrase|wd)?\b|secret|token|api[\s_-]?key|private[\s_-]?key|credential|\bpin\b|otp|cvv|card[\s_-]?number/i

type Property = { readonly type?: unknown; readonly title?: unknown; readonly description?: unknown; readonly enum?: unknown; readonly oneOf?: unknown; readonly anyOf?: unknown; readonly items?: unknown }

export interface Field {
  readonly name: string
  readonly property: Property
  /** Option label → the value sent back. */
  readonly choices: ReadonlyArray<{ readonly label: string; readonly value: unknown }>
  readonly multiple: boolean
}

export interface Form {
  readonly message: string
  readonly requestedSchema?: { readonly properties?: Readonly<Record<string, unknown>> }
}

const str = (value: unknown) => (typeof value === "string" ? value : undefined)

const choicesOf = (property: Property): Field["choices"] => {
  const titled = (list: unknown) =>
    Array.isArray(list) ? list.flatMap((item: { const?: unknown; title?: unknown }) => (item !== null && typeof item === "object" && "const" in item ? [{ label: str(item.title) ?? String(item.const), value: item.const }] : [])) : []
  if (Array.isArray(property.enum)) return property.enum.map((value) => ({ label: String(value), value }))
  if (property.oneOf !== undefined) return titled(property.oneOf)
  if (property.type === "boolean") return [{ label: Messages.yes, value: true }, { label: Messages.no, value: false }]
  if (property.type === "array" && property.items !== null && typeof property.items === "object") {
    const items = property.items as Property
    if (Array.isArray(items.enum)) return items.enum.map((value) => ({ label: String(value), value }))
    return titled(items.anyOf ?? items.oneOf)
  }
  return []
}

/** The fields of a form, or why it is refused. */
export const fields = (form: Form): ReadonlyArray<Field> | { readonly refused: string } => {
  const properties = form.requestedSchema?.properties ?? {}
  const made: Array<Field> = []
  for (const [name, raw] of Object.entries(properties)) {
    const property = (raw ?? {}) as Property
    if (SECRET.test(name) || SECRET.test(str(property.title) ?? "") || SECRET.test(str(property.description) ?? "")) return { refused: name }
    made.push({ name, property, choices: choicesOf(property), multiple: property.type === "array" })
  }
  return made
}

/** The questions that show a form's fields. */
export const questions = (server: string, form: Form, list: ReadonlyArray<Field>): ReadonlyArray<Question.Info> =>
  list.map((field) => {
    const title = str(field.property.title) ?? field.name
    const options = field.choices.length > 0 ? field.choices.map((choice) => ({ label: choice.label, description: choice.label })) : [{ label: Messages.none, description: Messages.noneDescription }]
    return {
      header: Messages.header(server, title),
      question: Messages.question(server, form.message, title, str(field.property.description)),
      options,
      ...(field.multiple ? { multiple: true } : {}),
    }
  })

/** One answer list as the field's value, or undefined to leave the field out. */
const valueOf = (field: Field, answers: ReadonlyArray<string>): unknown => {
  const values = answers.flatMap((answer) => {
    if (answer === Messages.none) return []
    const choice = field.choices.find((item) => item.label === answer)
    if (choice !== undefined) return [choice.value]
    if (field.property.type === "number" || field.property.type === "integer") {
      const number = Number(answer)
      return Number.isFinite(number) ? [number] : []
    }
    return [answer]
  })
  if (field.multiple) return values.length === 0 ? undefined : values
  return values[0]
}

/** The content sent back for the answers, one list per field. */
export const content = (list: ReadonlyArray<Field>, answers: Question.Answers): Record<string, unknown> =>
  Object.fromEntries(list.flatMap((field, index) => {
    const value = valueOf(field, answers[index] ?? [])
    return value === undefined ? [] : [[field.name, value]]
  }))
