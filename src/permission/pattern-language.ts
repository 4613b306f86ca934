/**
 * Exact questions about the languages of permission patterns (`Wildcard` semantics): does a union
 * of patterns include another pattern, and do several patterns share a string, each answered with a
 * shortest witness. A normalized pattern (plus its bare form when it ends in " *") becomes a
 * position NFA over code points; a breadth-first search runs over the product of the NFAs' state
 * sets. The alphabet is made finite: every literal code point of the patterns plus one fresh
 * character standing for all the others (they are indistinguishable), so the search is exhaustive.
 */
export * as PatternLanguage from "./pattern-language.js"

export interface Options {
  /** Fold case on both sides, as `Wildcard.match` does with the same option. */
  readonly caseInsensitive?: boolean
}

/** Token codes; literals are their (non-negative) code points. */
const STAR = -1
const ANY = -2
const END = -3

/** Several position NFAs flattened into one: state `s` reads `tokens[s]`; an `END` state accepts. */
interface Machine {
  readonly tokens: ReadonlyArray<number>
  readonly start: ReadonlyArray<number>
}

/** One symbol of the finite alphabet, with what lone-surrogate pairing rules need to know. */
interface Letter {
  readonly code: number
  readonly text: string
  readonly high: boolean
  readonly low: boolean
}

/** A product state: one sorted state set per machine, plus "the text ends in a lone high surrogate". */
interface Node {
  readonly sets: ReadonlyArray<ReadonlyArray<number>>
  readonly text: string
  readonly high: boolean
}

const normalize = (pattern: string, options: Options | undefined): string => {
  const slashed = pattern.replaceAll("\\", "/")
  return options?.caseInsensitive === true ? slashed.toLowerCase() : slashed
}

/** The plain globs whose union is the pattern's language: " *" at the end is also optional. */
const globs = (pattern: string, options: Options | undefined): ReadonlyArray<string> => {
  const normalized = normalize(pattern, options)
  return normalized.endsWith(" *") ? [normalized, normalized.slice(0, -2)] : [normalized]
}

const tokenize = (glob: string): ReadonlyArray<number> =>
  Array.from(glob, (char) => (char === "*" ? STAR : char === "?" ? ANY : (char.codePointAt(0) as number)))

/** Adds the states reachable by skipping stars (a star may match the empty string); sorted. */
const closure = (tokens: ReadonlyArray<number>, states: Iterable<number>): ReadonlyArray<number> => {
  const seen = new Set<number>()
  for (const from of states) {
    for (let s = from; !seen.has(s); s++) {
      seen.add(s)
      if (tokens[s] !== STAR) break
    }
  }
  return [...seen].sort((a, b) => a - b)
}

const machine = (patterns: ReadonlyArray<string>, options: Options | undefined): Machine => {
  const tokens: Array<number> = []
  const starts: Array<number> = []
  for (const glob of patterns.flatMap((pattern) => globs(pattern, options))) {
    starts.push(tokens.length)
    tokens.push(...tokenize(glob), END)
  }
  return { tokens, start: closure(tokens, starts) }
}

const step = ({ tokens }: Machine, states: ReadonlyArray<number>, code: number): ReadonlyArray<number> => {
  const next: Array<number> = []
  for (const s of states) {
    const token = tokens[s]
    if (token === STAR) next.push(s)
    else if (token === ANY || token === code) next.push(s + 1)
  }
  return closure(tokens, next)
}

const accepts = ({ tokens }: Machine, states: ReadonlyArray<number>): boolean => states.some((s) => tokens[s] === END)

const FRESH = Array.from("xyzqjkvwmnpbcdfghlrstuaeio0123456789")

/**
 * A character no pattern names literally, standing for every such character. It is never `*`, `?`
 * or a backslash (rewritten to `/`), never a surrogate, and is its own lowercase (so a folded
 * input keeps it).
 */
const fresh = (used: ReadonlySet<number>): number => {
  const usable = (code: number) =>
    !used.has(code) && String.fromCodePoint(code).toLowerCase() === String.fromCodePoint(code)
  const listed = FRESH.map((char) => char.codePointAt(0) as number).find(usable)
  if (listed !== undefined) return listed
  let code = 0xa1
  while (!usable(code) || (code >= 0xd800 && code <= 0xdfff)) code++
  return code
}

const letter = (code: number): Letter => ({
  code,
  text: String.fromCodePoint(code),
  high: code >= 0xd800 && code <= 0xdbff,
  low: code >= 0xdc00 && code <= 0xdfff,
})

const alphabet = (machines: ReadonlyArray<Machine>): ReadonlyArray<Letter> => {
  const used = new Set(machines.flatMap(({ tokens }) => tokens.filter((token) => token >= 0)))
  return [...[...used].sort((a, b) => a - b), fresh(used)].map(letter)
}

const key = (node: Node): string => `${node.high ? "h" : ""}${node.sets.map((set) => set.join(",")).join("|")}`

/**
 * Breadth-first search of the product of `machines` for a node satisfying `goal`, skipping nodes
 * that cannot lead anywhere (`alive` false). The first hit has a shortest text. A lone high
 * surrogate is never followed by a lone low one: together they would read as one astral character.
 */
const search = (
  machines: ReadonlyArray<Machine>,
  goal: (sets: ReadonlyArray<ReadonlyArray<number>>) => boolean,
  alive: (sets: ReadonlyArray<ReadonlyArray<number>>) => boolean,
): string | undefined => {
  const letters = alphabet(machines)
  const first: Node = { sets: machines.map(({ start }) => start), text: "", high: false }
  const queue: Array<Node> = [first]
  const seen = new Set<string>([key(first)])
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] as Node
    if (goal(node.sets)) return node.text
    if (!alive(node.sets)) continue
    for (const { code, text, high, low } of letters) {
      if (node.high && low) continue
      const next: Node = {
        sets: machines.map((m, i) => step(m, node.sets[i] ?? [], code)),
        text: node.text + text,
        high,
      }
      const id = key(next)
      if (seen.has(id)) continue
      seen.add(id)
      queue.push(next)
    }
  }
  return undefined
}

/**
 * A string that `inner` matches and none of `outers` matches; undefined when every string `inner`
 * matches is matched by some outer (language inclusion L(inner) ⊆ ∪ L(outers)).
 * @example uncovered(["a*", "b*"], "*") // "" — the empty string starts with neither
 */
export const uncovered = (outers: ReadonlyArray<string>, inner: string, options?: Options): string | undefined => {
  const inside = machine([inner], options)
  const outside = machine(outers, options)
  return search(
    [inside, outside],
    ([i = [], o = []]) => accepts(inside, i) && !accepts(outside, o),
    ([i = []]) => i.length > 0,
  )
}

/** Whether L(inner) ⊆ ∪ L(outers). @example covers(["git *"], "git push *") // true */
export const covers = (outers: ReadonlyArray<string>, inner: string, options?: Options): boolean =>
  uncovered(outers, inner, options) === undefined

/**
 * A string matched by every pattern in `patterns` (non-empty list), or undefined when their
 * languages do not intersect. (An empty list constrains nothing: the answer is "".)
 * @example intersection(["a*", "*b"]) // "ab"
 */
export const intersection = (patterns: ReadonlyArray<string>, options?: Options): string | undefined => {
  const machines = patterns.map((pattern) => machine([pattern], options))
  return search(
    machines,
    (sets) => sets.every((set, i) => accepts(machines[i] as Machine, set)),
    (sets) => sets.every((set) => set.length > 0),
  )
}
