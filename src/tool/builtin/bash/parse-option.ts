/**
 * Reading a wrapper's options with its own table (07): short clusters (`-nu root`, `-oL`), long
 * options with `=` or a separate argument (or an optional attached one: `nsenter -wdir`), `--`,
 * and the option values that matter later — the working directory of the command run (`env -C
 * dir`) and command strings (`su -c "…"`). Reading
 * stops at the first operand (`getopt` with `+`). Gotcha: an option the table does not know may
 * or may not take an argument, so both readings are returned; their number is bounded.
 */
export * as BashParseOption from "./parse-option.js"

import type { BashParsePlace } from "./parse-place.js"

/**
 * Stands for the part of an option word that expands (`-o"$f"` is `-o` and UNKNOWN). Where it
 * stands in an option's name (a short cluster's letter, a long option before its `=`), the
 * expansion can spell any option (`-r$'o'` is `-ro`, `-exe$'c'` is `-exec`): that reading is `?`.
 */
export const UNKNOWN = "\u0000"

/** Option readings of one wrapper past which it is made opaque instead. */
export const MAX_READINGS = 8
/** Option words and letters read per wrapper before it is made opaque instead. */
export const MAX_STEPS = 256

/** How one wrapper's options are read. Short option letters are listed in strings. */
export interface Options {
  readonly flags?: string
  /** Short options with an argument: the rest of the word, or the next word. */
  readonly args?: string
  /** Short options whose argument, if any, is attached (`xargs -i{}`). */
  readonly attached?: string
  /** Short options after which nothing is run (`command -v`). */
  readonly stops?: string
  readonly longArgs?: ReadonlyArray<string>
  readonly longFlags?: ReadonlyArray<string>
  readonly longStops?: ReadonlyArray<string>
  /** Long options whose argument, if any, follows `=` (`nsenter --wd[=dir]`). */
  readonly longOptional?: ReadonlyArray<string>
  /** Options whose argument is the working directory of the command run (`env -C`). */
  readonly chdir?: ReadonlyArray<string>
  /** Options whose argument is a command string (`su -c`). */
  readonly command?: ReadonlyArray<string>
  /** Options that make the whole input opaque (`env -S`). */
  readonly opaque?: ReadonlyArray<string>
  /** Short options that start a shell reading standard input when nothing else is run (`sudo -s`). */
  readonly shells?: string
  /** `nice -10`: a dash and digits is an option. */
  readonly numeric?: boolean
  /** `env -`, `su -`: a lone dash is an option. */
  readonly dash?: boolean
}

export interface State {
  readonly index: number
  readonly cwd: BashParsePlace.Chain
  /** Options seen, as written without their argument (`-u`, `--user`); `?` when too many readings. */
  readonly seen: ReadonlyArray<string>
  readonly strings: ReadonlyArray<{ readonly at: number; readonly value: string | undefined }>
}

export type Words = ReadonlyArray<string | undefined>

export const has = (list: ReadonlyArray<string> | undefined, name: string) => list?.includes(name) === true

/** The option state after `name` took `value` (found in word `at`). */
const took = (spec: Options, state: State, name: string, value: string | undefined, at: number, next: number): State => ({
  index: next,
  seen: [...state.seen, name],
  cwd: has(spec.chdir, name) ? [...state.cwd, value] : state.cwd,
  strings: has(spec.command, name) ? [...state.strings, { at, value }] : state.strings,
})

/** Every long option the table names. */
const longs = (spec: Options): ReadonlyArray<string> =>
  [...(spec.longArgs ?? []), ...(spec.longFlags ?? []), ...(spec.longStops ?? []), ...(spec.longOptional ?? []), ...(spec.chdir ?? []), ...(spec.command ?? []), ...(spec.opaque ?? [])].filter((name) => name.startsWith("--"))

/**
 * The long option `written` means: itself when the table names it, else the one known option it
 * abbreviates (GNU tools accept any unambiguous prefix: `env --chd=dir` is `--chdir`), else
 * itself as an unknown option; undefined when it abbreviates several (read as too many readings).
 */
const longName = (spec: Options, written: string): string | undefined => {
  const known = longs(spec)
  if (known.includes(written) || written === "--") return written
  const expanded = [...new Set(known.filter((name) => name.startsWith(written)))]
  if (expanded.length === 0) return written
  return expanded.length === 1 ? expanded[0] : undefined
}

const flag = (state: State, name: string, next: number): State => ({ ...state, index: next, seen: [...state.seen, name] })

/**
 * Every way the options after `words[start]` can be read; each reading ends at the first operand.
 * Readings past MAX_READINGS, or more than MAX_STEPS steps, give one reading marked `?`.
 */
export const read = (spec: Options, words: Words, start: number, end: number): ReadonlyArray<State> => {
  let steps = 0
  const options = (state: State): ReadonlyArray<State> => {
    const i = state.index
    const word = i < end ? words[i] : undefined
    if (word === undefined || ++steps > MAX_STEPS) return [state]
    if (word === "--") return [flag(state, "--", i + 1)]
    if (word === "-") return spec.dash === true ? options(flag(state, "-", i + 1)) : [state]
    if (spec.numeric === true && /^-\d+$/.test(word)) return options(flag(state, "-n", i + 1))
    if (word.startsWith("--")) {
      const equals = word.indexOf("=")
      const written = equals === -1 ? word : word.slice(0, equals)
      if (written.includes(UNKNOWN)) return [{ ...state, seen: [...state.seen, "?"] }]
      const name = longName(spec, written)
      if (name === undefined) return [{ ...state, seen: [...state.seen, "?"] }]
      if (equals !== -1) return options(took(spec, state, name, word.slice(equals + 1), i, i + 1))
      if (has(spec.longArgs, name)) return options(took(spec, state, name, words[i + 1], i + 1, i + 2))
      if (has(spec.longFlags, name) || has(spec.longStops, name)) return options(flag(state, name, i + 1))
      // No argument (`nsenter --wd`): a directory option names no directory known here.
      if (has(spec.longOptional, name)) return options(took(spec, state, name, undefined, i, i + 1))
      return [...options(flag(state, name, i + 1)), ...options(took(spec, state, name, words[i + 1], i + 1, i + 2))]
    }
    return word.startsWith("-") && word.length > 1 ? cluster(state, word, 1) : [state]
  }
  /** The short options of `word` (in `words[state.index]`) from letter `at`. */
  const cluster = (state: State, word: string, at: number): ReadonlyArray<State> => {
    const i = state.index
    if (at >= word.length || ++steps > MAX_STEPS) return options({ ...state, index: i + 1 })
    const letter = word[at] as string
    if (letter === UNKNOWN) return [{ ...state, seen: [...state.seen, "?"] }]
    const name = `-${letter}`
    const rest = word.slice(at + 1)
    const argument = () => options(rest === "" ? took(spec, state, name, words[i + 1], i + 1, i + 2) : took(spec, state, name, rest, i, i + 1))
    const listed = (letters: string | undefined) => letters?.includes(letter) === true
    if (listed(spec.flags) || listed(spec.stops) || listed(spec.shells)) return cluster({ ...state, seen: [...state.seen, name] }, word, at + 1)
    if (listed(spec.args)) return argument()
    if (listed(spec.attached)) return options(took(spec, state, name, rest === "" ? undefined : rest, i, i + 1))
    return [...cluster({ ...state, seen: [...state.seen, name] }, word, at + 1), ...argument()]
  }
  const states = options({ index: start + 1, cwd: [], seen: [], strings: [] })
  return states.length > MAX_READINGS || steps > MAX_STEPS ? [{ index: end, cwd: [], seen: ["?"], strings: [] }] : states
}

/** Whether an option after which nothing runs was read (`command -v`). */
export const stopped = (spec: Options, state: State) =>
  state.seen.some((name) => (name.length === 2 && spec.stops?.includes(name.slice(1)) === true) || has(spec.longStops, name))

/** Whether a reading met an option that makes the input opaque, or there were too many readings. */
export const isOpaque = (spec: Options, states: ReadonlyArray<State>) => states.some((state) => state.seen.some((name) => name === "?" || has(spec.opaque, name)))

