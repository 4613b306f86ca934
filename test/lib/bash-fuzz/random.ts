/**
 * The fuzzer's seeded randomness: mulberry32, a 32-bit generator small enough to read and
 * reproducible from one integer, so a finding is replayed from its seed alone. Not for anything
 * but test input: the period is 2^32 and the low bits are weak.
 */
export * as BashFuzzRandom from "./random.js"

export interface Random {
  /** A float in [0, 1). */
  readonly next: () => number
  /** An integer in [0, n). */
  readonly int: (n: number) => number
  /** Whether a coin that lands heads with probability `p` does. */
  readonly chance: (p: number) => boolean
  readonly pick: <A>(choices: ReadonlyArray<A>) => A
}

/**
 * A generator started from `seed` (any integer; only its low 32 bits count).
 * @example make(7).int(10) // the same number every run
 */
export const make = (seed: number): Random => {
  const state = { value: seed >>> 0 }
  const next = () => {
    state.value = (state.value + 0x6d2b79f5) >>> 0
    const mixed = Math.imul(state.value ^ (state.value >>> 15), 1 | state.value)
    const more = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((more ^ (more >>> 14)) >>> 0) / 4_294_967_296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <A>(choices: ReadonlyArray<A>): A => {
    if (choices.length === 0) throw new globalThis.Error("pick from an empty list")
    return choices[int(choices.length)] as A
  }
  return { next, int, chance: (p) => next() < p, pick }
}

/** A fresh seed for a run that was given none (printed, so the run can be replayed). */
export const freshSeed = (): number => Math.floor(Math.random() * 4_294_967_296)
