/**
 * How BashPrograms reads one program's words (07): its option table read with BashParseOption —
 * short clusters (`-uo out`, `-oout`), long options with `=` or a separate value, GNU
 * abbreviations (`--out=f` is `--output`), options after operands unless `ordered` — and the
 * verdict: opaque (the program runs something its words do not show) or the files and
 * directories it writes. Gotcha: a word that is not static where an option could be (`$X`,
 * `"$X"`, `*`) might be any option, so it makes the verdict opaque; a value that is not static
 * is a write to an unknown path.
 */
export * as BashProgramsScan from "./programs-scan.js"

import type { BashCommand } from "./command.js"
import { BashParseLayer } from "./parse-layer.js"
import { BashParseOption } from "./parse-option.js"
import type { BashParsePlace } from "./parse-place.js"
import { BashParseWord } from "./parse-word.js"

/** A file or directory a program writes, relative to where it runs after the `cd`s in `cwd`. */
export interface Write {
  readonly kind: "file" | "directory"
  readonly path: string | undefined
  readonly cwd: BashParsePlace.Chain
  /** What lands in the path when it is a folder (BashCommand.Source). */
  readonly sources?: ReadonlyArray<BashCommand.Source>
}

export interface Verdict {
  /** It runs something its words do not show: the whole input is opaque. */
  readonly opaque: boolean
  readonly writes: ReadonlyArray<Write>
}

export type Words = ReadonlyArray<BashParseWord.Word>

/** Judges the program named by `words[start]` over its words up to `end`. */
export type Program = (words: Words, start: number, end: number) => Verdict

export const CLEAR: Verdict = { opaque: false, writes: [] }
export const OPAQUE: Verdict = { opaque: true, writes: [] }

/** How one program's options read, and which of them write. */
export interface Spec extends BashParseOption.Options {
  /** Options whose value is a file it writes (`sort -o`). */
  readonly files?: ReadonlyArray<string>
  /** Options whose value is a directory it writes into (`wget -P`). */
  readonly directories?: ReadonlyArray<string>
  /** More options whose values the program's own judge reads (`sed -e`). */
  readonly values?: ReadonlyArray<string>
  /** Options end at the first operand (POSIX, `awk`); by default they may follow operands (GNU). */
  readonly ordered?: boolean
}

/** An option's value: the separate word it is, or the rest of the option's own word. */
export interface Value {
  readonly name: string
  readonly value: string | undefined
  /** The word the value is, when it is a word of its own (its path has `~` expanded). */
  readonly word: BashParseWord.Word | undefined
}

/** One reading of a program's options. */
export interface Reading {
  readonly seen: ReadonlyArray<string>
  readonly cwd: BashParsePlace.Chain
  readonly values: ReadonlyArray<Value>
  readonly operands: ReadonlyArray<number>
}

export interface Read {
  readonly words: Words
  readonly start: number
  readonly end: number
  readonly readings: ReadonlyArray<Reading>
  /** A word that is not static stands where an option could (`sort $X`). */
  readonly loose: boolean
}

export const union = (verdicts: ReadonlyArray<Verdict>): Verdict => ({ opaque: verdicts.some((verdict) => verdict.opaque), writes: verdicts.flatMap((verdict) => verdict.writes) })

/** A word that is not static and may expand to an option: it does not start with a static character other than `-` or `+`. */
const MAY_BE_OPTION = /^["']?(?:[-+$`*?[{\\]|$)/
/** The static start of an option whose value expands (`-j$(nproc)`, `--output="$f"`): the option is known, its value is not. */
const STATIC_OPTION = /^(?:-[A-Za-z0-9]|--[A-Za-z0-9][A-Za-z0-9-]*=)[A-Za-z0-9_=.,/:@%+-]*/

/** Stands for the part of an option word that expands: a value holding it is unknown (parse-option.ts). */
export const UNKNOWN = BashParseOption.UNKNOWN

/**
 * A word's value as an option reader sees it: its literal; for an option whose value expands
 * (`-o"$f"`), the option with UNKNOWN as its value; else undefined.
 */
export const literalOf = (word: BashParseWord.Word): string | undefined => {
  if (word.literal !== undefined) return word.literal
  const known = STATIC_OPTION.exec(word.source)?.[0]
  return known === undefined ? undefined : `${known}${UNKNOWN}`
}

/**
 * Whether an option word's name expands (a short cluster with an expanding part, a long option
 * expanding before its `=`): it could be any option, so a reader without the program's table of
 * letters must not take it for the one its static part starts. `-fprin{t..t}` is `-fprint`.
 * @example BashProgramsScan.nameExpands("-exe\u0000") // true; nameExpands("--output=\u0000") // false
 */
export const nameExpands = (literal: string | undefined): boolean => {
  if (literal === undefined || !literal.startsWith("-") || !literal.includes(UNKNOWN)) return false
  const equals = literal.indexOf("=")
  return !literal.startsWith("--") || equals === -1 || literal.indexOf(UNKNOWN) < equals
}

/** A value that is static, with nothing of it expanding. */
export const known = (value: string | undefined): value is string => value !== undefined && !value.includes(UNKNOWN)

/** Whether a word may be an option the words do not show: it expands where an option could start, or its option name expands (`nameExpands`). */
export const mayBeOption = (word: BashParseWord.Word | undefined): boolean => {
  if (word === undefined) return false
  const literal = literalOf(word)
  return literal === undefined ? MAY_BE_OPTION.test(word.source) : nameExpands(literal)
}

/**
 * The write of a word: its path, unknown when not static or when `find -exec`/`xargs` fill it
 * in (`{}`); none for a device, a process substitution or `-` (standard output).
 */
export const written = (word: BashParseWord.Word, kind: Write["kind"] = "file", cwd: BashParsePlace.Chain = []): ReadonlyArray<Write> => {
  if (BashParseWord.isNotFile(word) || word.literal === "-") return []
  return [{ kind, path: word.literal?.includes("{}") === true ? undefined : word.path, cwd }]
}

/** A write whose path cannot be known (a backup's name made with a suffix, a split's output that may complete a protected name). */
export const UNPLACED: Write = { kind: "file", path: undefined, cwd: [] }

/** The write of an option's value (`-ofile` is `file`, with no `~` expansion). */
export const writtenValue = (value: Value, kind: Write["kind"] = "file", cwd: BashParsePlace.Chain = []): ReadonlyArray<Write> => {
  if (value.word !== undefined) return written(value.word, kind, cwd)
  const text = value.value
  if (text === undefined || text.includes(UNKNOWN)) return [{ kind, path: undefined, cwd }]
  if (text === "-" || BashParseWord.isDevice(text)) return []
  return [{ kind, path: text.includes("{}") ? undefined : text, cwd }]
}

const letters = (names: ReadonlyArray<string>) =>
  names
    .filter((name) => /^-[^-]$/.test(name))
    .map((name) => name.slice(1))
    .join("")

/** A spec as BashParseOption reads it: its writing and judged options take a value and are captured. */
interface Prepared {
  readonly spec: Spec
  readonly options: BashParseOption.Options
  readonly captured: ReadonlyArray<string>
}

const prepare = (spec: Spec): Prepared => {
  const captured = [...(spec.files ?? []), ...(spec.directories ?? []), ...(spec.values ?? [])]
  const options: BashParseOption.Options = {
    ...spec,
    args: `${spec.args ?? ""}${letters(captured)}`,
    longArgs: [...(spec.longArgs ?? []), ...captured.filter((name) => name.startsWith("--"))],
    command: captured,
  }
  return { spec, options, captured }
}

/** Every reading of a program's options, with the values of its writing and judged options. */
const read = ({ spec, options, captured }: Prepared, words: Words, start: number, end: number): Read => {
  const literals = words.map(literalOf)
  const states: ReadonlyArray<BashParseLayer.Reading> = spec.ordered
    ? BashParseOption.read(options, literals, start, end).map((state) => {
        const rest = Array.from({ length: Math.max(0, end - state.index) }, (_, n) => state.index + n)
        return { ...state, operands: rest, loose: state.index < end && state.seen.at(-1) !== "--" ? [state.index] : [] }
      })
    : BashParseLayer.permuted(options, literals, start, end)
  const readings = states.map((state): Reading => {
    const named = state.seen.filter((name) => captured.includes(name))
    const values = state.strings.flatMap((entry, index): ReadonlyArray<Value> => {
      if (entry.at >= end) return []
      const word = words[entry.at]
      const separate = word !== undefined && literalOf(word) === entry.value
      return [{ name: named[index] as string, value: entry.value, word: separate ? word : undefined }]
    })
    return { seen: state.seen, cwd: state.cwd, values, operands: state.operands }
  })
  return { words, start, end, readings, loose: states.some((state) => state.loose.some((at) => mayBeOption(words[at]))) }
}

/** Whether a reading met an option that makes the program opaque, or there were too many readings. */
export const isOpaque = (spec: Spec, read: Read): boolean =>
  read.loose || read.readings.some((reading) => reading.seen.some((name) => name === "?" || BashParseOption.has(spec.opaque, name)))

/**
 * A program read by its option table: opaque when an `opaque` option is read (in any reading,
 * `?` included) or a word that is not static could be an option; else the values of its
 * `files` and `directories` options, and what `judge` adds.
 * @example BashProgramsScan.scan({ files: ["-o"] })(words("sort -o /etc/x f"), 0, 4).writes // [{ kind: "file", path: "/etc/x", cwd: [] }]
 */
export const scan = (spec: Spec, judge?: (read: Read) => Verdict): Program => {
  const prepared = prepare(spec)
  return (words, start, end) => {
    const found = read(prepared, words, start, end)
    if (isOpaque(spec, found)) return OPAQUE
    const writes = found.readings.flatMap((reading) =>
      reading.values.flatMap((value) =>
        BashParseOption.has(spec.files, value.name) ? writtenValue(value) : BashParseOption.has(spec.directories, value.name) ? writtenValue(value, "directory") : [],
      ),
    )
    const more = judge?.(found) ?? CLEAR
    return { opaque: more.opaque, writes: [...writes, ...more.writes] }
  }
}

/** The options of a reading that are any of `names`. */
export const saw = (reading: Reading, names: ReadonlyArray<string>): boolean => reading.seen.some((name) => names.includes(name))
