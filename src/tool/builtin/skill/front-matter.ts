/**
 * The front matter of a `SKILL.md`: a YAML block between a first line `---` and the next line
 * `---`, then the markdown body. Only `name` and `description` are read, and only as plain
 * strings; other keys (license, metadata, …) are ignored. Nothing is converted to JavaScript
 * values, so aliases and tags in a hostile file cannot expand. Every problem carries the line and
 * column in the whole file (the front matter starts on line 2), so a person can go straight to it.
 */
export * as SkillFrontMatter from "./front-matter.js"

import { isMap, isNode, isScalar, LineCounter, parseDocument, type YAMLMap } from "yaml"

export const FENCE = "---"
const BOM = "\uFEFF"

/**
 * The most front matter read, in characters: a name and a description need little, and the YAML
 * parser checks duplicate keys in quadratic time (a 1 MiB mapping took 400 s at start-up).
 */
export const MAX_FRONT_MATTER_CHARS = 16 * 1024

export const Messages = {
  tooLong: `the front matter is longer than ${MAX_FRONT_MATTER_CHARS} characters`,
  unclosed: `the front matter opened with ${FENCE} on line 1 is not closed with a ${FENCE} line`,
  notMapping: "the front matter must be keys and values (name: …, description: …)",
  notString: (key: string) => `${key} must be text`,
} as const

export interface Parsed {
  readonly name?: string
  readonly description?: string
  readonly body: string
}

export interface Problem {
  /** 1-based, in the whole file. */
  readonly line: number
  readonly column: number
  readonly detail: string
}

/** Lines of the front matter before the YAML text: the opening fence. */
const OFFSET = 1

const at = (lines: LineCounter, offset: number, detail: string): Problem => {
  const position = lines.linePos(offset)
  return { line: position.line + OFFSET, column: position.col, detail }
}

/** A key's value as a string, a problem when it is anything else, undefined when absent. */
const field = (lines: LineCounter, map: YAMLMap, key: string): string | Problem | undefined => {
  const pair = map.items.find((item) => isScalar(item.key) && item.key.value === key)
  if (pair === undefined) return undefined
  const value = pair.value
  if (isScalar(value) && typeof value.value === "string") return value.value
  const start = (isNode(value) ? value.range?.[0] : undefined) ?? (isNode(pair.key) ? pair.key.range?.[0] : undefined) ?? 0
  return at(lines, start, Messages.notString(key))
}

export const isProblem = (value: Parsed | Problem | string | undefined): value is Problem => typeof value === "object" && value !== null && "detail" in value

/**
 * Splits and reads a SKILL.md. A file without a first `---` line has no front matter: all of it
 * is the body.
 * @example SkillFrontMatter.parse("---\nname: pdf\ndescription: Fill PDF forms\n---\n# PDF\n") // { name: "pdf", description: "Fill PDF forms", body: "# PDF\n" }
 */
export const parse = (text: string): Parsed | Problem => {
  const lines = (text.startsWith(BOM) ? text.slice(BOM.length) : text).split(/\r?\n/)
  if (lines[0]?.trimEnd() !== FENCE) return { body: lines.join("\n") }
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === FENCE)
  if (close === -1) return { line: 1, column: 1, detail: Messages.unclosed }
  const source = lines.slice(1, close).join("\n")
  if (source.length > MAX_FRONT_MATTER_CHARS) return { line: 2, column: 1, detail: Messages.tooLong }
  const counter = new LineCounter()
  const document = parseDocument(source, { lineCounter: counter, prettyErrors: false })
  const error = document.errors[0]
  if (error !== undefined) return at(counter, error.pos[0], error.message)
  const contents = document.contents
  if (contents !== null && !isMap(contents)) return at(counter, contents.range?.[0] ?? 0, Messages.notMapping)
  const body = lines.slice(close + 1).join("\n")
  if (contents === null) return { body }
  const name = field(counter, contents, "name")
  if (isProblem(name)) return name
  const description = field(counter, contents, "description")
  if (isProblem(description)) return description
  return { ...(name === undefined ? {} : { name }), ...(description === undefined ? {} : { description }), body }
}
