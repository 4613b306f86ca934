/**
 * One simple command → its permission resources, targets and absolute paths (07). Its readings
 * are the command itself and every command a wrapper in it runs (`sudo timeout 5 rm x` reads as
 * `sudo …`, `timeout 5 rm x` and `rm x`). Resources, in order: the source text as written (with
 * leading assignments and redirections), then each reading normalized — assignments dropped,
 * each word whose value is plain written bare (`\rm` → `rm`, `"push"` → `push`), single spaces,
 * redirections appended — and, for a name with a path (`/bin/rm`), the same with its base name.
 * Gotcha: a wrapper's save keeps its own words up to the inner command's prefix (`sudo rm *`,
 * never `sudo *`), so an "always" can never cover a wrapper form that runs something unseen.
 */
export * as BashParseCommand from "./parse-command.js"

import { BashArity } from "./arity.js"
import type { BashCommand } from "./command.js"
import { BashParsePlace } from "./parse-place.js"
import { BashParseRedirect } from "./parse-redirect.js"
import { BashParseWord } from "./parse-word.js"
import { BashParseWrapper } from "./parse-wrapper.js"

/** Readings of one command (wrappers inside wrappers) past which it is made opaque instead. */
export const MAX_READINGS = 32

/** Commands that run text no parser can see. */
export const OPAQUE: ReadonlyArray<string> = ["eval", "source", "."]
export const MOVES: ReadonlyArray<string> = ["cd", "pushd", "popd"]
export const TEE = "tee"

export interface Input {
  /** Leading `NAME=value` assignments, the name, then the arguments, in source order. */
  readonly words: ReadonlyArray<BashParseWord.Word>
  readonly assignments: number
  readonly redirects: ReadonlyArray<BashParseRedirect.Redirect>
  /** The command's source text with its redirections. */
  readonly text: string
  readonly places: BashParsePlace.Places
  readonly home: string | undefined
  /** CDPATH may be set: a `cd` to a bare relative name can land anywhere. */
  readonly cdpath: boolean
  /** Standard input is a pipe. */
  readonly piped: boolean
}

export interface Output {
  readonly resources: ReadonlyArray<BashCommand.Resource>
  readonly targets: ReadonlyArray<BashCommand.Target>
  readonly paths: ReadonlyArray<string>
  /** Command strings to parse in turn (`sh -c`), each from the places it starts in. */
  readonly strings: ReadonlyArray<{ readonly text: string; readonly places: BashParsePlace.Places }>
  readonly outcome: BashParsePlace.Outcome
  readonly opaque: boolean
}

interface Reading {
  readonly start: number
  readonly end: number
  readonly name: string | undefined
  /** Words the save keeps from `start`; undefined: no save. */
  readonly keep: number | undefined
  readonly cwd: BashParsePlace.Chain
  readonly inShell: boolean
  readonly layer: BashParseWrapper.Layer | undefined
}

const basename = (name: string) => name.slice(name.lastIndexOf("/") + 1)

/** A word in a normalized form: its value when that is plain, else its source text. */
const render = (word: BashParseWord.Word) => (word.literal !== undefined && BashArity.PLAIN.test(word.literal) ? word.literal : word.source)

const readingsOf = (input: Input, rendered: ReadonlyArray<string>): ReadonlyArray<Reading> | undefined => {
  const literals = input.words.map((word) => word.literal)
  let budget = MAX_READINGS
  const visit = (start: number, end: number, cwd: BashParsePlace.Chain, inShell: boolean): ReadonlyArray<Reading> | undefined => {
    if (--budget < 0) return undefined
    const name = literals[start]
    const layer = name === undefined ? undefined : BashParseWrapper.unwrap(literals, start, end)
    const inner = (layer?.inner ?? []).map((entry) => visit(entry.start, entry.end, [...cwd, ...entry.cwd], inShell && layer?.inShell === true))
    if (inner.some((list) => list === undefined)) return undefined
    const lists = inner as ReadonlyArray<ReadonlyArray<Reading>>
    const own = () => BashArity.prefix(rendered.slice(start, end))
    const keeps = lists.map((list) => {
      const first = list[0] as Reading
      return first.keep === undefined ? undefined : first.start - start + first.keep
    })
    const keep =
      layer === undefined || layer.keep === "own"
        ? own()
        : typeof layer.keep === "number"
          ? layer.keep
          : keeps.length === 0
            ? end - start + 1
            : keeps.some((count) => count === undefined)
              ? undefined
              : Math.max(...(keeps as ReadonlyArray<number>))
    return [{ start, end, name, keep, cwd, inShell, layer }, ...lists.flat()]
  }
  return visit(input.assignments, input.words.length, [], true)
}

const isOption = (word: string | undefined) => word !== undefined && /^-[LPe@n]+$/.test(word)

/** `cd`/`pushd`/`popd`: the directory target and where the shell is after it. */
const move = (input: Input, reading: Reading, name: string) => {
  const words = input.words.slice(reading.start + 1, reading.end)
  const operands = words.filter((word, index) => !isOption(word.literal) || words.slice(0, index).some((before) => before.literal === "--"))
  const args = operands.filter((word) => word.literal !== "--")
  const keeps = words.some((word) => word.literal === "-n")
  const first = args[0]
  const rotate = first === undefined || (first.literal !== undefined && /^[+-]\d+$/.test(first.literal))
  const relative = (path: string) => input.cdpath && !path.startsWith("/") && !path.startsWith(".")
  const dir = first === undefined ? input.home : first.literal === "-" || first.path === undefined || relative(first.path) ? undefined : first.path
  const places = input.places
  const targets = (path: string | undefined) => places.map((place) => ({ kind: "directory" as const, path, cwd: [...place.cwd, ...reading.cwd] }))
  const consumed = new Set(args.slice(0, 1))
  if (name === "popd") return { targets: [], consumed, outcome: keeps ? BashParsePlace.same(places) : { ok: args.length === 0 ? BashParsePlace.pop(places) : BashParsePlace.enter(places, undefined), failed: places } }
  if (name === "pushd") {
    if (keeps) return { targets: targets(dir), consumed, outcome: BashParsePlace.same(places) }
    return { targets: rotate ? [] : targets(dir), consumed, outcome: { ok: BashParsePlace.push(places, rotate ? undefined : dir), failed: places } }
  }
  return { targets: targets(dir), consumed, outcome: { ok: BashParsePlace.enter(places, dir), failed: places } }
}

/** `tee [options] files…`: every operand is a file target (GNU tee reads options anywhere). */
const tee = (input: Input, reading: Reading) => {
  const words = input.words.slice(reading.start + 1, reading.end)
  const end = words.findIndex((word) => word.literal === "--")
  const files = words.filter((word, index) => (end !== -1 && index > end) || (word.literal !== undefined && !word.literal.startsWith("-")) || word.literal === undefined)
  const targets = files
    .filter((word) => !BashParseWord.isNotFile(word))
    .flatMap((word) => input.places.map((place) => ({ kind: "file" as const, path: word.path, cwd: [...place.cwd, ...reading.cwd] })))
  return { targets, consumed: new Set(files) }
}

const opaqueOutput = (input: Input): Output => ({
  resources: [],
  targets: BashParseRedirect.targets(input.redirects, input.places),
  paths: [],
  strings: [],
  outcome: BashParsePlace.same(BashParsePlace.unknown(input.places)),
  opaque: true,
})

/** Text generated by another command: `<(cmd)`, a `/dev/fd` path at run time. */
const generated = (word: BashParseWord.Word | undefined) => word !== undefined && word.source.startsWith("<(")

/**
 * Whether a reading runs something no parser can see: `eval`, `source`, a name that expands, a
 * wrapper option or string that makes it so, or a shell whose script comes from another command
 * (a heredoc, a here-string, `< <(cmd)`, `<(cmd)`, or a pipe into its standard input).
 */
const hides = (input: Input, readings: ReadonlyArray<Reading>) => {
  const reads = input.redirects.filter((redirect) => redirect.kind === "read")
  const fed =
    input.redirects.some((redirect) => redirect.kind === "stdin") || reads.some((redirect) => generated(redirect.file)) || (input.piped && reads.length === 0)
  return readings.some(
    (reading) =>
      reading.name === undefined ||
      OPAQUE.includes(basename(reading.name)) ||
      reading.layer?.opaque === true ||
      reading.layer?.strings.some((text) => text === undefined) === true ||
      (reading.layer?.stdin === true && fed) ||
      (reading.layer?.script !== undefined && generated(input.words[reading.layer.script])),
  )
}

export const analyze = (input: Input): Output => {
  const { words, redirects, places } = input
  const rendered = words.map(render)
  const readings = readingsOf(input, rendered)
  if (readings === undefined || hides(input, readings)) return opaqueOutput(input)

  const tail = redirects.map((redirect) => redirect.text)
  const form = (texts: ReadonlyArray<string>, end: number) => [...texts, ...(end === words.length ? tail : [])].join(" ")
  const nameOf = (reading: Reading) => basename(reading.name as string)
  const moves = readings.flatMap((reading) => (MOVES.includes(nameOf(reading)) ? [{ reading, ...move(input, reading, nameOf(reading)) }] : []))
  const shell = moves.find((entry) => entry.reading.inShell)
  // `cd x`, `builtin cd x`: the shell moving itself is not a resource (07); `sudo cd x` is.
  const moving = shell !== undefined && readings.every((reading) => MOVES.includes(nameOf(reading)) || reading.layer?.inShell === true)
  const forms = readings.flatMap((reading): ReadonlyArray<BashCommand.Resource> => {
    const name = nameOf(reading)
    if (MOVES.includes(name)) return []
    const texts = rendered.slice(reading.start, reading.end)
    const save = (list: ReadonlyArray<string>) => (reading.keep === undefined ? undefined : BashArity.pattern(list, reading.keep))
    const based = [name, ...texts.slice(1)]
    const short = name !== reading.name && BashArity.PLAIN.test(name) ? [{ text: form(based, reading.end), save: save(based) }] : []
    return [{ text: form(texts, reading.end), save: save(texts) }, ...short]
  })
  const top = readings[0] as Reading
  const raw = { text: input.text, save: top.keep === undefined ? undefined : BashArity.pattern(words.map((word) => word.source), input.assignments + top.keep) }

  const tees = readings.flatMap((reading) => (nameOf(reading) === TEE ? [tee(input, reading)] : []))
  const consumed = new Set([...moves, ...tees].flatMap((entry) => Array.from(entry.consumed)))
  const names = new Set(readings.map((reading) => reading.start))
  const inputs = redirects.flatMap((redirect) => (redirect.kind === "read" && redirect.file !== undefined ? [redirect.file] : []))
  const paths = [...words.filter((word, index) => index > input.assignments && !names.has(index) && !consumed.has(word)), ...inputs]
    .flatMap((word) => (word.path?.startsWith("/") === true && !BashParseWord.isDevice(word.path) ? [word.path] : []))
  return {
    resources: moving ? [] : [raw, ...forms],
    targets: [...BashParseRedirect.targets(redirects, places), ...moves.flatMap((entry) => entry.targets), ...tees.flatMap((entry) => entry.targets)],
    paths,
    strings: readings.flatMap((reading) =>
      (reading.layer?.strings ?? []).map((text) => ({ text: text as string, places: BashParsePlace.child(places, reading.cwd) })),
    ),
    outcome: shell?.outcome ?? BashParsePlace.same(places),
    opaque: false,
  }
}
