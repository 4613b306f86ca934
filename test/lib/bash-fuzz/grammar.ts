/**
 * One generated command line: allowed commands around one carrier (BashFuzzCarriers) that hides
 * a payload, joined by list separators, sometimes with a glitch (a control character, a newline,
 * a backslash-newline, a quote) dropped between pieces or inside one (never inside a path atom),
 * sometimes wrapped whole in `( )`, `{ }` or `$( )`. A line is made from its own seed, so any
 * line of a run is replayed from `lineSeed(seed, index)` alone. Pieces are kept for shrinking.
 */
export * as BashFuzzGrammar from "./grammar.js"

import { BashFuzzAtoms } from "./atoms.js"
import { BashFuzzCarriers } from "./carriers.js"
import { BashFuzzRandom } from "./random.js"
import { BashFuzzSafety } from "./safety.js"

export interface Line {
  readonly family: string
  readonly pieces: ReadonlyArray<string>
  readonly text: string
}

const GLITCHES: ReadonlyArray<string> = [...BashFuzzAtoms.CONTROL, "\\\n", "\n", "#", "\\", " ", ";", "'", '"', "`", "\\\r\n", "\n\\\n"]

/** The chance of a glitch (a third of it in a lean line), and of wrapping a busy line whole. */
export const GLITCH_CHANCE = 0.3
export const WRAP_CHANCE = 0.15
/** The share of lean lines: one carrier, rarely a neighbour or a glitch, never wrapped. */
export const LEAN_CHANCE = 0.6

/** The seed of line `index` of a run started from `seed`. */
export const lineSeed = (seed: number, index: number): number => (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0

const glitch = (random: BashFuzzRandom.Random, pieces: ReadonlyArray<string>, root: string): ReadonlyArray<string> => {
  const char = random.pick(GLITCHES)
  const at = random.int(pieces.length + 1)
  if (random.chance(0.5)) return [...pieces.slice(0, at), char, ...pieces.slice(at)]
  const index = random.int(pieces.length)
  const piece = pieces[index] as string
  const spans = BashFuzzSafety.atomSpans(piece, root)
  const free = Array.from({ length: piece.length + 1 }, (_, position) => position).filter((position) => !spans.some(([start, end]) => position > start && position < end))
  const position = random.pick(free)
  return pieces.map((text, i) => (i === index ? text.slice(0, position) + char + text.slice(position) : text))
}

const wrap = (random: BashFuzzRandom.Random, pieces: ReadonlyArray<string>): ReadonlyArray<string> => {
  const [open, close] = random.pick([["( ", " )"], ["{ ", "; }"], ["echo $(", ")"], ['echo "$(', ')"']] as const)
  return [open, ...pieces, close]
}

/**
 * The line of seed `seed`, numbering its payloads `n`, with paths under `root`.
 * @example generate(lineSeed(7, 0), 0, "/tmp/x/root").text // "echo a\r#; touch CANARY_0", say
 */
export const generate = (seed: number, n: number, root: string): Line => {
  const random = BashFuzzRandom.make(seed)
  const build: BashFuzzCarriers.Build = {
    random,
    payload: (forbid) => BashFuzzAtoms.payload(random, n, root, forbid),
    control: () => random.pick(BashFuzzAtoms.CONTROL),
    victim: () => random.pick(BashFuzzAtoms.victims(root)),
    allowed: () => random.pick(BashFuzzAtoms.ALLOWED),
    head: () => random.pick(BashFuzzAtoms.HEADS),
  }
  const [family, carrier] = BashFuzzCarriers.draw(random)
  const around = (count: number) => Array.from({ length: count }, () => [build.allowed(), random.pick(BashFuzzAtoms.SEPARATORS)])
  // A lean line has one trick, so the gate often allows it and bash is asked what it really does.
  const lean = random.chance(LEAN_CHANCE)
  const before = around(lean ? random.pick([0, 0, 1]) : random.pick([0, 1, 1, 2])).flat()
  const after = around(lean ? random.pick([0, 0, 1]) : random.pick([0, 1, 2])).flatMap(([command, separator]) => [separator as string, command as string])
  const plain = [...before, carrier(build), ...after]
  const glitched = random.chance(lean ? GLITCH_CHANCE / 3 : GLITCH_CHANCE) ? glitch(random, plain, root) : plain
  const pieces = !lean && random.chance(WRAP_CHANCE) ? wrap(random, glitched) : glitched
  return { family, pieces, text: pieces.join("") }
}
