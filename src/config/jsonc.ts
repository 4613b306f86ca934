/**
 * JSON with comments and trailing commas, as config files are written. A syntax error is
 * reported at its 1-based line and column with a readable description, never skipped over:
 * a half-understood config must not start anything.
 * Gotcha: objects are built with own properties only. A plain `obj[key] = value` would turn a
 * `"__proto__"` key into the object's prototype, hiding its keys from validation.
 */
export * as Jsonc from "./jsonc.js"

import { parseTree, printParseErrorCode, type Node, type ParseError as RawError } from "jsonc-parser"

export interface SyntaxError {
  readonly line: number
  readonly column: number
  readonly detail: string
}

/** "PropertyNameExpected" → "property name expected" */
const describe = (code: RawError["error"]) =>
  printParseErrorCode(code)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()

/** 1-based line and column of a UTF-16 offset; `\r\n`, `\n` and `\r` each end a line. */
export const position = (text: string, offset: number): { line: number; column: number } => {
  const before = text.slice(0, offset)
  const breaks = before.match(/\r\n|\n|\r/g) ?? []
  const lastBreak = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r"))
  return { line: breaks.length + 1, column: offset - lastBreak }
}

const BOM = "\uFEFF"

/** Each parsed object's keys in the order the file wrote them (JavaScript puts integer keys first). */
const order = new WeakMap<object, ReadonlyArray<readonly [string, unknown]>>()

/** An object's entries in file order when it came from `parse`, else `Object.entries`. */
export const entries = (value: object): ReadonlyArray<readonly [string, unknown]> => order.get(value) ?? Object.entries(value)

const toValue = (node: Node): unknown => {
  if (node.type === "array") return (node.children ?? []).map(toValue)
  if (node.type !== "object") return node.value
  const made: Record<string, unknown> = {}
  const written: Array<readonly [string, unknown]> = []
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? []
    if (key === undefined || value === undefined) continue
    const converted = toValue(value)
    Object.defineProperty(made, String(key.value), { value: converted, enumerable: true, writable: true, configurable: true })
    written.push([String(key.value), converted])
  }
  // A key written twice keeps its last value, at its last position.
  order.set(made, written.filter(([key], index) => written.findLastIndex(([other]) => other === key) === index))
  return made
}

/** The parsed value, or the first syntax error. */
export const parse = (text: string): { readonly value: unknown } | { readonly error: SyntaxError } => {
  const errors: RawError[] = []
  // A byte-order mark is how some editors start a UTF-8 file; it is not part of the JSON.
  const tree = parseTree(text.startsWith(BOM) ? text.slice(1) : text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false })
  const first = errors[0]
  if (first !== undefined) return { error: { ...position(text, first.offset), detail: describe(first.error) } }
  return { value: tree === undefined ? undefined : toValue(tree) }
}
