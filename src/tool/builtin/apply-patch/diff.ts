/**
 * The unified diff of one updated file straight from the patch's own marks (every line of the
 * result as context, removed or added; a run of unchanged lines farther than the context from any
 * change may be one `=` mark with its count, so a long file costs marks only around its changes), in `FileDiff.unified`'s format: `CONTEXT_LINES` of
 * context, hunks merged when at most twice that many lines separate them, removals printed before
 * additions within a change. No line diff runs, so a 200-file patch costs a pass per file. When
 * the patch's lines are minimal it equals `FileDiff.unified` of the two texts; both sides must
 * end with a line break (the caller falls back to `FileDiff.unified` otherwise).
 */
export * as ApplyPatchDiff from "./diff.js"

import { FILE_HEADERS_ONLY, formatPatch } from "diff"
import type { StructuredPatchHunk } from "diff"
import { FileDiff } from "../diff.js"

/** A line of the result, kept, removed or added; or `count` unchanged lines no hunk shows. */
export type Mark = { readonly mark: " " | "-" | "+"; readonly text: string } | { readonly mark: "="; readonly count: number }

/** The marks with removals before additions in every run of changed lines. */
const ordered = (marks: ReadonlyArray<Mark>): ReadonlyArray<Mark> => {
  const out: Mark[] = []
  const run = { removed: [] as Mark[], added: [] as Mark[] }
  const flush = () => {
    // Not `push(...run)`: a run of hundreds of thousands of lines would overflow the stack.
    for (const mark of [...run.removed, ...run.added]) out.push(mark)
    run.removed = []
    run.added = []
  }
  for (const mark of marks) {
    if (mark.mark === "-") run.removed.push(mark)
    if (mark.mark === "+") run.added.push(mark)
    if (mark.mark !== " " && mark.mark !== "=") continue
    flush()
    out.push(mark)
  }
  flush()
  return out
}

/** Runs of changed-line indices, split where more than twice the context lies between. */
const groups = (marks: ReadonlyArray<Mark>): ReadonlyArray<readonly [number, number]> =>
  marks.reduce<Array<[number, number]>>((all, mark, index) => {
    if (mark.mark === " " || mark.mark === "=") return all
    const last = all.at(-1)
    if (last !== undefined && index - last[1] - 1 <= 2 * FileDiff.CONTEXT_LINES) last[1] = index
    else all.push([index, index])
    return all
  }, [])

/** How many of the first n marks are on a side (all but `excluded`), for every n: `counts[n]`. */
const counts = (marks: ReadonlyArray<Mark>, excluded: Mark["mark"]): ReadonlyArray<number> => {
  const all = [0]
  for (const mark of marks) all.push((all.at(-1) as number) + (mark.mark === "=" ? mark.count : mark.mark === excluded ? 0 : 1))
  return all
}

/**
 * The unified diff of a file whose result is described by `marks`.
 * @example ApplyPatchDiff.unified("a.txt", [{ mark: " ", text: "x" }, { mark: "-", text: "y" }, { mark: "+", text: "z" }]) // "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n"
 */
export const unified = (path: string, marks: ReadonlyArray<Mark>): string => {
  const lines = ordered(marks)
  const [olds, news] = [counts(lines, "+"), counts(lines, "-")]
  const context = FileDiff.CONTEXT_LINES
  const hunks = groups(lines).map(([first, last]): StructuredPatchHunk => {
    const from = Math.max(0, first - context)
    const to = Math.min(lines.length, last + context + 1)
    return {
      oldStart: (olds[from] as number) + 1,
      oldLines: (olds[to] as number) - (olds[from] as number),
      newStart: (news[from] as number) + 1,
      newLines: (news[to] as number) - (news[from] as number),
      // Context never reaches an elided run: it is at least the context away from every change.
      lines: lines.slice(from, to).flatMap((line) => (line.mark === "=" ? [] : [line.mark + line.text])),
    }
  })
  return formatPatch({ oldFileName: path, newFileName: path, oldHeader: undefined, newHeader: undefined, hunks }, FILE_HEADERS_ONLY)
}
