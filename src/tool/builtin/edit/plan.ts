/**
 * The whole edit of one file, computed in memory before anything is asked or written: match on
 * the LF view, map the matches back to the stored text, and replace them with `newString`
 * spelled with the file's dominant line ending; the BOM stays exactly once. Untouched bytes
 * (including the endings of untouched lines in a mixed-ending file) are copied as they were:
 * `bytes` splices the file's own bytes rather than re-encoding the text, and `diff` looks only
 * at the lines around the matches, so one edit in a huge file costs little more than its I/O.
 */
export * as EditPlan from "./plan.js"

import { FileDiff } from "../diff.js"
import { EditMatch } from "./match.js"
import { TextStyle } from "./text-style.js"

export interface Request {
  readonly oldString: string
  readonly newString: string
  readonly replaceAll: boolean
}

export interface Edit {
  readonly _tag: "Edit"
  readonly tier: EditMatch.Tier
  readonly replacements: number
  readonly view: TextStyle.View
  /** The matches in the LF view, ascending and disjoint. */
  readonly found: ReadonlyArray<EditMatch.Range>
  /** The same matches in `view.text`. */
  readonly stored: ReadonlyArray<EditMatch.Range>
  /** `newString` with the file's dominant line ending. */
  readonly replacement: string
  /** `newString` with LF line endings, for the LF view. */
  readonly replacementLf: string
}

export type Outcome = Edit | { readonly _tag: "NoMatch"; readonly closest: EditMatch.Region | undefined } | { readonly _tag: "Ambiguous"; readonly count: number }

/**
 * Plans the edit of decoded file text (BOM included, if any).
 * @example EditPlan.content(EditPlan.make("a\r\nb\r\n", { oldString: "a\n", newString: "x\ny\n", replaceAll: false }) as EditPlan.Edit) // "x\r\ny\r\nb\r\n"
 */
export const make = (decoded: string, request: Request): Outcome => {
  const view = TextStyle.view(decoded)
  const old = request.oldString.replaceAll(TextStyle.CRLF, TextStyle.LF)
  const found = EditMatch.find(view.lf, old)
  if (found === undefined) return { _tag: "NoMatch", closest: EditMatch.closest(view.lf, old) }
  if (found.ranges.length > 1 && !request.replaceAll) return { _tag: "Ambiguous", count: found.ranges.length }
  return {
    _tag: "Edit",
    tier: found.tier,
    replacements: found.ranges.length,
    view,
    found: found.ranges,
    stored: found.ranges.map((range) => ({ start: TextStyle.toText(view, range.start), end: TextStyle.toText(view, range.end) })),
    replacement: TextStyle.withEol(request.newString, view.eol),
    replacementLf: TextStyle.withEol(request.newString, TextStyle.LF),
  }
}

/** The replacement at a range: a BOM-keeping file gets no second BOM from a newString at offset 0. */
const replacementAt = (edit: Edit, range: EditMatch.Range, replacement: string) =>
  edit.view.bom && range.start === 0 && replacement.startsWith(TextStyle.BOM) ? replacement.slice(TextStyle.BOM.length) : replacement

const splice = (edit: Edit, text: string, ranges: ReadonlyArray<EditMatch.Range>, replacement: string, shift = 0) =>
  ranges
    .flatMap((range, index) => [text.slice(index === 0 ? 0 : (ranges[index - 1] as EditMatch.Range).end - shift, range.start - shift), replacementAt(edit, range, replacement)])
    .concat(text.slice((ranges.at(-1) as EditMatch.Range).end - shift))
    .join("")

/** The new content as text, BOM included. */
export const content = (edit: Edit): string => (edit.view.bom ? TextStyle.BOM : "") + splice(edit, edit.view.text, edit.stored, edit.replacement)

/**
 * The new content as bytes, given the bytes the plan was made from (valid UTF-8, so decoding
 * and re-encoding is lossless): the untouched stretches are copied from `original`.
 */
export const bytes = (edit: Edit, original: Uint8Array): Buffer => {
  const text = edit.view.text
  const head = edit.view.bom ? Buffer.byteLength(TextStyle.BOM) : 0
  // All-ASCII text (as many bytes as characters) needs no counting to map offsets to bytes.
  const ascii = original.length - head === text.length
  const pieces: Uint8Array[] = [original.subarray(0, head)]
  const end = edit.stored.reduce(
    (at, range) => {
      const start = ascii ? head + range.start : at.byte + Buffer.byteLength(text.slice(at.char, range.start))
      pieces.push(original.subarray(at.byte, start), Buffer.from(replacementAt(edit, range, edit.replacement)))
      return { char: range.end, byte: ascii ? head + range.end : start + Buffer.byteLength(text.slice(range.start, range.end)) }
    },
    { char: 0, byte: head },
  )
  pieces.push(original.subarray(end.byte))
  return Buffer.concat(pieces)
}

/** The start of the line holding `offset`. */
const lineStart = (lf: string, offset: number): number => (offset === 0 ? 0 : lf.lastIndexOf("\n", offset - 1) + 1)

/** Where the excerpt for the diff starts: `back` lines before the line holding `offset`. */
const excerptStart = (lf: string, offset: number, back: number): number =>
  Array.from({ length: back }).reduce<number>((at) => (at === 0 ? 0 : lineStart(lf, at - 1)), lineStart(lf, offset))

/** Where the excerpt ends: after the line holding `end - 1` and `forward` more lines. */
const excerptEnd = (lf: string, end: number, forward: number): number =>
  Array.from({ length: forward + 1 }).reduce<number>((at) => {
    const newline = lf.indexOf("\n", at)
    return newline === -1 ? lf.length : newline + 1
  }, end - 1)

/**
 * The unified diff of the edit, on the LF view, numbered in the whole file; only the lines
 * around the matches are compared, with the same result as `FileDiff.unified` on the whole
 * text. The excerpt grows when the change floats past it (a change among repeated lines).
 */
export const diff = (edit: Edit, path: string): string => {
  const lf = edit.view.lf
  const from = excerptStart(lf, (edit.found[0] as EditMatch.Range).start, FileDiff.CONTEXT_LINES)
  const line = TextStyle.count(lf.slice(0, from), "\n") + 1
  const attempt = (forward: number): string => {
    const to = excerptEnd(lf, (edit.found.at(-1) as EditMatch.Range).end, forward)
    const before = lf.slice(from, to)
    const after = splice(edit, before, edit.found, edit.replacementLf, from)
    const clipped = to < lf.length && TextStyle.count(FileDiff.split(before, after).rest, "\n") < FileDiff.CONTEXT_LINES
    return clipped ? attempt(forward * 2) : FileDiff.excerpt(path, before, after, line)
  }
  return attempt(FileDiff.CONTEXT_LINES)
}
