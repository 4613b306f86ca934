/**
 * What a wrapper runs (07), and the two ways its options are read. A `Layer` is what one command
 * that runs other commands runs: commands from its own words, command strings, a shell on
 * standard input. `runner` reads a wrapper that runs the command in its later words (`sudo`,
 * `timeout 5`); `permuted` reads options the way GNU getopt does, anywhere until `--` (`su root
 * -c x`, `script log -c x`). Gotcha: every reading of an unknown option is kept, so the readings
 * multiply; past MAX_READINGS they collapse into one marked `?`, which callers make opaque.
 */
export * as BashParseLayer from "./parse-layer.js"

import { BashParseOption } from "./parse-option.js"
import type { BashParsePlace } from "./parse-place.js"

/** Readings of a permuted command line past which it is read as one marked `?`. */
export const MAX_READINGS = 16
/** Option segments (options between operands) read per command before it is marked `?`. */
export const MAX_SEGMENTS = 256

/** A command a wrapper runs from its own words `[start, end)`, in `cwd` past the wrapper's place. */
export interface Inner {
  readonly start: number
  readonly end: number
  readonly cwd: BashParsePlace.Chain
}

export interface Layer {
  readonly inner: ReadonlyArray<Inner>
  /** Command strings it runs (`sh -c "…"`); undefined when one is not static. */
  readonly strings: ReadonlyArray<string | undefined>
  /**
   * How many words an "always" keeps: "inner" — its words up to the inner command, then the
   * inner command's own prefix (all of them when it runs none); "own" — its own arity (`find`);
   * a number — that many words, for the runners of command strings (`sh -c *`).
   */
  readonly keep: "inner" | "own" | number
  /** It runs in the shell itself (`builtin cd` moves the shell; `sudo cd` does not). */
  readonly inShell: boolean
  /** It reads commands from its standard input (`bash` with no script and no `-c`). */
  readonly stdin: boolean
  /** The word that names the script a shell runs (`bash script.sh`): from a `<(…)` it is opaque. */
  readonly script: number | undefined
  readonly opaque: boolean
  /**
   * Words the inner commands get at run time: `find -exec`'s `{}` and `xargs -I R`'s `R` replaced
   * inside their words (`token`), or plain `xargs`'s input appended to them (`append`).
   */
  readonly fills: Fills | undefined
}

export interface Fills {
  readonly token: string | undefined
  readonly append: boolean
}

export type Words = BashParseOption.Words

/** Reads the layer of the command named by `words[start]`; undefined when it runs nothing of its own. */
export type Reader = (words: Words, start: number, end: number) => Layer | undefined

export const NONE: Layer = { inner: [], strings: [], keep: "inner", inShell: false, stdin: false, script: undefined, opaque: false, fills: undefined }
export const OPAQUE: Layer = { ...NONE, opaque: true }

/** A reader for a command whose words no table can read (`parallel`, `start-stop-daemon`). */
export const opaque: Reader = () => OPAQUE

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/
/** GNU `env` takes any word with `=` for an assignment (`'BASH_FUNC_f%%=…'`); both readings are kept. */
const LOOSE_ASSIGNMENT = /=/

/** How a wrapper that runs the command in its later words reads them. */
export interface Runner extends BashParseOption.Options {
  /** `NAME=value` words before the command are skipped (`env A=1 rm x`). */
  readonly assignments?: boolean
  /** Words before the command that are not options (`timeout 5`). */
  readonly operands?: number
  readonly inShell?: boolean
  /** With no command it starts a shell that reads standard input (`setarch x86_64`, `fakeroot`). */
  readonly shell?: boolean
}

/** Where the command may start after the options of `state`: one place per reading of its assignments. */
const commandAt = (spec: Runner, words: Words, end: number, state: BashParseOption.State): ReadonlyArray<number> =>
  [ASSIGNMENT, LOOSE_ASSIGNMENT].flatMap((assignment) => {
    const skipped = Array.from(words.slice(state.index, end)).findIndex((word) => spec.assignments !== true || word === undefined || !assignment.test(word))
    const at = (skipped === -1 ? end : state.index + skipped) + (spec.operands ?? 0)
    return at < end ? [at] : []
  })

/** Distinct inner commands: one per start and working directory. */
export const distinct = (inner: ReadonlyArray<Inner>): ReadonlyArray<Inner> =>
  Array.from(new Map(inner.map((entry) => [`${entry.start}:${JSON.stringify(entry.cwd)}`, entry])).values())

/**
 * A wrapper that runs the command in its words after its options (and `operands`).
 * @example BashParseLayer.runner({ args: "n" })(["nice", "-n", "5", "rm", "x"], 0, 5)?.inner // [{ start: 3, end: 5, cwd: [] }]
 */
export const runner =
  (spec: Runner) =>
  (words: Words, start: number, end: number): Layer => {
    const states = BashParseOption.read(spec, words, start, end)
    const inner = distinct(
      states.flatMap((state): ReadonlyArray<Inner> => {
        const starts = BashParseOption.stopped(spec, state) ? [] : commandAt(spec, words, end, state)
        return starts.map((at) => ({ start: at, end, cwd: state.cwd }))
      }),
    )
    const shells = states.some((state) => state.seen.some((name) => name.length === 2 && spec.shells?.includes(name.slice(1)) === true))
    const strings = states.flatMap((state) => state.strings.map((entry) => entry.value))
    const stops = states.every((state) => BashParseOption.stopped(spec, state))
    const stdin = (shells || (spec.shell === true && !stops)) && inner.length === 0
    return { ...NONE, inner, strings, inShell: spec.inShell === true, stdin, opaque: BashParseOption.isOpaque(spec, states) }
  }

/** One reading of a permuted command line: its options in order, and its operands. */
export interface Reading extends BashParseOption.State {
  readonly operands: ReadonlyArray<number>
  /** The operands met where an option could have been (before any `--`). */
  readonly loose: ReadonlyArray<number>
}

const TOO_MANY = (end: number): Reading => ({ index: end, cwd: [], seen: ["?"], strings: [], operands: [], loose: [] })

/**
 * Every reading of the options after `words[start]` when options may follow operands (GNU
 * getopt without `+`), each to `end`; one reading marked `?` when there are too many.
 * @example BashParseLayer.permuted({ args: "c" }, ["script", "log", "-c", "x"], 0, 4)[0]?.operands // [1]
 */
export const permuted = (spec: BashParseOption.Options, words: Words, start: number, end: number): ReadonlyArray<Reading> => {
  let segments = 0
  const from = (at: number, before: Reading): ReadonlyArray<Reading> =>
    BashParseOption.read(spec, words, at, end).flatMap((state): ReadonlyArray<Reading> => {
      const reading = { ...before, index: state.index, cwd: [...before.cwd, ...state.cwd], seen: [...before.seen, ...state.seen], strings: [...before.strings, ...state.strings] }
      if (state.index >= end || state.seen.includes("?")) return [reading]
      if (state.seen.at(-1) === "--") return [{ ...reading, index: end, operands: [...reading.operands, ...Array.from({ length: end - state.index }, (_, n) => state.index + n)] }]
      if (++segments > MAX_SEGMENTS) return [TOO_MANY(end)]
      return from(state.index, { ...reading, operands: [...reading.operands, state.index], loose: [...reading.loose, state.index] })
    })
  const readings = from(start, { index: start + 1, cwd: [], seen: [], strings: [], operands: [], loose: [] })
  return readings.length > MAX_READINGS || segments > MAX_SEGMENTS ? [TOO_MANY(end)] : readings
}

/** The layers of several readings as one: everything any of them runs; opaque when one is. */
export const merge = (layers: ReadonlyArray<Layer>): Layer | undefined => {
  if (layers.length === 0) return undefined
  const first = layers[0] as Layer
  return {
    ...first,
    inner: distinct(layers.flatMap((layer) => layer.inner)),
    strings: layers.flatMap((layer) => layer.strings),
    stdin: layers.some((layer) => layer.stdin),
    opaque: layers.some((layer) => layer.opaque),
  }
}

/** The reader of `reader`'s command when its name is `count` words long (`setarch x86_64 cmd`, `npm exec cmd`). */
export const after =
  (count: number, reader: Reader): Reader =>
  (words, start, end) =>
    start + count < end ? reader(words, start + count, end) : undefined
