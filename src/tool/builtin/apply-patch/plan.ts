/**
 * Every new content of a patch, computed in memory from what was read, before anything is asked
 * or written. Hunks apply in order over a virtual file system, so a later hunk sees an earlier
 * one's result. An update works on lines split at CRLF, LF and a lone CR: context lines keep their
 * own text and ending (a fuzzy match never rewrites them), added lines take the file's dominant
 * ending, the file always ends with a line break, and a BOM stays. Pure: no I/O here.
 * Symbolic links (read as links where a step was resolved as the entry itself): a delete removes
 * the link and a move moves it (the destination becomes a link with the same target text), as rm
 * and mv do; the target is never read or changed. A move of a link cannot also change content.
 * Gotcha: unlike `edit`'s TextStyle, a lone CR is a line break here (Codex's mixed-ending rule).
 */
export * as ApplyPatchPlan from "./plan.js"

import { isUtf8 } from "node:buffer"
import type { LocationMutation } from "../../../location/mutation.js"
import type { ReplacedFile } from "../../../location/replaced-file.js"
import { FileDiff } from "../diff.js"
import { TextStyle } from "../edit/text-style.js"
import type { ApplyPatchParse } from "./parse.js"
import { ApplyPatchDiff } from "./diff.js"
import { ApplyPatchSeek } from "./seek.js"

/** Why a path could not be used, as the model reads it after `<message>: `. */
export const REASONS = {
  missing: "No such file or directory",
  directory: "Is a directory",
  other: "Not a regular file",
  notText: "Not UTF-8 text",
  link: "Is a symbolic link",
} as const

export const Messages = {
  context: (context: string, path: string) => `Failed to find context '${context}' in ${path}`,
  expected: (path: string, lines: ReadonlyArray<string>) => `Failed to find expected lines in ${path}:\n${lines.join("\n")}`,
  read: (path: string, reason: string) => `Failed to read file to update ${path}: ${reason}`,
  delete: (path: string, reason: string) => `Failed to delete ${path}: ${reason}`,
  write: (path: string, reason: string) => `Failed to write ${path}: ${reason}`,
  linkContent: (path: string) =>
    `Failed to move ${path}: it is a symbolic link, and a move moves the link itself, so its hunk cannot add or remove lines. Move it with context lines only, and change its target's content in an Update File hunk of its own.`,
} as const

/** A resolved path: where it really is and how permissions and messages name it. */
export interface Place {
  readonly real: string
  readonly resource: string
}

/** What was found at a real path before planning; a link's `bytes` are its target text. */
export type Disk =
  | { readonly type: "file"; readonly bytes: Buffer; readonly mode: number; readonly links?: number; readonly owner?: ReplacedFile.Owner | undefined }
  | { readonly type: "link"; readonly bytes: Buffer }
  | { readonly type: "missing" }
  | { readonly type: "unusable"; readonly reason: string }

export type Step =
  | { readonly type: "add"; readonly target: Place; readonly contents: string }
  | { readonly type: "delete"; readonly target: Place }
  | { readonly type: "update"; readonly target: Place; readonly move: Place | undefined; readonly chunks: ReadonlyArray<ApplyPatchParse.Chunk> }

export type Status = "A" | "M" | "D"

export interface File {
  readonly status: Status
  readonly path: string
}

/** What a path held or will hold: a file's bytes, mode and owner, or with `link` a link's target text. */
export interface Content {
  readonly bytes: Buffer
  readonly mode: number
  readonly owner?: ReplacedFile.Owner | undefined
  readonly link?: true | undefined
}

/** One real path's change: `next` undefined deletes it; `original` undefined means it is new. */
export interface Change {
  readonly place: Place
  readonly original: Content | undefined
  /** The new bytes: a file's content, or with `link` the target text of a link. */
  readonly next: Buffer | undefined
  /** The mode for `next`: the original's, or a moved file's own. */
  readonly mode: number | undefined
  /** The owner for `next`, likewise: a file keeps its owner when toolgate rewrites it (replaced-file.ts). */
  readonly owner?: ReplacedFile.Owner | undefined
  /** `next` is a symbolic link (a moved link), not a file. */
  readonly link?: true | undefined
}

export interface Plan {
  readonly changes: ReadonlyArray<Change>
  /** A, then M, then D lines, each in patch order. */
  readonly files: ReadonlyArray<File>
  /** The unified diffs of every file, concatenated. */
  readonly diff: string
  /** The places whose old content the diff shows. */
  readonly shown: ReadonlyArray<Place>
}

export interface PlanError {
  readonly _tag: "PlanError"
  readonly message: string
}

const failure = (message: string): PlanError => ({ _tag: "PlanError", message })

export const isError = (value: unknown): value is PlanError => typeof value === "object" && value !== null && (value as PlanError)._tag === "PlanError"

interface Line {
  readonly text: string
  /** The line's own ending; "" for a last line without one, or a line added by the patch. */
  readonly eol: string
}

const BREAK = /\r\n|\r|\n/g

/** The lines of `text`, each with its own ending; a final break does not add an empty line. */
export const lines = (text: string): ReadonlyArray<Line> => {
  const found: Line[] = []
  // Without a CR every break is an LF: indexOf is much cheaper than a regular expression.
  if (!text.includes("\r")) {
    for (let start = 0; start < text.length; ) {
      const end = text.indexOf("\n", start)
      found.push(end === -1 ? { text: text.slice(start), eol: "" } : { text: text.slice(start, end), eol: "\n" })
      start = end === -1 ? text.length : end + 1
    }
    return found
  }
  const state = { start: 0 }
  for (const match of text.matchAll(BREAK)) {
    found.push({ text: text.slice(state.start, match.index), eol: match[0] })
    state.start = match.index + match[0].length
  }
  return state.start < text.length ? [...found, { text: text.slice(state.start), eol: "" }] : found
}

interface Replacement {
  readonly start: number
  readonly length: number
  readonly ops: ReadonlyArray<ApplyPatchParse.Op>
}

const oldOf = (ops: ReadonlyArray<ApplyPatchParse.Op>) => ops.filter((op) => op.kind !== "+").map((op) => op.text)

/**
 * The ops without a trailing empty old line (the patch's view of the file's final line break),
 * and without a trailing empty added line when that old line was removed, as Codex retries.
 */
const withoutTrailingEmpty = (ops: ReadonlyArray<ApplyPatchParse.Op>): ReadonlyArray<ApplyPatchParse.Op> => {
  const index = ops.findLastIndex((op) => op.kind !== "+")
  const rest = ops.filter((_, at) => at !== index)
  if (ops[index]?.kind === " ") return rest
  const added = rest.findLastIndex((op) => op.kind !== "-")
  return rest[added]?.kind === "+" && rest[added]?.text === "" ? rest.filter((_, at) => at !== added) : rest
}

/** Where every chunk applies, from a cursor that only moves forward; sorted by start. */
const locate = (texts: ReadonlyArray<string>, chunks: ReadonlyArray<ApplyPatchParse.Chunk>, path: string): ReadonlyArray<Replacement> | PlanError => {
  const found: Replacement[] = []
  const state = { cursor: 0 }
  for (const chunk of chunks) {
    if (chunk.context !== undefined) {
      const at = ApplyPatchSeek.find(texts, [chunk.context], state.cursor, false)
      if (at === undefined) return failure(Messages.context(chunk.context, path))
      state.cursor = at + 1
    }
    const old = oldOf(chunk.ops)
    if (old.length === 0) {
      // Pure additions go after the context line, or without one at the end (before a final blank line).
      const end = texts.at(-1) === "" ? texts.length - 1 : texts.length
      found.push({ start: chunk.context === undefined ? end : state.cursor, length: 0, ops: chunk.ops })
      continue
    }
    const exact = ApplyPatchSeek.find(texts, old, state.cursor, chunk.eof)
    const ops = exact === undefined && old.at(-1) === "" ? withoutTrailingEmpty(chunk.ops) : chunk.ops
    const at = exact ?? (ops === chunk.ops ? undefined : ApplyPatchSeek.find(texts, oldOf(ops), state.cursor, chunk.eof))
    if (at === undefined) return failure(Messages.expected(path, old))
    found.push({ start: at, length: oldOf(ops).length, ops })
    state.cursor = at + oldOf(ops).length
  }
  return found.toSorted((a, b) => a.start - b.start)
}

interface Updated {
  readonly text: string
  /** The result marked for the diff (long unchanged runs elided); undefined when `ApplyPatchDiff` cannot show it. */
  readonly marks: ReadonlyArray<ApplyPatchDiff.Mark> | undefined
}

/** `update`, with the marks of the result when the original ends with a break and has no lone CR. */
const updated = (decoded: string, chunks: ReadonlyArray<ApplyPatchParse.Chunk>, path: string): Updated | PlanError => {
  const view = TextStyle.view(decoded)
  const source = lines(view.text)
  const replacements = locate(
    source.map((line) => line.text),
    chunks,
    path,
  )
  if (isError(replacements)) return replacements
  const parts: string[] = []
  const marks: ApplyPatchDiff.Mark[] = []
  const context = FileDiff.CONTEXT_LINES
  /** Unchanged lines [from, to): all in the text, but only those a diff can show as marks. */
  const starts = new Float64Array(source.length + 1)
  for (let at = 0; at < source.length; at++) starts[at + 1] = (starts[at] as number) + (source[at] as Line).text.length + (source[at] as Line).eol.length
  const keep = (from: number, to: number) => {
    if (to > from) parts.push(view.text.slice(starts[from], starts[to]))
    // Only the last line can lack an ending; the file always ends with one.
    if (to > from && to === source.length && (source[to - 1] as Line).eol === "") parts.push(view.eol)
    const head = from === 0 ? 0 : Math.min(context, to - from)
    const tail = to === source.length ? 0 : Math.min(context, to - from - head)
    const mark = (at: number) => marks.push({ mark: " ", text: (source[at] as Line).text })
    for (let at = from; at < from + head; at++) mark(at)
    if (to - tail > from + head) marks.push({ mark: "=", count: to - tail - from - head })
    for (let at = to - tail; at < to; at++) mark(at)
  }
  const state = { position: 0 }
  for (const replacement of replacements) {
    keep(state.position, replacement.start)
    const cursor = { at: replacement.start }
    for (const op of replacement.ops) {
      const line = op.kind === "+" ? { text: op.text, eol: "" } : (source[cursor.at++] as Line)
      if (op.kind !== "-") parts.push(line.text, line.eol === "" ? view.eol : line.eol)
      marks.push({ mark: op.kind, text: line.text })
    }
    state.position = replacement.start + replacement.length
  }
  keep(state.position, source.length)
  const text = (view.bom ? TextStyle.BOM : "") + parts.join("")
  return { text, marks: view.text.endsWith("\n") && !view.lf.includes("\r") ? marks : undefined }
}

/**
 * The text after applying `chunks` to `decoded` (a whole file, BOM included).
 * @example ApplyPatchPlan.update("a\r\nb\r\n", [{ context: undefined, ops: [{ kind: "-", text: "b" }, { kind: "+", text: "c" }], eof: false }], "f") // "a\r\nc\r\n"
 */
export const update = (decoded: string, chunks: ReadonlyArray<ApplyPatchParse.Chunk>, path: string): string | PlanError => {
  const result = updated(decoded, chunks, path)
  return isError(result) ? result : result.text
}

interface Entry {
  readonly status: Status
  readonly place: Place
  /** For a move: the source, whose old content the diff shows. */
  readonly from: Place | undefined
}

/** The LF view of a file's bytes, for diffs; a link shows no lines (its target is not quoted). */
const lfOf = (bytes: Buffer | undefined, link = false) => (bytes === undefined || link ? "" : TextStyle.view(bytes.toString("utf8")).lf)

/** The virtual file system the steps apply to, over what was read. */
const overlay = (disk: ReadonlyMap<string, Disk>) => {
  const current = new Map<string, Buffer | undefined>()
  /** The real paths whose current bytes are a link's target text. */
  const links = new Set<string>()
  const places = new Map<string, Place>()
  const modes = new Map<string, number>()
  const owners = new Map<string, ReplacedFile.Owner>()
  const marks = new Map<string, ReadonlyArray<ApplyPatchDiff.Mark>>()
  const lookup = (place: Place): Disk => {
    if (!current.has(place.real)) return disk.get(place.real) ?? { type: "missing" }
    const bytes = current.get(place.real)
    if (bytes === undefined) return { type: "missing" }
    return links.has(place.real) ? { type: "link", bytes } : { type: "file", bytes, mode: modes.get(place.real) ?? 0 }
  }
  const set = (place: Place, bytes: Buffer | undefined, link = false) => {
    if (!places.has(place.real)) places.set(place.real, place)
    current.set(place.real, bytes)
    if (link) links.add(place.real)
    if (!link) links.delete(place.real)
    marks.delete(place.real)
  }
  const original = (real: string): Content | undefined => {
    const found = disk.get(real)
    if (found?.type === "link") return { bytes: found.bytes, mode: 0, link: true }
    return found?.type === "file" ? { bytes: found.bytes, mode: found.mode, owner: found.owner } : undefined
  }
  const modeOf = (real: string) => modes.get(real) ?? (original(real)?.link === true ? undefined : original(real)?.mode)
  const ownerOf = (real: string) => owners.get(real) ?? original(real)?.owner
  return { current, links, places, modes, owners, marks, lookup, set, original, modeOf, ownerOf }
}

type Overlay = ReturnType<typeof overlay>

/**
 * An update of a link: only a move, which moves the link itself (same target text); its chunks
 * may not add or remove lines, and are not checked against the target, which is never read.
 */
const moveLink = (state: Overlay, step: Extract<Step, { type: "update" }>, found: Extract<Disk, { type: "link" }>): Entry | PlanError => {
  const move = step.move !== undefined && step.move.real !== step.target.real ? step.move : undefined
  if (move === undefined) return failure(Messages.read(step.target.resource, REASONS.link))
  if (step.chunks.some((chunk) => chunk.ops.some((op) => op.kind !== " "))) return failure(Messages.linkContent(step.target.resource))
  const destination = state.lookup(move)
  if (destination.type === "unusable") return failure(Messages.write(move.resource, destination.reason))
  state.set(move, found.bytes, true)
  state.set(step.target, undefined)
  return { status: "M", place: move, from: step.target }
}

/** Applies one step to the overlay; the entry it reports, or why it cannot apply. */
const apply = (state: Overlay, step: Step): Entry | PlanError => {
  const found = state.lookup(step.target)
  const resource = step.target.resource
  if (step.type === "add") {
    if (found.type === "unusable") return failure(Messages.write(resource, found.reason))
    state.set(step.target, Buffer.from(step.contents))
    return { status: "A", place: step.target, from: undefined }
  }
  if (step.type === "delete") {
    if (found.type === "missing" || found.type === "unusable") return failure(Messages.delete(resource, found.type === "missing" ? REASONS.missing : found.reason))
    state.set(step.target, undefined)
    return { status: "D", place: step.target, from: undefined }
  }
  if (found.type === "link") return moveLink(state, step, found)
  if (found.type !== "file") return failure(Messages.read(resource, found.type === "missing" ? REASONS.missing : found.reason))
  if (!isUtf8(found.bytes)) return failure(Messages.read(resource, REASONS.notText))
  const result = updated(found.bytes.toString("utf8"), step.chunks, resource)
  if (isError(result)) return result
  const next = result.text
  const move = step.move !== undefined && step.move.real !== step.target.real ? step.move : undefined
  if (move === undefined) {
    // The marks describe the change from the original only when nothing changed the file before.
    const fresh = !state.current.has(step.target.real)
    state.set(step.target, Buffer.from(next))
    if (fresh && result.marks !== undefined) state.marks.set(step.target.real, result.marks)
    return { status: "M", place: step.target, from: undefined }
  }
  const destination = state.lookup(move)
  if (destination.type === "unusable") return failure(Messages.write(move.resource, destination.reason))
  const mode = state.modeOf(step.target.real)
  if (mode !== undefined) state.modes.set(move.real, mode)
  const owner = state.ownerOf(step.target.real)
  if (owner !== undefined) state.owners.set(move.real, owner)
  state.set(move, Buffer.from(next))
  state.set(step.target, undefined)
  return { status: "M", place: move, from: step.target }
}

/** The diff of one entry: from the original content to the final one. */
const diffOf = (state: Overlay, entry: Entry): string => {
  const marks = entry.status === "M" && entry.from === undefined ? state.marks.get(entry.place.real) : undefined
  if (marks !== undefined) return ApplyPatchDiff.unified(entry.place.resource, marks)
  const original = state.original((entry.from ?? entry.place).real)
  const before = lfOf(original?.bytes, original?.link)
  const after = entry.status === "D" ? "" : lfOf(state.current.get(entry.place.real), state.links.has(entry.place.real))
  const diff = FileDiff.unified(entry.place.resource, before, after)
  if (entry.from === undefined) return diff
  const moved = diff.replace(`--- ${entry.place.resource}\n`, `--- ${entry.from.resource}\n`)
  // A move onto a file replaces it: what it held goes, so the diff shows that too (the move alone
  // read as a rename, and a person approved the loss of the destination's content unseen).
  const replaced = state.original(entry.place.real)
  return replaced === undefined || replaced.link === true ? moved : moved + FileDiff.unified(entry.place.resource, lfOf(replaced.bytes), after)
}

/**
 * The plan of `steps` over what was read at each real path (`disk`), or the first reason one
 * cannot apply.
 */
export const make = (steps: ReadonlyArray<Step>, disk: ReadonlyMap<string, Disk>): Plan | PlanError => {
  const state = overlay(disk)
  const entries: Entry[] = []
  for (const step of steps) {
    const entry = apply(state, step)
    if (isError(entry)) return entry
    if (!entries.some((seen) => seen.status === entry.status && seen.place.real === entry.place.real)) entries.push(entry)
  }
  const changes = [...state.current].flatMap(([real, next]): ReadonlyArray<Change> => {
    const original = state.original(real)
    const link = state.links.has(real)
    if (original === undefined ? next === undefined : next !== undefined && original.bytes.equals(next) && (original.link === true) === link) return []
    const place = state.places.get(real) as Place
    return [link ? { place, original, next, mode: undefined, link: true } : { place, original, next, mode: state.modeOf(real), owner: state.ownerOf(real) }]
  })
  const ordered = (["A", "M", "D"] as const).flatMap((status) => entries.filter((entry) => entry.status === status))
  return {
    changes,
    files: ordered.map((entry) => ({ status: entry.status, path: entry.place.resource })),
    // One diff per path, from its original to its final content.
    diff: ordered
      .filter((entry, index) => ordered.findIndex((seen) => seen.place.real === entry.place.real) === index)
      .map((entry) => diffOf(state, entry))
      .join(""),
    shown: entries.flatMap((entry) => (entry.from === undefined ? [entry.place] : [entry.from, entry.place])).filter((place) => state.original(place.real) !== undefined && state.original(place.real)?.link !== true),
  }
}

/**
 * How a hunk's own path is resolved: a delete, and the source of a move, act on the entry itself
 * (a link there is not followed, as with rm and mv); an add or an update in place goes through a
 * link to its target, as write and edit do. A move's destination is always `entry`.
 * @example ApplyPatchPlan.kindOf({ type: "delete", path: "link.txt" }) // "entry"
 */
export const kindOf = (hunk: ApplyPatchParse.Hunk): LocationMutation.Kind => (hunk.type === "delete" || (hunk.type === "update" && hunk.move !== undefined) ? "entry" : "file")

/**
 * Whether `now`, read again right before the commit, is what the plan read for `change`: the
 * same bytes (for a link, the same target text), or still nothing there.
 * @example ApplyPatchPlan.holds(change, { type: "missing" }) // true for a change that creates a file
 */
export const holds = (change: Change, now: Disk | undefined): boolean => {
  const original = change.original
  // A folder in the way is not overwritten by a rename: the commit fails and rolls back.
  if (original === undefined) return now?.type === "missing" || (now?.type === "unusable" && now.reason === REASONS.directory)
  if (now?.type !== "file" && now?.type !== "link") return false
  return (now.type === "link") === (original.link === true) && now.bytes.equals(original.bytes)
}
