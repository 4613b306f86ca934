import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { PatternLanguage } from "../../src/permission/pattern-language.js"
import { Wildcard } from "../../src/permission/wildcard.js"

type Options = PatternLanguage.Options

/** The witness of `uncovered` really is one: `inner` matches it and no outer does. */
const expectUncovered = (outers: ReadonlyArray<string>, inner: string, witness: string, options?: Options) => {
  expect(Wildcard.match(witness, inner, options)).toBe(true)
  for (const outer of outers) expect(Wildcard.match(witness, outer, options)).toBe(false)
}

const expectCommon = (patterns: ReadonlyArray<string>, witness: string, options?: Options) => {
  for (const pattern of patterns) expect(Wildcard.match(witness, pattern, options)).toBe(true)
}

const length = (text: string) => Array.from(text).length

/** [outers, inner, covered, shortest witness when known] */
const coverCases: ReadonlyArray<[ReadonlyArray<string>, string, boolean, string?]> = [
  [["**"], "tests/**", true],
  [["tests/**"], "**", false, ""],
  [["*"], "", true],
  [["*"], "a?b*c", true],
  [["*"], " *", true],
  [["git *"], "git", true],
  [["git *"], "gits", false, "gits"],
  [["git *"], "git push *", true],
  [["git *"], "git*", false, "gita"],
  [["git push *"], "git *", false, "git"],
  [["a*", "b*"], "?*", false, "x"],
  [["a*", "?*"], "*", false, ""],
  [["", "?*"], "*", true],
  [["", "?", "??", "???*"], "*", true],
  [["", "?", "??", "????*"], "*", false, "xxx"],
  [["*a", "*b", "", "*x"], "*", false, "c"],
  [["a*", "*a", "?"], "a*a", true],
  [["*a*", "*b*"], "*?*", false, "x"],
  [["*/*", "*"], "src/**", true],
  [["??*", ""], "*", false, "a"],
  [[" *"], "", true],
  [[" *"], " ", true],
  [[" *"], "x", false, "x"],
  [[""], " *", false, " "],
  [["", " ", " ?*"], " *", true],
  [["", " ?*"], " *", false, " "],
  [["src/*"], "src\\lib\\*", true],
  [["src\\*"], "src/a", true],
  [["?"], "😀", true],
  [["??"], "😀", false, "😀"],
  [["😀*"], "😀?", true],
  [["a?c"], "abc", true],
  [["a?c"], "a??c", false, "aaac"],
  [["*a*b*"], "*ab*", true],
  [["*ab*"], "*a*b*", false, "axb"],
  [["*a*", "*b*"], "*a?b*", true],
  [[], "*", false, ""],
  [[], "", false, ""],
  [["a"], "a\nb", false, "a\nb"],
]

describe("PatternLanguage.covers / uncovered", () => {
  for (const [outers, inner, covered, shortest] of coverCases) {
    it(`${JSON.stringify(outers)} ${covered ? "covers" : "does not cover"} ${JSON.stringify(inner)}`, () => {
      expect(PatternLanguage.covers(outers, inner)).toBe(covered)
      const witness = PatternLanguage.uncovered(outers, inner)
      if (covered) {
        expect(witness).toBeUndefined()
        return
      }
      expect(witness).toBeDefined()
      expectUncovered(outers, inner, witness as string)
      if (shortest !== undefined) expect(length(witness as string)).toBe(length(shortest))
    })
  }

  it("folds case only when asked", () => {
    expect(PatternLanguage.covers([".env"], ".ENV")).toBe(false)
    expect(PatternLanguage.covers([".env"], ".ENV", { caseInsensitive: true })).toBe(true)
    expect(PatternLanguage.covers(["SRC/*"], "src/a/*", { caseInsensitive: true })).toBe(true)
    const witness = PatternLanguage.uncovered(["a*"], "*", { caseInsensitive: true })
    expect(witness).toBe("")
  })

  it("never pairs a lone high surrogate with a lone low one (that would read as one astral character)", () => {
    const outers = ["*\uD83D\uDE00*"]
    const witness = PatternLanguage.uncovered(outers, "*\uD83D*\uDE00*")
    expect(witness).toBeDefined()
    expectUncovered(outers, "*\uD83D*\uDE00*", witness as string)
    expect(PatternLanguage.intersection(["\uD83D*", "*\uDE00"])).toBe("\uD83Dx\uDE00")
  })
})

const intersectionCases: ReadonlyArray<[ReadonlyArray<string>, string | undefined]> = [
  [["a*", "*b"], "ab"],
  [["a*", "b*"], undefined],
  [["*", ""], ""],
  [["?", ""], undefined],
  [["git *", "git"], "git"],
  [["git *", "gi?"], "git"],
  [[" *", ""], ""],
  [["*a*", "*b*", "*c*"], "abc"],
  [["a?", "?b", "??"], "ab"],
  [["a?", "?b", "???"], undefined],
  [["*a", "*b"], undefined],
  [["😀*", "?"], "😀"],
  [["src\\*", "src/a"], "src/a"],
  [["**", "***"], ""],
  [[""], ""],
]

describe("PatternLanguage.intersection", () => {
  for (const [patterns, expected] of intersectionCases) {
    it(`${JSON.stringify(patterns)} → ${JSON.stringify(expected)}`, () => {
      const witness = PatternLanguage.intersection(patterns)
      expect(witness).toBe(expected)
      if (witness !== undefined) expectCommon(patterns, witness)
    })
  }

  it("folds case only when asked", () => {
    expect(PatternLanguage.intersection(["A*", "a*"])).toBe(undefined)
    expect(PatternLanguage.intersection(["A*", "a"], { caseInsensitive: true })).toBe("a")
  })
})

// ---------------------------------------------------------------------------------------------
// Brute-force oracles. They only use `Wildcard.match`.

const FRESH = "x" // no generated pattern uses it
const globsOf = (pattern: string, options?: Options): ReadonlyArray<Array<string>> => {
  const slashed = pattern.replaceAll("\\", "/")
  const normalized = options?.caseInsensitive === true ? slashed.toLowerCase() : slashed
  return normalized.endsWith(" *") ? [Array.from(normalized), Array.from(normalized.slice(0, -2))] : [Array.from(normalized)]
}

/** The literal characters of the patterns (as written and as normalized), plus the fresh one. */
const lettersOf = (patterns: ReadonlyArray<string>, options?: Options): ReadonlyArray<string> => {
  const chars = patterns.flatMap((p) => [...Array.from(p.replaceAll("\\", "/")), ...globsOf(p, options).flat()])
  return [...new Set([...chars.filter((c) => c !== "*" && c !== "?"), FRESH])]
}

/** Every string over `letters` of length `n`. */
const stringsOfLength = (letters: ReadonlyArray<string>, n: number): ReadonlyArray<string> =>
  n === 0 ? [""] : stringsOfLength(letters, n - 1).flatMap((prefix) => letters.map((c) => prefix + c))

const isCounterexample = (outers: ReadonlyArray<string>, inner: string, w: string, options?: Options) =>
  Wildcard.match(w, inner, options) && outers.every((o) => !Wildcard.match(w, o, options))

/** The length of the shortest counterexample of length ≤ bound, by exhaustive enumeration. */
const shortestCounterexample = (outers: ReadonlyArray<string>, inner: string, bound: number, options?: Options) => {
  const letters = lettersOf([...outers, inner], options)
  for (let n = 0; n <= bound; n++) {
    if (stringsOfLength(letters, n).some((w) => isCounterexample(outers, inner, w, options))) return n
  }
  return undefined
}

/**
 * Exact: whether some string matches `inner` and no outer. Argument: (1) in a counterexample,
 * every character that one of inner's `?`/`*` consumes may be replaced by FRESH — inner still
 * matches, and an outer matching the new string would match the old one (FRESH is only ever read by
 * `?`/`*`, which read anything). So inner's literals with runs of FRESH between them suffice.
 * (2) A run longer than M + 1 (M = the longest outer glob), where inner allows a shorter run, can
 * lose one FRESH: an outer match of the shorter string reads ≥ M + 1 FRESH characters, more than
 * its `?`s, so a `*` reads one of them and can read one more. Hence each run between inner's
 * literals has length in [#?, max(#?, M + 1)] when the gap holds a `*`, exactly #? otherwise.
 */
const coveredByOracle = (outers: ReadonlyArray<string>, inner: string, options?: Options): boolean => {
  const longest = Math.max(0, ...outers.flatMap((o) => globsOf(o, options).map((g) => g.length)))
  const candidates = globsOf(inner, options).flatMap((glob) => {
    let texts = [""]
    let questions = 0
    let starred = false
    const flush = () => {
      const top = starred ? Math.max(questions, longest + 1) : questions
      texts = texts.flatMap((t) => Array.from({ length: top - questions + 1 }, (_, k) => t + FRESH.repeat(questions + k)))
      questions = 0
      starred = false
    }
    for (const token of glob) {
      if (token === "*") starred = true
      else if (token === "?") questions++
      else {
        flush()
        texts = texts.map((t) => t + token)
      }
    }
    flush()
    return texts
  })
  return !candidates.some((w) => isCounterexample(outers, inner, w, options))
}

/**
 * The prefixes of the pattern's glob (its bare form is one of them). One ending in `*` gets a
 * second `*`, so that Wildcard's " *" rule does not widen it: "a **" is the plain glob "a *".
 */
const prefixesOf = (pattern: string, options?: Options): ReadonlyArray<string> => {
  const glob = globsOf(pattern, options)[0] as Array<string>
  return Array.from({ length: glob.length + 1 }, (_, i) => {
    const prefix = glob.slice(0, i).join("")
    return prefix.endsWith("*") ? `${prefix}*` : prefix
  })
}

/**
 * The length of a shortest common string, or undefined: breadth-first over all strings, keeping
 * one per signature — which prefixes of each glob it matches. Two strings with one signature have
 * the same futures (w·v matches a glob iff w matches some prefix of it and v the rest, a `*` at
 * the cut possibly reading from both), so this is exhaustive; it ends because signatures are
 * finitely many. Characters no pattern names act like FRESH; an all-zero part is a dead end.
 */
const shortestCommon = (patterns: ReadonlyArray<string>, options?: Options): number | undefined => {
  const letters = lettersOf(patterns, options)
  const prefixes = patterns.map((p) => prefixesOf(p, options))
  const signature = (w: string) => prefixes.map((qs) => qs.map((q) => (Wildcard.match(w, q, options) ? 1 : 0)))
  const seen = new Set<string>([JSON.stringify(signature(""))])
  let level = [""]
  for (let n = 0; level.length > 0; n++) {
    if (level.some((w) => patterns.every((p) => Wildcard.match(w, p, options)))) return n
    level = level.flatMap((w) =>
      letters.flatMap((c) => {
        const bits = signature(w + c)
        const id = JSON.stringify(bits)
        if (bits.some((part) => !part.includes(1)) || seen.has(id)) return []
        seen.add(id)
        return [w + c]
      }),
    )
  }
  return undefined
}

const token = fc.oneof(
  { arbitrary: fc.constantFrom("a", "b", "/", "*", "?", " "), weight: 12 },
  { arbitrary: fc.constantFrom("\\", "😀"), weight: 1 },
)
const patternOf = (chars: fc.Arbitrary<string>, maxLength: number) =>
  fc
    .tuple(fc.array(chars, { maxLength }), fc.integer({ min: 0, max: 3 }))
    .map(([cs, tail]) => cs.join("") + (tail === 0 ? " *" : ""))
const pattern = patternOf(token, 6)
const foldedPattern = patternOf(fc.constantFrom("a", "A", "b", "B", "*", "?", " "), 5)

/**
 * Enumerating every string up to the sum of the pattern lengths is not provably enough for
 * inclusion and is far too slow (6^20 strings), so `covers` is checked two ways: exactly against
 * `coveredByOracle`, and for shortest witnesses against all strings of length ≤ BOUND.
 */
const BOUND = 4

const checkCovers = (outers: ReadonlyArray<string>, inner: string, options?: Options) => {
  const witness = PatternLanguage.uncovered(outers, inner, options)
  expect(PatternLanguage.covers(outers, inner, options)).toBe(witness === undefined)
  expect(witness === undefined).toBe(coveredByOracle(outers, inner, options))
  if (witness !== undefined) expectUncovered(outers, inner, witness, options)
  // Shortest: exhaustive enumeration up to BOUND finds a counterexample exactly as long, or none.
  const brute = shortestCounterexample(outers, inner, BOUND, options)
  const expected = witness !== undefined && length(witness) <= BOUND ? length(witness) : undefined
  expect(brute).toBe(expected)
}

const checkIntersection = (patterns: ReadonlyArray<string>, options?: Options) => {
  const witness = PatternLanguage.intersection(patterns, options)
  if (witness !== undefined) expectCommon(patterns, witness, options)
  expect(witness === undefined ? undefined : length(witness)).toBe(shortestCommon(patterns, options))
}

describe("PatternLanguage against brute force", () => {
  it("covers/uncovered are exact, with shortest witnesses", () => {
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 3 }), pattern, (outers, inner) => {
        checkCovers(outers, inner)
      }),
      { numRuns: 500 },
    )
  })

  it("intersection is exact, with shortest witnesses", () => {
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 2, maxLength: 3 }), (patterns) => {
        checkIntersection(patterns)
      }),
      { numRuns: 500 },
    )
  })

  it("covers and intersection fold case like Wildcard.match", () => {
    const options = { caseInsensitive: true }
    fc.assert(
      fc.property(fc.array(foldedPattern, { minLength: 1, maxLength: 3 }), foldedPattern, (outers, inner) => {
        checkCovers(outers, inner, options)
        checkIntersection([inner, ...outers], options)
      }),
      { numRuns: 300 },
    )
  })
})
