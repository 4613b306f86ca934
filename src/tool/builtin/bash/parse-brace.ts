/**
 * Brace expansion, as bash does it to a word that is otherwise static: `.envr{c.in,c}` is two
 * words, `.envrc.in .envrc`. The gate read it as one word that is not static, so a program that
 * finds its files by position (the last operand of `cp`/`mv`, the second of `uniq`, `link`) saw
 * one operand and judged no write: `mv t{oolgate.json,x}` took the project's config away and
 * `cp .envr{c.in,c}` wrote `.envrc`, both unasked under `* allow`. The words are now what bash
 * makes of them, so every reader judges the files bash will name.
 * Works on characters marked quoted or not (a quoted `{`, `,` or `}` is literal, as in bash):
 * the first unquoted `{` with a matching `}` holding a top-level `,` (or a sequence `{1..3}`,
 * `{a..e}`, `{01..10..2}`) expands, preamble and postscript joined to each part, and each result
 * is expanded again; a `{` that expands nothing is literal and the scan goes on after it.
 * Past MAX_WORDS the expansion is not known (undefined): the word stays not static.
 */
export * as BashParseBrace from "./parse-brace.js"

/** One character of a word, and whether quoting made it literal. */
export interface Char {
  readonly char: string
  readonly quoted: boolean
}

/** The most words one word may expand to before it counts as unknowable. */
export const MAX_WORDS = 256
/**
 * The longest word, and the most unquoted `{` in it, that is expanded at all: past them it is
 * unknowable (the line opaque). Bounds the work, which grows with both (each `{` looks for its
 * `}`, each group is expanded again), on a line made to stall the gate.
 */
export const MAX_LENGTH = 4_096
export const MAX_BRACES = 64

// `${` is a parameter expansion, never a brace expansion.
const open = (chars: ReadonlyArray<Char>, at: number) => chars[at]?.quoted === false && chars[at]?.char === "{" && !(chars[at - 1]?.quoted === false && chars[at - 1]?.char === "$")
const close = (chars: ReadonlyArray<Char>, at: number) => chars[at]?.quoted === false && chars[at]?.char === "}"

/** The index of the `}` matching the `{` at `start`, or -1. */
const matching = (chars: ReadonlyArray<Char>, start: number): number => {
  const depth = { count: 0 }
  for (let at = start; at < chars.length; at++) {
    if (open(chars, at)) depth.count += 1
    else if (close(chars, at)) {
      depth.count -= 1
      if (depth.count === 0) return at
    }
  }
  return -1
}

/** The parts between top-level unquoted commas of `inner`; one part when there is no such comma. */
const split = (inner: ReadonlyArray<Char>): ReadonlyArray<ReadonlyArray<Char>> => {
  const parts: Array<Array<Char>> = [[]]
  const depth = { count: 0 }
  for (let at = 0; at < inner.length; at++) {
    const item = inner[at] as Char
    if (open(inner, at)) depth.count += 1
    if (close(inner, at)) depth.count -= 1
    if (!item.quoted && item.char === "," && depth.count === 0) parts.push([])
    else (parts.at(-1) as Array<Char>).push(item)
  }
  return parts
}

const SEQUENCE = /^(?:(-?\d+)\.\.(-?\d+)|([A-Za-z])\.\.([A-Za-z]))(?:\.\.(-?\d+))?$/

/** The words of a sequence expression (`1..3`, `a..e`, `01..10..2`), unquoted; null when it is none, undefined when it cannot be known (too long). */
const sequence = (inner: ReadonlyArray<Char>): ReadonlyArray<string> | null | undefined => {
  if (inner.some((item) => item.quoted)) return null
  const found = SEQUENCE.exec(inner.map((item) => item.char).join(""))
  if (found === null) return null
  const [, fromText, toText, fromLetter, toLetter, stepText] = found
  const numeric = fromText !== undefined && toText !== undefined
  const [from, to] = numeric ? [Number(fromText), Number(toText)] : [(fromLetter as string).charCodeAt(0), (toLetter as string).charCodeAt(0)]
  const step = Math.abs(Number(stepText ?? "1")) || 1
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || Math.abs(to - from) / step >= MAX_WORDS) return undefined
  // bash pads every number to the widest bound when either bound has a leading zero.
  const padded = numeric && [fromText, toText].some((text) => /^-?0\d/.test(text as string))
  const width = padded ? Math.max((fromText as string).length, (toText as string).length) : 0
  const direction = to >= from ? 1 : -1
  const words: Array<string> = []
  for (let value = from; direction > 0 ? value <= to : value >= to; value += direction * step) {
    if (!numeric) words.push(String.fromCharCode(value))
    else words.push(value < 0 ? `-${String(-value).padStart(width - 1, "0")}` : String(value).padStart(width, "0"))
  }
  // `{Z..a}` passes through `[`, `\` and a backquote, which bash then reads as a glob or an escape: not known here.
  return numeric || words.every((word) => /^[A-Za-z]$/.test(word)) ? words : undefined
}

const unquoted = (text: string): ReadonlyArray<Char> => Array.from(text, (char) => ({ char, quoted: false }))

/**
 * The words `chars` expands to, in bash's order, as `expandAll` makes them before bash drops the
 * empty ones (`{,a}` is `a`); undefined past MAX_WORDS, or when an empty one came from a word with
 * quoted parts (a quoted empty string stays a word, and the characters do not show it).
 */
export const words = (chars: ReadonlyArray<Char>): ReadonlyArray<ReadonlyArray<Char>> | undefined => {
  if (chars.length > MAX_LENGTH || chars.filter((item) => !item.quoted && item.char === "{").length > MAX_BRACES) return undefined
  const all = expand(chars)
  if (all === undefined || all.length === 1) return all
  if (all.some((word) => word.length === 0) && chars.some((item) => item.quoted)) return undefined
  return all.filter((word) => word.length > 0)
}

/**
 * The words `chars` expands to, in bash's order; `[chars]` when nothing expands; undefined past MAX_WORDS.
 * @example BashParseBrace.expand(chars(".envr{c.in,c}")) // [".envrc.in", ".envrc"] as Char arrays
 */
export const expand = (chars: ReadonlyArray<Char>): ReadonlyArray<ReadonlyArray<Char>> | undefined => {
  for (let start = 0; start < chars.length; start++) {
    if (!open(chars, start)) continue
    const end = matching(chars, start)
    // An unmatched `{` is literal; a later one may still expand (`{a{b,c}` is `{ab {ac`).
    if (end === -1) continue
    const inner = chars.slice(start + 1, end)
    const parts = split(inner)
    const listed = parts.length > 1 ? parts : sequence(inner)
    // Not an expansion: literal, and the scan goes on after the `{`.
    if (listed === null) continue
    if (listed === undefined) return undefined
    const items = listed.map((item) => (typeof item === "string" ? unquoted(item) : item))
    const [before, after] = [chars.slice(0, start), chars.slice(end + 1)]
    const words: Array<ReadonlyArray<Char>> = []
    for (const item of items) {
      const more = expand([...before, ...item, ...after])
      if (more === undefined || words.length + more.length > MAX_WORDS) return undefined
      words.push(...more)
    }
    return words
  }
  return [chars]
}
