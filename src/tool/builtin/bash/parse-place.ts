/**
 * Where a command may run: the `cd`/`pushd` targets in effect before it, as chains the tool
 * resolves left to right from the workdir (07 step 3). A point of a command holds a SET of
 * possible places, because a `cd` may fail: after `cd /a; x` the `x` runs in `/a` or where it
 * was, and after `cd /a && x` only in `/a`. Every target is reported once per possible place,
 * so a failed `cd` can never make a write look internal. An unknown move (a `cd` inside a loop
 * or a function, `eval`) adds a chain ending in `undefined`, which the tool treats as external.
 * Invariant: a set is never empty. Past MAX_PLACES it collapses to the single unknown place.
 */
export * as BashParsePlace from "./parse-place.js"

export const MAX_PLACES = 16

export type Chain = ReadonlyArray<string | undefined>

export interface Place {
  readonly cwd: Chain
  /** The `pushd` stack: the chains `popd` returns to, last on top. */
  readonly stack: ReadonlyArray<Chain>
}

export type Places = ReadonlyArray<Place>

/** Where a statement leaves the shell when it succeeds (`&&` goes on from here) or fails (`||`). */
export interface Outcome {
  readonly ok: Places
  readonly failed: Places
}

/** The workdir itself. */
export const START: Places = [{ cwd: [], stack: [] }]

const UNKNOWN: Places = [{ cwd: [undefined], stack: [] }]

const key = (place: Place) => JSON.stringify(place)

export const union = (...sets: ReadonlyArray<Places>): Places => {
  // The common case: a statement that moved nothing hands the same set on both ways.
  if (sets.every((set) => set === sets[0])) return sets[0] ?? []
  const distinct = new Map(sets.flat().map((place) => [key(place), place]))
  return distinct.size > MAX_PLACES ? UNKNOWN : Array.from(distinct.values())
}

/** `cd dir` succeeded (`dir` undefined: not static). */
export const enter = (places: Places, dir: string | undefined): Places => places.map((place) => ({ cwd: [...place.cwd, dir], stack: place.stack }))

/** `pushd dir` succeeded. */
export const push = (places: Places, dir: string | undefined): Places => places.map((place) => ({ cwd: [...place.cwd, dir], stack: [...place.stack, place.cwd] }))

/** `popd` succeeded: back to the chain of the matching `pushd`, or somewhere unknown. */
export const pop = (places: Places): Places =>
  places.map((place) => {
    const top = place.stack.at(-1)
    return top === undefined ? { cwd: [...place.cwd, undefined], stack: [] } : { cwd: top, stack: place.stack.slice(0, -1) }
  })

/** The places after something that may or may not have moved the shell anywhere. */
export const unknown = (places: Places): Places => union(places, enter(places, undefined))

/** A new process starting at each place (`sh -c`, `env -C dir`), `extra` chains appended. */
export const child = (places: Places, extra: Chain): Places => union(places.map((place) => ({ cwd: [...place.cwd, ...extra], stack: [] })))

/** A statement that does not move the shell. */
export const same = (places: Places): Outcome => ({ ok: places, failed: places })

/** Every place a statement may leave the shell in. */
export const after = (outcome: Outcome): Places => union(outcome.ok, outcome.failed)

/** `!`: success and failure swap. */
export const negate = (outcome: Outcome): Outcome => ({ ok: outcome.failed, failed: outcome.ok })

/** Either of several branches ran. */
export const either = (outcomes: ReadonlyArray<Outcome>): Outcome => ({
  ok: union(...outcomes.map((outcome) => outcome.ok)),
  failed: union(...outcomes.map((outcome) => outcome.failed)),
})
