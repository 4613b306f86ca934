/**
 * Every new content of a patch, computed in memory from what was read, before anything is asked
 * or written. Hunks apply in order over a virtual file system, so a later hunk sees an earlier
 * one's result. An update works on lines split at CRLF, LF and a lone CR: context lines keep their
 * own text and ending (a fuzzy match never rewrites them), added lines take the file's dominant
 * ending, the file always ends with a line break, and a BOM stays. Pure: no I/O here.
 * Gotcha: unlike `edit`'s TextStyle, a lone CR is a line break here (Codex's mixed-ending rule).
 */
export * as ApplyPatchPlan from "./plan.js"

import { isUtf8 } from "node:buffer"
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
} as const

export const Messages = {
  context: (context: string, path: string) => `Failed to find context '${context}' in ${path}`,
  expected: (path: string, lines: ReadonlyArray<string>) => `Failed to find expected lines in ${path}:\n${lines.join("\n")}`,
  read: (path: string, reason: string) => `Failed to read file to update ${path}: ${reason}`,
  delete: (path: string, reason: string) => `Failed to delete ${path}: ${reason}`,
  write: (path: string, reason: string) => `Failed to write ${path}: ${reason}`,
} as const

/** A resolved path: where it really is and how permissions and messages name it. */
export interface Place {
  readonly real: string
  readonly resource: string
}

/** What was found at a real path before planning. */
export type Disk =
  | { readonly type: "file"; readonly bytes: Buffer; readonly mode: number }
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

/** One real path's change: `next` undefined deletes it; `original` undefined means it is new. */
export interface Change {
  readonly place: Place
  readonly original: { readonly bytes: Buffer; readonly mode: number } | undefined
  readonly next: Buffer | undefined
  /** The mode for `next`: the original's, or a moved file's own. */
  readonly mode: number | undefined
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

/** The LF view of a file's bytes, for diffs. */
const lfOf = (bytes: Buffer | undefined) => (bytes === undefined ? "" : TextStyle.view(bytes.toString("utf8")).lf)

/** The virtual file system the steps apply to, over what was read. */
const overlay = (disk: ReadonlyMap<string, Disk>) => {
  const current = new Map<string, Buffer | undefined>()
  const places = new Map<string, Place>()
  const modes = new Map<string, number>()
  const marks = new Map<string, ReadonlyArray<ApplyPatchDiff.Mark>>()
  const lookup = (place: Place): Disk => {
    if (!current.has(place.real)) return disk.get(place.real) ?? { type: "missing" }
    const bytes = current.get(place.real)
    return bytes === undefined ? { type: "missing" } : { type: "file", bytes, mode: modes.get(place.real) ?? 0 }
  }
  const set = (place: Place, bytes: Buffer | undefined) => {
    if (!places.has(place.real)) places.set(place.real, place)
    current.set(place.real, bytes)
    marks.delete(place.real)
  }
  const original = (real: string) => {
    const found = disk.get(real)
    return found?.type === "file" ? { bytes: found.bytes, mode: found.mode } : undefined
  }
  const modeOf = (real: string) => modes.get(real) ?? original(real)?.mode
  return { current, places, modes, marks, lookup, set, original, modeOf }
}

type Overlay = ReturnType<typeof overlay>

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
    if (found.type !== "file") return failure(Messages.delete(resource, found.type === "missing" ? REASONS.missing : found.reason))
    state.set(step.target, undefined)
    return { status: "D", place: step.target, from: undefined }
  }
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
  state.set(move, Buffer.from(next))
  state.set(step.target, undefined)
  return { status: "M", place: move, from: step.target }
}

/** The diff of one entry: from the original content to the final one. */
const diffOf = (state: Overlay, entry: Entry): string => {
  const marks = entry.status === "M" && entry.from === undefined ? state.marks.get(entry.place.real) : undefined
  if (marks !== undefined) return ApplyPatchDiff.unified(entry.place.resource, marks)
  const before = lfOf(state.original((entry.from ?? entry.place).real)?.bytes)
  const after = entry.status === "D" ? "" : lfOf(state.current.get(entry.place.real))
  const diff = FileDiff.unified(entry.place.resource, before, after)
  return entry.from === undefined ? diff : diff.replace(`--- ${entry.place.resource}\n`, `--- ${entry.from.resource}\n`)
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
    if (original === undefined ? next === undefined : next !== undefined && original.bytes.equals(next)) return []
    return [{ place: state.places.get(real) as Place, original, next, mode: state.modeOf(real) }]
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
    shown: entries.map((entry) => entry.from ?? entry.place).filter((place) => state.original(place.real) !== undefined),
  }
}
