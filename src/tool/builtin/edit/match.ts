/**
 * Where `oldString` occurs in a file's LF view, in four tiers; the first tier with any match
 * wins: (1) exact substring; (2) typography-normalised, one character for one character, so
 * offsets are unchanged; (3) canonically equivalent (NFC on both sides, never NFKC: a file
 * written in NFD, as macOS does, matches NFC text), mapped back to the file's own offsets at
 * character boundaries; (4) whole lines equal after normalisation, ignoring trailing whitespace.
 * Matches never overlap: each search resumes after the previous match, and never split a
 * character (an oldString with a lone surrogate matches nothing). Everything here is pure
 * and works on LF text; `TextStyle` maps the ranges back to the stored file.
 */
export * as EditMatch from "./match.js"

export const TIERS = ["exact", "normalized", "canonical", "lines"] as const
export type Tier = (typeof TIERS)[number]

/** A trimmed line must be at least this long to count as shared with oldString (for `closest`). */
export const MIN_SHARED_LINE_LENGTH = 3

/** A half-open range of LF-view offsets. */
export interface Range {
  readonly start: number
  readonly end: number
}

export interface Found {
  readonly tier: Tier
  /** Ascending and non-overlapping. */
  readonly ranges: ReadonlyArray<Range>
}

/** The region of the file most like oldString: 1-based line numbers and the lines themselves. */
export interface Region {
  readonly first: number
  readonly lines: ReadonlyArray<string>
}

/** Curly quotes, the dash family, and every Unicode space separator (Zs) except the space itself. */
const TYPOGRAPHY = /[\u2018-\u201F\u2010-\u2015\u2212\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g

const plain = (char: string): string => {
  if (char >= "\u2018" && char <= "\u201B") return "'"
  if (char >= "\u201C" && char <= "\u201F") return '"'
  if ((char >= "\u2010" && char <= "\u2015") || char === "\u2212") return "-"
  return " "
}

/**
 * Curly quotes → straight, the dash family (‐‑‒–—―−) → `-`, every Unicode space separator →
 * space. Each replaced character is one UTF-16 unit for one, so offsets are preserved.
 * @example EditMatch.normalize("“a” – b") // "\"a\" - b"
 */
export const normalize = (text: string): string => text.replace(TYPOGRAPHY, plain)

/** Every non-overlapping occurrence of `needle` in `haystack`, left to right. */
const occurrences = (haystack: string, needle: string): ReadonlyArray<Range> => {
  const ranges: Range[] = []
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    ranges.push({ start: at, end: at + needle.length })
  }
  return ranges
}

/** The lines of LF text with the offset each starts at; a final LF does not add an empty line. */
export const lines = (text: string): ReadonlyArray<Range> => {
  const ranges: Range[] = []
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf("\n", start)
    const end = newline === -1 ? text.length : newline
    ranges.push({ start, end })
    start = end + 1
  }
  return ranges
}

/** oldString as lines for tier 3: a final LF means the match ends with the line's break. */
const oldLines = (old: string) => {
  const parts = old.split("\n")
  const withBreak = parts.length > 1 && parts.at(-1) === ""
  return { keys: (withBreak ? parts.slice(0, -1) : parts).map((line) => line.trimEnd()), withBreak }
}

/** Tier 3 on normalised text: whole lines equal to oldString's, ignoring trailing whitespace. */
const lineWise = (text: string, old: string): ReadonlyArray<Range> => {
  const { keys, withBreak } = oldLines(old)
  // Every non-empty line of oldString must occur somewhere for any window to match.
  if (keys.every((key) => key === "") || keys.some((key) => !text.includes(key))) return []
  const spans = lines(text)
  const keyAt = (index: number) => text.slice((spans[index] as Range).start, (spans[index] as Range).end).trimEnd()
  const ranges: Range[] = []
  for (let at = 0; at + keys.length <= spans.length; at++) {
    if (!keys.every((key, offset) => keyAt(at + offset) === key)) continue
    const last = spans[at + keys.length - 1] as Range
    ranges.push({ start: (spans[at] as Range).start, end: withBreak ? Math.min(last.end + 1, text.length) : last.end })
    at += keys.length - 1
  }
  return ranges
}

/** A base character with the marks that follow it (and Hangul vowel and final jamo): NFC composes only inside one. */
const CLUSTER = /[^\p{M}\u1160-\u11FF][\p{M}\u1160-\u11FF]*|[\p{M}\u1160-\u11FF]+/gsu

/**
 * Tier 3: `old` in `text` when both are in NFC, as ranges of `text`. The text is composed one
 * cluster at a time, so each composed offset maps back to where its cluster starts; a match that
 * would begin or end inside a cluster (half a character) is not one.
 */
const canonical = (text: string, old: string): ReadonlyArray<Range> => {
  const needle = normalize(old.normalize("NFC"))
  if (needle === "" || text.normalize("NFC") === text) return []
  const starts = new Map<number, number>()
  const parts: string[] = []
  const state = { composed: 0 }
  for (const match of text.matchAll(CLUSTER)) {
    const part = normalize(match[0].normalize("NFC"))
    starts.set(state.composed, match.index)
    parts.push(part)
    state.composed += part.length
  }
  starts.set(state.composed, text.length)
  return occurrences(parts.join(""), needle).flatMap((range) => {
    const start = starts.get(range.start)
    const end = starts.get(range.end)
    return start === undefined || end === undefined ? [] : [{ start, end }]
  })
}

/**
 * The first tier that finds `old` (LF text) in `lf`, with every non-overlapping match.
 * @example EditMatch.find("a b a", "a") // { tier: "exact", ranges: [{ start: 0, end: 1 }, { start: 4, end: 5 }] }
 */
export const find = (lf: string, old: string): Found | undefined => {
  // A lone surrogate could only match half of a character; nothing in a decoded file is one.
  if (old === "" || !old.isWellFormed()) return undefined
  const exact = occurrences(lf, old)
  if (exact.length > 0) return { tier: "exact", ranges: exact }
  const [text, needle] = [normalize(lf), normalize(old)]
  const normalized = occurrences(text, needle)
  if (normalized.length > 0) return { tier: "normalized", ranges: normalized }
  const composed = canonical(lf, old)
  if (composed.length > 0) return { tier: "canonical", ranges: composed }
  const lineRanges = lineWise(text, needle)
  if (lineRanges.length > 0) return { tier: "lines", ranges: lineRanges }
  return undefined
}

/** A normalised line's key for `closest`, when it is long enough to count. */
const sharedKey = (line: string): string | undefined => {
  const key = line.trim()
  return key.length >= MIN_SHARED_LINE_LENGTH ? key : undefined
}

/**
 * For a failed match: the window of the file, as many lines long as `old`, that has the most
 * non-trivial lines (trimmed length ≥ `MIN_SHARED_LINE_LENGTH`) equal, after trimming both ends
 * and normalising, to the line at the same position in `old`. Ties go to the earliest window;
 * undefined when no such line is shared.
 */
export const closest = (lf: string, old: string): Region | undefined => {
  const wanted = normalize(old.endsWith("\n") ? old.slice(0, -1) : old).split("\n")
  const positions = new Map<string, number[]>()
  wanted.forEach((line, index) => {
    const key = sharedKey(line)
    if (key !== undefined) positions.set(key, [...(positions.get(key) ?? []), index])
  })
  if (positions.size === 0) return undefined
  const text = normalize(lf)
  const spans = lines(text)
  const votes = new Map<number, number>()
  spans.forEach((span, index) => {
    const key = sharedKey(text.slice(span.start, span.end))
    for (const offset of key === undefined ? [] : (positions.get(key) ?? [])) votes.set(index - offset, (votes.get(index - offset) ?? 0) + 1)
  })
  const best = [...votes].reduce<[number, number] | undefined>(
    (top, entry) => (top === undefined || entry[1] > top[1] || (entry[1] === top[1] && entry[0] < top[0]) ? entry : top),
    undefined,
  )
  if (best === undefined) return undefined
  const first = Math.max(0, best[0])
  const last = Math.min(spans.length, best[0] + wanted.length)
  return { first: first + 1, lines: spans.slice(first, last).map((span) => lf.slice(span.start, span.end)) }
}
