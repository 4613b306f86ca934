/**
 * The static value of one bash word, when it can be known without running anything: quote
 * removal (`"a"b'c'` is `abc`, `\rm` is `rm`), and for paths a leading unquoted `~` or `~/`
 * expanded to the home directory. Anything that expands at run time — parameters, command or
 * process substitutions, arithmetic, globs (`*`, `?`, `[`), braces, `$'…'` and `$"…"` — has no
 * static value (undefined), and neither has `~user`, `~+` or a `~` whose HOME the command
 * itself may change. Gotcha: only an unquoted `{a,b}` or `{1..3}` expands; `{}` and `-I{}` are
 * literal and stay static. Gotcha: bash also expands a `~` after the `=` or a `:` of an argument
 * shaped like an assignment (`echo x > a=~/f` writes `a=/home/me/f`): such a word is not static.
 */
export * as BashParseWord from "./parse-word.js"

import { posix } from "node:path"
import type { Node } from "web-tree-sitter"
import { BashParseBrace } from "./parse-brace.js"

/** Paths that are not files: writing to them never asks, and they are never worth a warning (07). */
export const DEVICES: ReadonlyArray<string> = ["/dev/null"]

/** Paths that reopen one of the command's own descriptors: what they write is what it is bound to. */
const DESCRIPTOR = /^\/dev\/(?:stdin|stdout|stderr|fd\/\d+)$|^\/proc\/[^/]+\/fd\/\d+$/

/** Whether `path` (spelled any way: `/dev//fd/3`) reopens a descriptor (`/dev/fd/3`, `/proc/self/fd/1`). */
export const isDescriptor = (path: string): boolean => DESCRIPTOR.test(posix.normalize(path))

export const isDevice = (path: string): boolean => DEVICES.includes(path) || isDescriptor(path)

/** One word of a command, in the source it was parsed from. */
export interface Word {
  readonly source: string
  /** The value after quote removal, `~` kept as written; undefined when not static. */
  readonly literal: string | undefined
  /** The value as a path: like `literal`, with a leading `~` expanded; undefined when not static. */
  readonly path: string | undefined
  readonly start: number
  readonly end: number
}

/**
 * `home` expands a leading `~`; `undefined` means the home directory cannot be trusted (the
 * command assigns HOME), so a `~` word has no path.
 */
export interface Tilde {
  readonly home: string | undefined
}

const GLOB = new Set(["*", "?", "["])
/** An unquoted `{…,…}` or `{…..…}` expands to several words. */
const BRACE_EXPANSION = /\{[^{}]*(?:,|\.\.)[^{}]*\}/
/** Stands for a quoted or escaped character in a word's shape. */
const QUOTED = "_"

interface Piece {
  readonly value: string | undefined
  /** The value with every quoted or escaped character as QUOTED: what brace expansion sees. */
  readonly shape: string
  /** The value's characters, each marked quoted or not (BashParseBrace expands on them). */
  readonly chars: ReadonlyArray<BashParseBrace.Char>
}

const NONE: Piece = { value: undefined, shape: "", chars: [] }

const quoted = (value: string): Piece => ({ value, shape: QUOTED.repeat(value.length), chars: Array.from(value, (char) => ({ char, quoted: true })) })

/** Words with nothing to remove or expand, read as they are. */
const LITERAL = /^[A-Za-z0-9_./:@%+=,~-]*$/

/** An unquoted word: backslash escapes removed (a backslash-newline vanishes); no globs. */
const bare = (raw: string): Piece => {
  if (LITERAL.test(raw)) return { value: raw, shape: raw, chars: Array.from(raw, (char) => ({ char, quoted: false })) }
  const chars = Array.from(raw)
  const out: Array<BashParseBrace.Char> = []
  const shape: Array<string> = []
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string
    if (char === "\\") {
      const next = chars[++i]
      if (next === undefined) out.push({ char: "\\", quoted: true })
      else if (next !== "\n") out.push({ char: next, quoted: true })
      shape.push(QUOTED)
      continue
    }
    if (GLOB.has(char)) return NONE
    out.push({ char, quoted: false })
    shape.push(char)
  }
  return { value: out.map((item) => item.char).join(""), shape: shape.join(""), chars: out }
}

/** Inside double quotes a backslash escapes only `$`, backquote, `"`, `\` and newline. */
const DOUBLE_ESCAPE = /\\([$`"\\\n])/g

const text = (node: Node, source: string) => source.slice(node.startIndex, node.endIndex)

const piece = (node: Node, source: string): Piece => {
  switch (node.type) {
    case "word":
    // `{1..3}`: the grammar's node for a sequence, read as the characters it is (then not static, as any brace expansion).
    case "brace_expression":
      return bare(text(node, source))
    case "raw_string":
      return quoted(text(node, source).slice(1, -1))
    case "number":
      return node.namedChildCount === 0 ? bare(text(node, source)) : NONE
    case "string": {
      if (node.namedChildren.some((child) => child.type !== "string_content")) return NONE
      const inner = text(node, source).slice(1, -1)
      return quoted(inner.replace(DOUBLE_ESCAPE, (_, char: string) => (char === "\n" ? "" : char)))
    }
    default:
      return NONE
  }
}

const parts = (node: Node): ReadonlyArray<Node> => {
  if (node.type === "command_name") return node.namedChildren.flatMap(parts)
  return node.type === "concatenation" ? node.children : [node]
}

/**
 * An argument shaped like an assignment (`name=`, `name[i]=`, `name+=`) with a `~` after its `=`
 * or a `:`: bash (outside POSIX mode) expands that `~` as it would lead a word. Read from the
 * source, so a quoted `~` counts too: not static is the safe side.
 */
const ASSIGNMENT_TILDE = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=(?:.*[:=])?~/su

/** The literal value of `node` (`~` kept), or undefined. */
const literalOf = (node: Node, source: string): string | undefined => {
  if (ASSIGNMENT_TILDE.test(text(node, source))) return undefined
  const pieces = parts(node).map((part) => piece(part, source))
  if (pieces.some((p) => p.value === undefined) || BRACE_EXPANSION.test(pieces.map((p) => p.shape).join(""))) return undefined
  return pieces.map((p) => p.value).join("")
}

/**
 * The path value: a word that is `~` alone, or starts with an unquoted `~/`, gets the home
 * directory in place of its `~`; any other leading `~` (`~user`, `~+`, `~"/x"`) is not static.
 */
const pathOf = (node: Node, source: string, literal: string | undefined, tilde: Tilde): string | undefined => {
  const all = parts(node)
  const head = all[0] === undefined || all[0].type !== "word" ? "" : text(all[0], source)
  if (literal === undefined || !head.startsWith("~")) return literal
  if (tilde.home === undefined) return undefined
  if (head === "~" && all.length === 1) return tilde.home
  return head.startsWith("~/") ? `${tilde.home}${literal.slice(1)}` : undefined
}

/** A device file or a process substitution (`>(cmd)`, a `/dev/fd` path at run time): never a file target. */
export const isNotFile = (word: Word): boolean => (word.path !== undefined && DEVICES.includes(word.path)) || /^[<>]\(/.test(word.source)

/** Reads a word node of `source`. */
export const read = (node: Node, source: string, tilde: Tilde): Word => {
  const literal = literalOf(node, source)
  return { source: text(node, source), literal, path: pathOf(node, source, literal, tilde), start: node.startIndex, end: node.endIndex }
}

/** How an expanded word is written back as source: as it is when plain, else single-quoted after a leading unquoted `~`. */
const sourceOf = (chars: ReadonlyArray<BashParseBrace.Char>): string => {
  const head = chars[0]?.char === "~" && !chars[0].quoted ? "~" : ""
  const rest = chars.slice(head.length).map((item) => item.char).join("")
  return /^[A-Za-z0-9_./:@%+=,-]*$/.test(rest) ? `${head}${rest}` : `${head}'${rest.replace(/'/g, "'\\''")}'`
}

/** A word bash made by brace expansion: static, its leading unquoted `~` expanded as bash does after the braces. */
const expanded = (node: Node, chars: ReadonlyArray<BashParseBrace.Char>, tilde: Tilde): Word => {
  const literal = chars.map((item) => item.char).join("")
  const word = { source: sourceOf(chars), start: node.startIndex, end: node.endIndex }
  if (ASSIGNMENT_TILDE.test(literal)) return { ...word, literal: undefined, path: undefined }
  if (chars[0]?.char !== "~" || chars[0].quoted) return { ...word, literal, path: literal }
  const home = literal === "~" || (literal.startsWith("~/") && chars[1]?.quoted === false) ? tilde.home : undefined
  return { ...word, literal, path: home === undefined ? undefined : `${home}${literal.slice(1)}` }
}

/**
 * The words a word node is after brace expansion (BashParseBrace): one, as `read` gives it, when
 * nothing expands or anything else in it is not static; several static words for an otherwise
 * static word with braces (`.envr{c.in,c}`); undefined when it expands to too many to list.
 * @example BashParseWord.readAll(node("cp{,.bak}"), …) // words "cp" and "cp.bak"
 */
export const readAll = (node: Node, source: string, tilde: Tilde): ReadonlyArray<Word> | undefined => {
  const one = read(node, source, tilde)
  if (one.literal !== undefined || ASSIGNMENT_TILDE.test(text(node, source))) return [one]
  const pieces = parts(node).map((part) => piece(part, source))
  if (pieces.some((p) => p.value === undefined)) return [one]
  const words = BashParseBrace.words(pieces.flatMap((p) => p.chars))
  return words?.map((chars) => expanded(node, chars, tilde))
}

/** A word that is a keyword or token of the grammar (`export`): its text is its value. */
export const token = (node: Node, source: string): Word => {
  const value = text(node, source)
  return { source: value, literal: value, path: value, start: node.startIndex, end: node.endIndex }
}
