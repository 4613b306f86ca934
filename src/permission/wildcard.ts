/**
 * Permission patterns. `*` matches any run of characters (slashes and newlines included), `?`
 * exactly one UTF-16 code unit, everything else is literal; there is no escape syntax. Matching
 * is anchored at both ends, and a pattern ending in " *" also matches without that tail
 * (`git *` matches `git`). Backslashes count as `/` on both sides.
 * Gotcha: no regular expressions. A pattern compiles to its star-separated segments, which are
 * placed leftmost-first; that is exact for star patterns and never backtracks, so a hostile
 * pattern costs at most input × segment length, never exponential time.
 */
export * as Wildcard from "./wildcard.js"

export const CACHE_SIZE = 4_096

export interface Options {
  /** Fold case on both sides (Windows, or path resources on a case-insensitive file system). */
  readonly caseInsensitive?: boolean
}

interface Compiled {
  readonly segments: ReadonlyArray<string>
  /** The same pattern without its optional trailing " *", when it has one. */
  readonly bare: Compiled | undefined
}

const cache = new Map<string, Compiled>()

const normalize = (text: string, options: Options | undefined) => {
  const slashed = text.replaceAll("\\", "/")
  return options?.caseInsensitive === true ? slashed.toLowerCase() : slashed
}

const build = (pattern: string): Compiled => ({
  segments: pattern.split("*"),
  bare: pattern.endsWith(" *") ? build(pattern.slice(0, -2)) : undefined,
})

/** Compiles a (normalized) pattern once; the cache keeps the most recently used `CACHE_SIZE`. */
const compile = (pattern: string): Compiled => {
  const hit = cache.get(pattern)
  if (hit !== undefined) {
    cache.delete(pattern)
    cache.set(pattern, hit)
    return hit
  }
  const made = build(pattern)
  cache.set(pattern, made)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  return made
}

/** Whether `segment` (with `?` as any one unit) matches `input` at `at`. */
const matchesAt = (input: string, segment: string, at: number): boolean => {
  if (at + segment.length > input.length) return false
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] !== "?" && segment[i] !== input[at + i]) return false
  }
  return true
}

/** Leftmost position ≥ `from` where `segment` matches, or -1. */
const find = (input: string, segment: string, from: number): number => {
  if (!segment.includes("?")) return input.indexOf(segment, from)
  for (let at = from; at + segment.length <= input.length; at++) {
    if (matchesAt(input, segment, at)) return at
  }
  return -1
}

const run = (input: string, compiled: Compiled): boolean => {
  const { segments } = compiled
  const first = segments[0] ?? ""
  if (segments.length === 1) return input.length === first.length && matchesAt(input, first, 0)
  const last = segments[segments.length - 1] ?? ""
  if (first.length + last.length > input.length) return false
  if (!matchesAt(input, first, 0) || !matchesAt(input, last, input.length - last.length)) return false
  const end = input.length - last.length
  let cursor = first.length
  for (const segment of segments.slice(1, -1)) {
    const at = find(input, segment, cursor)
    if (at === -1 || at + segment.length > end) return false
    cursor = at + segment.length
  }
  return true
}

/** @example Wildcard.match("git push origin", "git *") // true */
export const match = (input: string, pattern: string, options?: Options): boolean => {
  const compiled = compile(normalize(pattern, options))
  const text = normalize(input, options)
  return run(text, compiled) || (compiled.bare !== undefined && run(text, compiled.bare))
}
