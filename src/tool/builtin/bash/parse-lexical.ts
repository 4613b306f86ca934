/**
 * Where tree-sitter's reading of the characters of a line may differ from bash's (issue 11: the
 * five families of parser divergence found from outside). Bash's lexer, not the grammar, decides
 * where a command ends; so instead of modelling each quirk, the tree is checked against what bash
 * would have read, and any doubt makes the input opaque:
 * - a control character other than tab and newline (CR, VT, FF, ESC, DEL…), or a Unicode blank
 *   that is not ASCII, anywhere: the grammar may take it for a blank, bash never does;
 * - a backslash-newline that does not follow a blank (or that ends the text, or starts a line, or
 *   is followed by a blank line), or any in a line that holds a `#`: bash deletes the pair before
 *   it splits words and comments end at the newline whatever precedes it;
 * - text between the tokens of the tree that is not blank (`\ ` read as a blank), a line break
 *   inside a simple command, or a word token holding an unescaped blank or operator character:
 *   a statement the tree swallowed into a word or a gap;
 * - a comment that starts where bash would not start one (inside a word: `'a'#;`) or holds a
 *   line break;
 * - a backquote substitution holding a backslash or another backquote: bash removes `\`` `\$`
 *   `\\` in it and parses the text again, so `` `echo \`x\`` `` runs x, and ends it at the next
 *   backquote even inside quotes;
 * - a `$'…'` string that does not end where bash ends it (`$'\\'` is one backslash);
 * - a quote inside the word of a `${…}` that is itself in double quotes or a heredoc body
 *   (`"${x-'…'}"`), unless plain: there bash reads single quotes as characters and expands what
 *   they hold (`-`, `+`, `=`), drops inner double quotes and their backslashes before it
 *   expands (`'$"(cmd)'` and `"$""(cmd)"` are `$(cmd)`), and turns `$'…'` into raw text that is
 *   expanded again (`$'\x24(cmd)'` runs cmd). See `plainInWord`.
 * Gotcha: deliberately coarse (a CR in a quoted string, `a\<newline>b` in a comment's line): it
 * costs a question, never a bypass. The differential fuzzer (test/…/differential.test.ts) judges it.
 */
export * as BashParseLexical from "./parse-lexical.js"

import type { Node, TreeCursor } from "web-tree-sitter"

/** Control characters bash reads as word characters, and non-ASCII blanks the grammar may skip. */
const STRANGE = /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/

/** Whether `text` holds a character on which bash and the grammar may disagree. */
export const strange = (text: string): boolean => STRANGE.test(text)

const CONTINUATION = /\\\n/g

/** Where the run of backslashes that ends at `at` starts. */
const backslashesFrom = (text: string, at: number): number => (text[at - 1] === "\\" ? backslashesFrom(text, at - 1) : at)

/**
 * Whether every backslash-newline of `text` (an unescaped backslash) is a plain line continuation:
 * after a blank, in a line with no `#`, followed by a line that is not blank.
 */
export const continuations = (text: string): boolean =>
  Array.from(text.matchAll(CONTINUATION)).every((match) => {
    const at = match.index
    const run = at + 1 - backslashesFrom(text, at)
    // An even run of backslashes is that many halved, literal, then a plain newline.
    if (run % 2 === 0) return true
    const before = text[at - 1]
    const start = text.lastIndexOf("\n", at) + 1
    const next = text.indexOf("\n", at + 2)
    const following = text.slice(at + 2, next === -1 ? text.length : next)
    return (before === " " || before === "\t") && !text.slice(start, at).includes("#") && following.trim() !== ""
  })

/** Where bash starts a comment: at the start of a word, after a blank or an operator character. */
const COMMENT_AFTER = new Set([undefined, " ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"])

/** Node types whose text is not tokens: the text between their children is not checked. */
const TEXT = new Set(["string", "raw_string", "ansi_c_string", "translated_string", "heredoc_body", "heredoc_content", "comment", "regex", "extglob_pattern", "string_content"])

/** Statements bash ends at a newline: a line break between their tokens means another command. */
const LINE_BOUND = new Set(["command", "variable_assignment", "declaration_command", "unset_command", "file_redirect", "herestring_redirect"])

/** A gap between tokens: blanks and newlines, and continuations after a blank. */
const GAP = /^(?:[ \t\n]|\\\n)*$/
const LINE_GAP = /^(?:[ \t]|\\\n)*$/

/** A word token holding an unescaped blank, newline or operator character. */
const splits = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string
    if (char === "\\") {
      i++
      continue
    }
    if (" \t\n;&|<>()".includes(char)) return true
  }
  return false
}

/** Where bash ends the `$'…'` string that starts at `start`: a backslash escapes the next character. */
const ansiEnd = (source: string, start: number): number => {
  for (let i = start + 2; i < source.length; i++) {
    if (source[i] === "\\") i++
    else if (source[i] === "'") return i + 1
  }
  return -1
}

/**
 * Where a node sits: in code, directly in double quotes (a string, a heredoc body), or in the word
 * of a `${…}` that is in double quotes (through nested `${…}`). A substitution starts code again.
 */
type Place = "code" | "double" | "word"

const DOUBLE = new Set(["string", "translated_string", "heredoc_body"])

/** Nodes whose text is code of its own: a word's place ends at them. */
const CODE = new Set(["command_substitution", "process_substitution", "arithmetic_expansion"])

/**
 * Where the children of a node of `type` sit, when it sits at `place`. In a word, every node but a
 * substitution keeps the word's place: `"${x-('$"(cmd)')}"` is an `array` to the grammar, not to bash.
 */
const placeOf = (type: string, place: Place): Place => {
  if (DOUBLE.has(type)) return "double"
  if (type === "expansion") return place === "code" ? "code" : "word"
  if (place === "word" && !CODE.has(type)) return "word"
  return type === "concatenation" ? place : "code"
}

/** `$'…'` that decodes to plain characters: no quote, backslash, `$`, backquote or bracket, escapes of controls alone. */
const PLAIN_ANSI = /^\$'(?:[^\\'"$`(){}[\]]|\\[abefnrtv])*'$/
const RAW_SPECIAL = /[$`\\"]/

/** Whether a word or pattern token holds an unescaped quote, or a `$` that ends it or precedes a quote or backslash. */
const quotesInToken = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string
    if (char === "\\") {
      i++
      continue
    }
    if (char === "'" || char === '"') return true
    if (char === "$" && (i === text.length - 1 || "\\'\"".includes(text[i + 1] as string))) return true
  }
  return false
}

/** The text of a double-quoted string between its quotes, each expansion or substitution in it blanked out. */
const ownText = (node: Node, source: string): string => {
  const open = source.indexOf('"', node.startIndex) + 1
  const inner = node.namedChildren.filter((child) => child.type !== "string_content")
  return inner.reduceRight((text, child) => text.slice(0, child.startIndex - open) + " ".repeat(child.endIndex - child.startIndex) + text.slice(child.endIndex - open), source.slice(open, node.endIndex - 1))
}

/**
 * Whether a node in the word of a double-quoted `${…}` reads the same to bash as to the grammar.
 * There bash expands what single quotes hold (they are characters for `-`, `+`, `=`), drops
 * inner double quotes and the backslashes inside them before it expands (`'$"(x)'`, `"$""(x)"`,
 * `"$\(x)"` are `$(x)`), and puts the text of `$'…'` back unquoted to be expanded again. So a
 * single-quoted part must hold no `$`, backquote, backslash or `"`; a double-quoted part no
 * backslash, `'` or `$` of its own (outside the expansions the grammar saw in it); a `$'…'` only plain
 * characters; any other token no quote and no `$` before a quote. Coarse on purpose: in a pattern
 * (`"${x#'$a'}"`) single quotes do quote, yet it asks.
 */
const plainInWord = (node: Node, source: string): boolean => {
  const text = source.slice(node.startIndex, node.endIndex)
  switch (node.type) {
    case "raw_string":
      return !RAW_SPECIAL.test(text.slice(1, -1))
    case "ansi_c_string":
      return PLAIN_ANSI.test(text)
    case "string":
    case "translated_string":
      return !/[\\'$]/.test(ownText(node, source))
    default:
      // A named token (`word`, `regex`, any other leaf): its characters are read as they stand.
      return node.childCount > 0 || !node.isNamed || !quotesInToken(text)
  }
}

const gapOk = (source: string, from: number, to: number, line: boolean) => from >= to || (line ? LINE_GAP : GAP).test(source.slice(from, to))

/**
 * Whether the tree of `source` reads its characters as bash would: every gap between tokens is
 * blank, no simple command spans a line break, words hold no unescaped separator, comments start
 * where bash starts them, and backquote substitutions hold no backslash.
 * @example BashParseLexical.agrees(tree.rootNode, "echo a\n\\touch x") // false
 */
export const agrees = (root: Node, source: string): boolean => {
  if (!gapOk(source, 0, root.startIndex, false) || !gapOk(source, root.endIndex, source.length, false)) return false
  const cursor = root.walk()
  try {
    return visit(cursor, source, false, "code")
  } finally {
    cursor.delete()
  }
}

const visit = (cursor: TreeCursor, source: string, line: boolean, place: Place): boolean => {
  const type = cursor.nodeType
  const start = cursor.startIndex
  const end = cursor.endIndex
  if (place === "word" && !plainInWord(cursor.currentNode, source)) return false
  if (type === "comment") return COMMENT_AFTER.has(source[start - 1]) && !source.slice(start, end).includes("\n")
  if (type === "word" && splits(source.slice(start, end))) return false
  // Bash ends a backquote at the next backquote, quotes or not (`` `echo '`;x`'` `` runs x).
  if (type === "command_substitution" && source[start] === "`" && /[\\`]/.test(source.slice(start + 1, end - 1))) return false
  if (type === "ansi_c_string" && ansiEnd(source, start) !== end) return false
  if (!cursor.gotoFirstChild()) return true
  // Text, not tokens (a string's content): no gaps to check, but substitutions inside are code.
  const free = TEXT.has(type)
  const inner = line || LINE_BOUND.has(type)
  const within = placeOf(type, place)
  let at = start
  do {
    // A heredoc's body lines belong to it: the line break before them is not a gap of the command.
    const child = cursor.nodeType
    const bound = inner && child !== "heredoc_redirect"
    if ((!free && !gapOk(source, at, cursor.startIndex, bound)) || !visit(cursor, source, bound && !free, within)) return cursor.gotoParent() && false
    at = cursor.endIndex
  } while (cursor.gotoNextSibling())
  cursor.gotoParent()
  return free || gapOk(source, at, end, inner)
}
