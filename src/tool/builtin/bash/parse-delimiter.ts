/**
 * A heredoc's delimiter as bash reads it (07): the word after `<<` ends at the first unquoted
 * blank or metacharacter (`;`, `&`, `|`, `<`, `>`, `(`, `)`, a line break), and quote removal
 * gives the line that ends the body. tree-sitter-bash's scanner reads the delimiter up to the next
 * blank instead, so `cat <<EOF;cmd` is a heredoc ended by `EOF;cmd` for the grammar and a heredoc
 * ended by `EOF` followed by `cmd` for bash. The guard compares the two readings.
 * Gotcha: words bash reads as units with nested syntax (`$(…)`, `${…}`, backquotes, `$'…'`,
 * `$"…"`) and line continuations are not modelled: they give `undefined`, and the line is opaque.
 */
export * as BashParseDelimiter from "./parse-delimiter.js"

/** bash's reading of the delimiter word at `at`: where it ends, the body's end line, and whether any of it was quoted. */
export interface Delimiter {
  readonly end: number
  readonly line: string
  readonly quoted: boolean
}

const ENDS = new Set([" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"])

/** Characters a backslash escapes inside double quotes; before any other it stays. */
const DOUBLE_ESCAPED = new Set(["$", "`", '"', "\\"])

/**
 * Reads the delimiter word that starts at `at` in `source`, or `undefined` when bash's reading
 * needs more than quotes and backslashes (or the word is empty or unterminated).
 * @example BashParseDelimiter.read("cat <<E'O'F;x", 6) // { end: 11, line: "EOF", quoted: true }
 */
export const read = (source: string, at: number): Delimiter | undefined => {
  let line = ""
  let quoted = false
  let index = at
  while (index < source.length && !ENDS.has(source[index]!)) {
    const char = source[index]!
    const next = source[index + 1]
    if (char === "`" || (char === "$" && next !== undefined && "({'\"[".includes(next))) return undefined
    if (char === "\\") {
      if (next === undefined || next === "\n") return undefined
      line += next
      quoted = true
      index += 2
    } else if (char === "'") {
      const close = source.indexOf("'", index + 1)
      if (close === -1) return undefined
      line += source.slice(index + 1, close)
      quoted = true
      index = close + 1
    } else if (char === '"') {
      const inner = double(source, index + 1)
      if (inner === undefined) return undefined
      line += inner.text
      quoted = true
      index = inner.end
    } else {
      line += char
      index += 1
    }
  }
  return index === at ? undefined : { end: index, line, quoted }
}

/** A double-quoted part from `at` (after its opening quote): its text with quotes removed, and the index after its closing quote. */
const double = (source: string, at: number): { readonly text: string; readonly end: number } | undefined => {
  let text = ""
  let index = at
  while (index < source.length) {
    const char = source[index]!
    const next = source[index + 1]
    if (char === '"') return { text, end: index + 1 }
    if (char === "`" || (char === "$" && next !== undefined && "({'\"[".includes(next))) return undefined
    if (char === "\\") {
      if (next === undefined || next === "\n") return undefined
      text += DOUBLE_ESCAPED.has(next) ? next : char + next
      index += 2
    } else {
      text += char
      index += 1
    }
  }
  return undefined
}
