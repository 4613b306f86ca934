/**
 * The static value of one bash word, when it can be known without running anything: quote
 * removal (`"a"b'c'` is `abc`, `\rm` is `rm`), and for paths a leading unquoted `~` or `~/`
 * expanded to the home directory. Anything that expands at run time — parameters, command or
 * process substitutions, arithmetic, globs (`*`, `?`, `[`), braces, `$'…'` and `$"…"` — has no
 * static value (undefined), and neither has `~user`, `~+` or a `~` whose HOME the command
 * itself may change. Gotcha: `{}` alone (find's placeholder) is literal and stays static.
 */
export * as BashParseWord from "./parse-word.js"

import type { Node } from "web-tree-sitter"

/** Paths that are not files: writing to them never asks, and they are never worth a warning (07). */
export const DEVICES: ReadonlyArray<string> = ["/dev/null", "/dev/stdout", "/dev/stderr"]

const FD = /^\/dev\/fd\/\d+$/

export const isDevice = (path: string): boolean => DEVICES.includes(path) || FD.test(path)

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
const BRACES = new Set(["{", "}"])

interface Piece {
  readonly value: string | undefined
  /** An unquoted `{` or `}`: brace expansion unless the whole word is `{}`. */
  readonly brace: boolean
}

const NONE: Piece = { value: undefined, brace: false }

/** An unquoted word: backslash escapes removed (a backslash-newline vanishes); no globs. */
const bare = (raw: string): Piece => {
  const chars = Array.from(raw)
  const out: Array<string> = []
  let brace = false
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string
    if (char === "\\") {
      const next = chars[++i]
      if (next === undefined) out.push("\\")
      else if (next !== "\n") out.push(next)
      continue
    }
    if (GLOB.has(char)) return NONE
    if (BRACES.has(char)) brace = true
    out.push(char)
  }
  return { value: out.join(""), brace }
}

/** Inside double quotes a backslash escapes only `$`, backquote, `"`, `\` and newline. */
const DOUBLE_ESCAPE = /\\([$`"\\\n])/g

const text = (node: Node, source: string) => source.slice(node.startIndex, node.endIndex)

const piece = (node: Node, source: string): Piece => {
  switch (node.type) {
    case "word":
      return bare(text(node, source))
    case "raw_string":
      return { value: text(node, source).slice(1, -1), brace: false }
    case "number":
      return node.namedChildCount === 0 ? { value: text(node, source), brace: false } : NONE
    case "string": {
      if (node.namedChildren.some((child) => child.type !== "string_content")) return NONE
      const inner = text(node, source).slice(1, -1)
      return { value: inner.replace(DOUBLE_ESCAPE, (_, char: string) => (char === "\n" ? "" : char)), brace: false }
    }
    default:
      return NONE
  }
}

const parts = (node: Node): ReadonlyArray<Node> => {
  if (node.type === "command_name") return node.namedChildren.flatMap(parts)
  return node.type === "concatenation" ? node.children : [node]
}

/** The literal value of `node` (`~` kept), or undefined. */
const literalOf = (node: Node, source: string): string | undefined => {
  const pieces = parts(node).map((part) => piece(part, source))
  if (pieces.some((p) => p.value === undefined)) return undefined
  const value = pieces.map((p) => p.value).join("")
  return pieces.some((p) => p.brace) && value !== "{}" ? undefined : value
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
export const isNotFile = (word: Word): boolean => (word.path !== undefined && isDevice(word.path)) || /^[<>]\(/.test(word.source)

/** Reads a word node of `source`. */
export const read = (node: Node, source: string, tilde: Tilde): Word => {
  const literal = literalOf(node, source)
  return { source: text(node, source), literal, path: pathOf(node, source, literal, tilde), start: node.startIndex, end: node.endIndex }
}

/** A word that is a keyword or token of the grammar (`export`): its text is its value. */
export const token = (node: Node, source: string): Word => {
  const value = text(node, source)
  return { source: value, literal: value, path: value, start: node.startIndex, end: node.endIndex }
}
