/**
 * Where a chunk's old lines are in a file, found from a moving cursor in four passes; the first
 * pass with a match wins: exact, ignoring trailing whitespace, ignoring whitespace at both ends,
 * then also typography-normalised (curly quotes → straight, the dash family → `-`, Unicode
 * spaces → space, as `edit` normalises), then also in NFC (canonically equivalent lines). An end-of-file chunk is tried only where its lines end
 * the file. Pure: lines in, an index out.
 */
export * as ApplyPatchSeek from "./seek.js"

import { EditMatch } from "../edit/match.js"

export const PASSES = ["exact", "trailing", "trimmed", "normalized", "canonical"] as const
export type Pass = (typeof PASSES)[number]

const keys: Readonly<Record<Pass, (line: string) => string>> = {
  exact: (line) => line,
  trailing: (line) => line.trimEnd(),
  trimmed: (line) => line.trim(),
  normalized: (line) => EditMatch.normalize(line).trim(),
  // Canonical equivalence, never compatibility (NFKC): NFD text (macOS) matches NFC. Context lines keep the file's own bytes.
  canonical: (line) => EditMatch.normalize(line.normalize("NFC")).trim(),
}

/** The first index ≥ `from` where `pattern` matches `lines` under `key`, up to `last`. */
const scan = (lines: ReadonlyArray<string>, pattern: ReadonlyArray<string>, from: number, last: number, key: (line: string) => string): number | undefined => {
  const wanted = pattern.map(key)
  for (let at = from; at <= last; at++) {
    let offset = 0
    while (offset < wanted.length && key(lines[at + offset] as string) === wanted[offset]) offset++
    if (offset === wanted.length) return at
  }
  return undefined
}

/**
 * The index where `pattern` starts in `lines`, searching from `from`; with `eof`, only where it
 * ends the file. An empty pattern is found at `from`.
 * @example ApplyPatchSeek.find(["a", "b ", "c"], ["b", "c"], 0, false) // 1 (second pass)
 */
export const find = (lines: ReadonlyArray<string>, pattern: ReadonlyArray<string>, from: number, eof: boolean): number | undefined => {
  if (pattern.length === 0) return from
  if (pattern.length > lines.length) return undefined
  const last = lines.length - pattern.length
  const start = eof ? Math.max(from, last) : from
  for (const pass of PASSES) {
    const found = scan(lines, pattern, start, last, keys[pass])
    if (found !== undefined) return found
  }
  return undefined
}
