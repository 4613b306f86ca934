/**
 * Permission patterns. `*` matches any run of characters (slashes and newlines included), `?`
 * exactly one character (a Unicode code point), everything else is literal; there is no escape
 * syntax. Matching is anchored at both ends, and a pattern ending in " *" also matches without
 * that tail (`git *` matches `git`). Backslashes count as `/` on both sides.
 * Gotcha: no regular expressions. A pattern compiles to its star-separated segments, placed
 * leftmost-first, which is exact for star patterns and never backtracks. A literal segment is
 * found with `indexOf`; a segment with `?` by a bit-parallel scan (shift-and), so matching costs
 * O(input × ⌈segment length / 32⌉) whatever the pattern: linear for any practical rule.
 */
export * as Wildcard from "./wildcard.js"

export const CACHE_SIZE = 4_096
const WORD_BITS = 32
const QUESTION = 0x3f

export interface Options {
  /** Fold case on both sides (Windows, or path resources on a case-insensitive file system). */
  readonly caseInsensitive?: boolean
}

/** Text as units: UTF-16 code units when it has no surrogate pair, else code points. */
type Units = string | ReadonlyArray<number>

interface Segment {
  readonly units: ReadonlyArray<number>
  readonly literal: string | undefined
  /** Shift-and tables: per unit, the bit mask of the positions it may occupy; `any` for `?`. */
  readonly masks: ReadonlyMap<number, Uint32Array>
  readonly any: Uint32Array
}

interface Compiled {
  readonly segments: ReadonlyArray<Segment>
  /** The same pattern without its optional trailing " *", when it has one. */
  readonly bare: Compiled | undefined
}

const cache = new Map<string, Compiled>()

const SURROGATE = /[\uD800-\uDFFF]/

const normalize = (text: string, options: Options | undefined) => {
  const slashed = text.replaceAll("\\", "/")
  return options?.caseInsensitive === true ? slashed.toLowerCase() : slashed
}

const codePoints = (text: string): ReadonlyArray<number> => Array.from(text, (char) => char.codePointAt(0) as number)

const segment = (text: string): Segment => {
  const units = codePoints(text)
  const words = Math.max(1, Math.ceil(units.length / WORD_BITS))
  const any = new Uint32Array(words)
  const masks = new Map<number, Uint32Array>()
  units.forEach((unit, position) => {
    const bit = 1 << (position % WORD_BITS)
    const word = Math.floor(position / WORD_BITS)
    if (unit === QUESTION) {
      any[word] = (any[word] as number) | bit
      return
    }
    const mask = masks.get(unit) ?? new Uint32Array(words)
    mask[word] = (mask[word] as number) | bit
    masks.set(unit, mask)
  })
  return { units, literal: units.includes(QUESTION) ? undefined : text, masks, any }
}

const build = (pattern: string): Compiled => ({
  segments: pattern.split("*").map(segment),
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

const unitAt = (text: Units, index: number): number => (typeof text === "string" ? text.charCodeAt(index) : (text[index] as number))

/** Whether `segment` matches `text` at `at` exactly. */
const matchesAt = (text: Units, { units }: Segment, at: number): boolean => {
  if (at < 0 || at + units.length > text.length) return false
  for (let i = 0; i < units.length; i++) {
    const unit = units[i] as number
    if (unit !== QUESTION && unit !== unitAt(text, at + i)) return false
  }
  return true
}

/** Leftmost position ≥ `from` where `segment` matches, or -1 (shift-and over ⌈m/32⌉ words). */
const find = (text: Units, seg: Segment, from: number): number => {
  const length = seg.units.length
  if (length === 0) return from <= text.length ? from : -1
  if (seg.literal !== undefined && typeof text === "string") return text.indexOf(seg.literal, from)
  const words = seg.any.length
  const state = new Uint32Array(words)
  const last = 1 << ((length - 1) % WORD_BITS)
  const lastWord = words - 1
  for (let at = from; at < text.length; at++) {
    const mask = seg.masks.get(unitAt(text, at))
    let carry = 1
    for (let w = 0; w < words; w++) {
      const current = state[w] as number
      state[w] = ((current << 1) | carry) & ((mask?.[w] ?? 0) | (seg.any[w] as number))
      carry = current >>> (WORD_BITS - 1)
    }
    if (((state[lastWord] as number) & last) !== 0) return at - length + 1
  }
  return -1
}

const run = (text: Units, { segments }: Compiled): boolean => {
  const first = segments[0] as Segment
  if (segments.length === 1) return text.length === first.units.length && matchesAt(text, first, 0)
  const last = segments[segments.length - 1] as Segment
  const end = text.length - last.units.length
  if (first.units.length > end || !matchesAt(text, first, 0) || !matchesAt(text, last, end)) return false
  let cursor = first.units.length
  for (let i = 1; i < segments.length - 1; i++) {
    const seg = segments[i] as Segment
    const at = find(text, seg, cursor)
    if (at === -1 || at + seg.units.length > end) return false
    cursor = at + seg.units.length
  }
  return true
}

/** An input normalized once for matching against many patterns. */
export interface Prepared {
  readonly text: string
  /** The text as code points, made only when it holds an astral character. */
  readonly points: ReadonlyArray<number> | undefined
}

/** A pattern compiled once, for matching many prepared inputs. */
export interface Matcher {
  readonly test: (input: Prepared) => boolean
}

export const prepare = (input: string, options?: Options): Prepared => {
  const text = normalize(input, options)
  return { text, points: SURROGATE.test(text) ? codePoints(text) : undefined }
}

export const matcher = (pattern: string, options?: Options): Matcher => {
  const normalized = normalize(pattern, options)
  const compiled = compile(normalized)
  // Astral characters count as one character each; only then is the text matched as code points.
  const astral = SURROGATE.test(normalized)
  return {
    test: (input) => {
      const text: Units = input.points ?? (astral ? codePoints(input.text) : input.text)
      return run(text, compiled) || (compiled.bare !== undefined && run(text, compiled.bare))
    },
  }
}

/** @example Wildcard.match("git push origin", "git *") // true */
export const match = (input: string, pattern: string, options?: Options): boolean => matcher(pattern, options).test(prepare(input, options))
