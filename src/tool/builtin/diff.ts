/**
 * Unified diffs of one file's text before and after a change, for permission previews and tool
 * output (`edit`, `write`). The format is `diff -u` with `CONTEXT_LINES` of context and only the
 * `---`/`+++` file headers, both naming the resource. Lines common to the start and the end are
 * trimmed before the line diff runs on the changed core, and the context is taken from them, so a
 * one-line change in a 50 MB file costs a scan, not a line diff of the whole file (and a change
 * among repeated lines shows where the texts first differ). A core too big or too different to
 * line-diff cheaply is paired line by line when both sides have as many lines, else shown as one
 * hunk replacing all of its lines.
 */
export * as FileDiff from "./diff.js"

import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff"
import type { StructuredPatch, StructuredPatchHunk } from "diff"

export const CONTEXT_LINES = 3
/** The most line insertions plus deletions the line diff may look for before giving up. */
export const MAX_EDIT_LENGTH = 2_000
/** How long the line diff may run before giving up, in milliseconds. */
export const DIFF_TIMEOUT_MS = 1_000
/** A core with more lines than this on either side is not line-diffed (see `aligned`). */
export const MAX_DIFF_LINES = 20_000
/** Common prefixes are compared this many characters at a time before the exact character. */
const CHUNK = 64 * 1024

const NO_NEWLINE = "\\ No newline at end of file"

/** The length of the common prefix of `a` and `b`. */
const commonPrefix = (a: string, b: string): number => {
  const max = Math.min(a.length, b.length)
  let at = 0
  while (at + CHUNK <= max && a.slice(at, at + CHUNK) === b.slice(at, at + CHUNK)) at += CHUNK
  while (at < max && a.charCodeAt(at) === b.charCodeAt(at)) at++
  return at
}

/** The length of the common suffix of `a` and `b`, at most `max`. */
const commonSuffix = (a: string, b: string, max: number): number => {
  let length = 0
  while (length + CHUNK <= max && a.slice(a.length - length - CHUNK, a.length - length) === b.slice(b.length - length - CHUNK, b.length - length)) length += CHUNK
  while (length < max && a.charCodeAt(a.length - length - 1) === b.charCodeAt(b.length - length - 1)) length++
  return length
}

/** The offset where the line `back` lines before the one starting at `offset` starts. */
const linesBack = (text: string, offset: number, back: number): number =>
  Array.from({ length: back }).reduce<number>((start) => (start <= 1 ? 0 : text.lastIndexOf("\n", start - 2) + 1), offset)

/** The offset just after the `forward`-th line break from the start of `text` (or its end). */
const linesForward = (text: string, forward: number): number =>
  Array.from({ length: forward }).reduce<number>((end) => {
    const newline = text.indexOf("\n", end)
    return newline === -1 ? text.length : newline + 1
  }, 0)

/** How many line breaks `text` has before `end`. */
const linesBefore = (text: string, end: number): number => {
  let total = 0
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) total++
  return total
}

const lineCount = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0))

/** The lines of `text` prefixed with `mark`, with the no-newline marker after an unterminated last line. */
const marked = (text: string, mark: string): ReadonlyArray<string> => {
  if (text === "") return []
  const ended = text.endsWith("\n")
  const body = (ended ? text.slice(0, -1) : text).split("\n").map((line) => mark + line)
  return ended ? body : [...body, NO_NEWLINE]
}

/** The first `count` lines of `text` (full lines, the last one possibly unterminated). */
const firstLines = (text: string, count: number): string => text.slice(0, linesForward(text, Math.max(0, count)))

/** The last `count` lines of `text`, which ends with a line break or is empty. */
const lastLines = (text: string, count: number): string => text.slice(linesBack(text, text.length, Math.max(0, count)))

/** How many lines at the start (or end) of a hunk are context. */
const leadingContext = (lines: ReadonlyArray<string>) => {
  const change = lines.findIndex((line) => !line.startsWith(" "))
  return change === -1 ? lines.length : change
}
const trailingContext = (lines: ReadonlyArray<string>) => leadingContext([...lines].reverse())

/**
 * One hunk that replaces every line, for a change too different to diff cheaply. Starts are
 * jsdiff's structured ones: the first line covered, even for an empty side (`formatPatch`
 * prints an empty side as the line before it).
 */
const replacing = (before: string, after: string): StructuredPatchHunk => ({
  oldStart: 1,
  oldLines: lineCount(before),
  newStart: 1,
  newLines: lineCount(after),
  lines: [...marked(before, "-"), ...marked(after, "+")],
})

/** The lines of `text` with their line breaks; an unterminated last line has none. */
const linesOf = (text: string): ReadonlyArray<string> => text.match(/[^\n]*\n|[^\n]+$/g) ?? []

/** A line of a hunk: `mark` + its text, plus the no-newline marker when it is unterminated. */
const hunkLine = (mark: string, line: string): ReadonlyArray<string> => (line.endsWith("\n") ? [mark + line.slice(0, -1)] : [mark + line, NO_NEWLINE])

/**
 * The hunks of two texts with the same number of lines, pairing line i with line i: O(n), and
 * exact for changes that keep every line in place (a `replaceAll` across a huge file). Changed
 * lines closer than twice the context share a hunk, as in a line diff.
 */
const aligned = (before: ReadonlyArray<string>, after: ReadonlyArray<string>): ReadonlyArray<StructuredPatchHunk> => {
  const changed = before.flatMap((line, index) => (line === after[index] ? [] : [index]))
  const groups = changed.reduce<number[][]>((all, index) => {
    const last = all.at(-1)
    if (last !== undefined && index - (last.at(-1) as number) <= 2 * CONTEXT_LINES + 1) last.push(index)
    else all.push([index])
    return all
  }, [])
  return groups.map((group) => {
    const from = Math.max(0, (group[0] as number) - CONTEXT_LINES)
    const to = Math.min(before.length, (group.at(-1) as number) + CONTEXT_LINES + 1)
    return { oldStart: from + 1, oldLines: to - from, newStart: from + 1, newLines: to - from, lines: pairedLines(before, after, from, to) }
  })
}

/** The hunk lines of lines [from, to) paired by index: each run of changed lines as `-` then `+`. */
const pairedLines = (before: ReadonlyArray<string>, after: ReadonlyArray<string>, from: number, to: number): string[] => {
  const lines: string[] = []
  for (let index = from; index < to; ) {
    const start = index
    while (index < to && before[index] !== after[index]) index++
    // One line at a time: spreading a run of 200 000 changed lines into push overflows the stack.
    for (const line of before.slice(start, index)) lines.push(...hunkLine("-", line))
    for (const line of after.slice(start, index)) lines.push(...hunkLine("+", line))
    if (index < to) lines.push(...hunkLine(" ", before[index] as string))
    index++
  }
  return lines
}

/** The hunks of the changed core: a line diff when it is small enough, else the cheap fallbacks. */
const coreHunks = (path: string, before: string, after: string): ReadonlyArray<StructuredPatchHunk> => {
  const small = lineCount(before) <= MAX_DIFF_LINES && lineCount(after) <= MAX_DIFF_LINES
  const options = { context: CONTEXT_LINES, maxEditLength: MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS }
  const diffed = small ? structuredPatch(path, path, before, after, undefined, undefined, options) : undefined
  if (diffed !== undefined) return diffed.hunks
  const [old, next] = [linesOf(before), linesOf(after)]
  return old.length === next.length ? aligned(old, next) : [replacing(before, after)]
}

/**
 * The hunks of the changed core, numbered in the whole file (`offset` lines precede the core),
 * with the first and last hunk given their context from the trimmed lines around the core.
 */
const placed = (hunks: ReadonlyArray<StructuredPatchHunk>, lead: string, trail: string, offset: number): ReadonlyArray<StructuredPatchHunk> =>
  hunks.map((hunk, index) => {
    const head = index === 0 ? lastLines(lead, CONTEXT_LINES - leadingContext(hunk.lines)) : ""
    const tail = index === hunks.length - 1 ? firstLines(trail, CONTEXT_LINES - trailingContext(hunk.lines)) : ""
    const extra = lineCount(head) + lineCount(tail)
    const oldLines = hunk.oldLines + extra
    const newLines = hunk.newLines + extra
    return {
      oldStart: hunk.oldStart + offset - lineCount(head),
      oldLines,
      newStart: hunk.newStart + offset - lineCount(head),
      newLines,
      lines: [...marked(head, " "), ...hunk.lines, ...marked(tail, " ")],
    }
  })

/**
 * Where two texts differ, in whole lines: `before.slice(first, before.length - rest.length)`
 * became `after.slice(first, after.length - rest.length)`; the text before `first` and `rest`
 * are common to both. The common start is taken first, so a change among repeated lines lies
 * where the texts first differ. An excerpt needs `CONTEXT_LINES` lines in `rest` (unless it
 * ends the file) for its diff to equal the whole file's.
 * @example FileDiff.split("a\nb\nc\n", "a\nB\nc\n") // { first: 2, rest: "c\n" }
 */
export const split = (before: string, after: string): { readonly first: number; readonly rest: string } => {
  const prefix = commonPrefix(before, after)
  const first = prefix === 0 ? 0 : before.lastIndexOf("\n", prefix - 1) + 1
  const common = before.slice(before.length - commonSuffix(before, after, Math.min(before.length, after.length) - prefix))
  const breakAt = common.indexOf("\n")
  return { first, rest: breakAt === -1 ? "" : common.slice(breakAt + 1) }
}

/**
 * The unified diff of `before` → `after`, both headers naming `path`; headers only when equal.
 * @example FileDiff.unified("a.txt", "x\ny\n", "x\nz\n") // "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n"
 */
export const unified = (path: string, before: string, after: string): string => excerpt(path, before, after, 1)

/**
 * `unified` for an excerpt of a file that starts at line `firstLine` (1-based) and ends at a line
 * end or at the end of the file: hunks are numbered in the whole file. With `CONTEXT_LINES`
 * unchanged lines around every change in the excerpt, this equals `unified` on the whole text.
 * @example FileDiff.excerpt("a.txt", "x\ny\n", "x\nz\n", 10) // "--- a.txt\n+++ a.txt\n@@ -10,2 +10,2 @@\n x\n-y\n+z\n"
 */
export const excerpt = (path: string, before: string, after: string, firstLine: number): string => {
  const { first, rest } = split(before, after)
  const start = linesBack(before, first, CONTEXT_LINES)
  const core = { before: before.slice(first, before.length - rest.length), after: after.slice(first, after.length - rest.length) }
  const hunks = coreHunks(path, core.before, core.after)
  const patch: StructuredPatch = {
    oldFileName: path,
    newFileName: path,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [...placed(hunks, before.slice(start, first), firstLines(rest, CONTEXT_LINES), firstLine - 1 + linesBefore(before, first))],
  }
  return formatPatch(patch, FILE_HEADERS_ONLY)
}
