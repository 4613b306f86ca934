/**
 * One simple command → its permission resources, targets and absolute paths (07). Its readings
 * are the command itself and every command a wrapper in it runs (`sudo timeout 5 rm x` reads as
 * `sudo …`, `timeout 5 rm x` and `rm x`). Resources, in order: the source text as written (with
 * leading assignments and redirections), then each reading normalized — assignments dropped,
 * each word whose value is plain written bare (`\rm` → `rm`, `"push"` → `push`), single spaces,
 * redirections appended — and, for a name with a path (`/bin/rm`), the same with its base name;
 * then the reading with the options before its sub-command dropped (`git push` for `git -C . push`),
 * and git's other spellings of what it runs (`git push` for `git-push` or `git send-pack`).
 * Gotcha: a wrapper's save keeps its own words up to the inner command's prefix (`sudo rm *`,
 * never `sudo *`), so an "always" can never cover a wrapper form that runs something unseen.
 * A command is opaque when a reading of it cannot be judged by its words: see `hides`.
 */
export * as BashParseCommand from "./parse-command.js"

import { BashArity } from "./arity.js"
import type { BashCommand } from "./command.js"
import { BashInputWrites } from "./parse-input-writes.js"
import { BashParseGuard } from "./parse-guard.js"
import { BashParseLink } from "./parse-link.js"
import { BashParseOperation } from "./parse-operation.js"
import { BashParsePlace } from "./parse-place.js"
import { BashParseRedirect } from "./parse-redirect.js"
import { BashParseWord } from "./parse-word.js"
import { BashParseWrapper } from "./parse-wrapper.js"
import { BashPrograms } from "./programs.js"
import { BashProgramsScan } from "./programs-scan.js"
import { BashProgramsGit } from "./programs-git.js"
import { BashSynonyms } from "./synonyms.js"

/** Readings of one command (wrappers inside wrappers) past which it is made opaque instead. */
export const MAX_READINGS = 32

/**
 * Commands that run text no parser can see, or change how bash reads or finds what comes next:
 * `alias` (with `expand_aliases`, or under `sh`), `shopt`, `hash` (`hash -p /bin/rm ls`),
 * `enable` (loads builtins), `coproc` (`coproc NAME { …; }` hides its body from the grammar),
 * `let` (arithmetic on names), the completion and key-binding builtins that run commands.
 */
export const OPAQUE: ReadonlyArray<string> = ["eval", "source", ".", "alias", "shopt", "hash", "enable", "coproc", "let", "bind", "complete", "compgen", "fc"]
/**
 * Commands that change what paths mean: after `mount --bind /outside m` (or a FUSE mount, a loop
 * device, a new root) a write to `m/x` lands outside while its words say inside. Also any
 * `mount.<type>` helper.
 */
export const REMOUNTS: ReadonlyArray<string> = ["mount", "umount", "pivot_root", "switch_root", "losetup", "fusermount", "fusermount3", "bindfs", "sshfs", "fuse-overlayfs", "squashfuse", "guestmount"]
const remounts = (name: string) => REMOUNTS.includes(name) || /^u?mount\./.test(name)
/** Bash's reserved words: never a command name in a correct parse (`time if …; then rm x; fi`). */
export const RESERVED: ReadonlyArray<string> = ["if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in", "function", "{", "}", "!", "[[", "]]"]
/** Bash builtins (`compgen -b`): they may read their arguments as names or code. */
export const BUILTINS: ReadonlyArray<string> = [
  ...[".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete", "compopt", "continue", "declare", "dirs"],
  ...["disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let"],
  ...["local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift", "shopt", "source"],
  ...["suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait"],
]
/** Builtins whose arguments are plain data (`printf -v` is checked on its own). */
const INERT_BUILTINS: ReadonlyArray<string> = ["echo", "printf", ":", "true", "false"]
/** Declarations: as a grammar keyword they are checked on the tree; wrapped (`builtin declare`) they are opaque. */
const DECLARATIONS: ReadonlyArray<string> = ["declare", "typeset", "local", "export", "readonly", "unset"]
export const MOVES: ReadonlyArray<string> = ["cd", "pushd", "popd"]
/**
 * Builtins that keep a command string the shell itself runs later, between or after the line's
 * other commands: a trap (`DEBUG` before each command, `ERR`, `RETURN`, a signal) and mapfile's
 * `-C` callback. A `cd` in one moves every command after it at a point the line does not show.
 */
const LATER: ReadonlyArray<string> = ["trap", "mapfile", "readarray"]
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
  /** The directory stack, OLDPWD or cdable_vars may be rewritten: no `cd`/`pushd`/`popd` lands anywhere known. */
  readonly unsettled: boolean
  /** Standard input is a pipe. */
  readonly piped: boolean
  /** The name is a grammar keyword (`declare`, `export`, `unset`), whose words the tree checks. */
  readonly keyword: boolean
}

export interface Output {
  readonly resources: ReadonlyArray<BashCommand.Resource>
  readonly targets: ReadonlyArray<BashCommand.Target>
  readonly paths: ReadonlyArray<string>
  /** Command strings to parse in turn (`sh -c`), each from the places it starts in. */
  readonly strings: ReadonlyArray<{ readonly text: string; readonly places: BashParsePlace.Places }>
  readonly outcome: BashParsePlace.Outcome
  readonly opaque: boolean
  /** Every reading reads its arguments as plain data: a quoted `$(` in them is literal text. */
  readonly inert: boolean
  /** A reading may create or replace a path with a link (BashParseLink): other commands' targets become unknowable. */
  readonly links: boolean
  /** The shell moving itself (`cd x`, `builtin pushd y`): the move's name, which is no resource. */
  readonly moves: string | undefined
  /** Its strings run later in the shell itself, at points the line does not show (a trap, mapfile's callback). */
  readonly later: boolean
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
  const known = first === undefined ? input.home : first.literal === "-" || first.path === undefined || relative(first.path) ? undefined : first.path
  const dir = input.unsettled ? undefined : known
  const places = input.places
  const targets = (path: string | undefined) => places.map((place) => ({ kind: "directory" as const, path, cwd: [...place.cwd, ...reading.cwd], entered: true }))
  const consumed = new Set(args.slice(0, 1))
  if (name === "popd") {
    const back = args.length === 0 && !input.unsettled ? BashParsePlace.pop(places) : BashParsePlace.enter(places, undefined)
    return { targets: [], consumed, outcome: keeps ? BashParsePlace.same(places) : { ok: back, failed: places } }
  }
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
  inert: false,
  links: true,
  moves: undefined,
  later: false,
})

/** Text generated by another command: `<(cmd)`, a `/dev/fd` path at run time. */
const generated = (word: BashParseWord.Word | undefined) => word !== undefined && word.source.startsWith("<(")

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Whether the option words of a getopt-style builtin name a variable that is not a plain
 * identifier: the operands, and the argument of each option letter in `naming` (`read -a`).
 * Letters in `taking` take an argument (the rest of the word, or the next one).
 */
const badNames = (literals: ReadonlyArray<string>, taking: string, naming: string): boolean => {
  for (let i = 0; i < literals.length; i++) {
    const word = literals[i] as string
    if (word === "--") return literals.slice(i + 1).some((name) => !IDENTIFIER.test(name))
    if (!word.startsWith("-") || word === "-") return literals.slice(i).some((name) => !IDENTIFIER.test(name))
    for (let at = 1; at < word.length; at++) {
      const letter = word[at] as string
      if (!taking.includes(letter)) continue
      const argument = at + 1 < word.length ? word.slice(at + 1) : literals[++i]
      if (naming.includes(letter) && (argument === undefined || !IDENTIFIER.test(argument))) return true
      break
    }
  }
  return false
}

/** `$!`: the last background job's process id, always a number. */
const LAST_JOB = /^"?\$!"?$/

/**
 * Builtins that evaluate a subscript in a variable name (`read 'a[$(cmd)]'`, `printf -v`,
 * `mapfile`, `getopts`, `wait -p`, `unset`, `test -v`, and `test`/`[` with an operator that could
 * come from an expansion), and `set -x`, which traces with PS4 (code). Names must be static
 * identifiers; words that could be options must be static.
 */
const evaluatesNames = (input: Input, reading: Reading, name: string): boolean => {
  const args = input.words.slice(reading.start + 1, reading.end)
  const literals = args.map((word) => word.literal)
  const fixed = literals.every((literal) => literal !== undefined)
  const known = literals as ReadonlyArray<string>
  switch (name) {
    case "test":
    case "[":
      return BashParseGuard.testArguments(name === "[" && literals.at(-1) === "]" ? args.slice(0, -1) : args)
    case "printf": {
      const first = literals[0]
      if (args.length === 0 || (first !== undefined && !first.startsWith("-v"))) return false
      const target = first === "-v" ? literals[1] : first?.slice(2)
      return target === undefined || !IDENTIFIER.test(target)
    }
    case "read":
      return !fixed || badNames(known, "adinNptu", "a")
    case "mapfile":
    case "readarray":
      return !fixed || badNames(known, "dnOsuCc", "")
    case "getopts":
      return literals[0] === undefined || literals[1] === undefined || !IDENTIFIER.test(literals[1])
    case "wait":
      return args.some((word) => (word.literal === undefined ? !LAST_JOB.test(word.source) : /^-[a-z]*p/.test(word.literal)))
    case "unset":
      // The grammar reads `unset X`'s operand as a variable name node, which has no word value.
      return args.some((word) => {
        const literal = word.literal ?? (IDENTIFIER.test(word.source) ? word.source : undefined)
        return literal === undefined || (!/^-[fvn]+$/.test(literal) && !IDENTIFIER.test(literal))
      })
    case "set": {
      const end = literals.indexOf("--")
      const options = end === -1 ? literals : literals.slice(0, end)
      // `-x` traces with PS4 (code); `-k` makes every `NAME=value` argument an environment assignment.
      return options.some((literal) => literal === undefined || literal === "xtrace" || literal === "keyword" || (/^[-+][A-Za-z]*$/.test(literal) && /[xk]/.test(literal)))
    }
    default:
      return false
  }
}

/**
 * A word inside a reading's arity window (`git <sub-command>`) that expands (`git $'push'`,
 * `git $X`): the reading cannot be judged as `git <something>`. A word that starts with a dash
 * is an option whatever it expands to (`make -j$(nproc)`).
 */
const dynamicPrefix = (input: Input, reading: Reading, rendered: ReadonlyArray<string>) => {
  const count = BashArity.arity(rendered.slice(reading.start, reading.end))
  return input.words.slice(reading.start + 1, reading.start + count).some((word) => word.literal === undefined && !word.source.startsWith("-"))
}

/**
 * The words of a reading its runner may complete (`xargs`, `find -exec`): its name and
 * arity window; a wrapper's own words; a shell's words up to its `-c` string; all of them for
 * anything else that runs a command (`find`, `bash script.sh`).
 */
const zone = (reading: Reading, rendered: ReadonlyArray<string>): number => {
  const layer = reading.layer
  if (layer === undefined) return reading.start + BashArity.arity(rendered.slice(reading.start, reading.end))
  if (layer.inner.length > 0) return Math.min(...layer.inner.map((entry) => entry.start))
  const shell = reading.name !== undefined && BashParseWrapper.isShell(basename(reading.name))
  return shell && layer.strings.length > 0 && typeof layer.keep === "number" ? reading.start + layer.keep + 1 : reading.end
}

/**
 * Whether what `xargs` or `find -exec` add at run time could choose the command: `{}` or the
 * `-I` string in a name, a sub-command or a command string (`find -exec sh -c {} \;`), or plain
 * `xargs` input appended where the command is not complete (`xargs git`, `xargs env`, `xargs
 * bash -c`). Only a shell with a static `-c` string takes appended words as plain arguments.
 */
const filled = (input: Input, readings: ReadonlyArray<Reading>, rendered: ReadonlyArray<string>) =>
  readings.some((runner) => {
    const fills = runner.layer?.fills
    if (fills === undefined) return false
    return (runner.layer?.inner ?? []).some((entry) => {
      const inside = readings.filter((reading) => reading !== runner && reading.start >= entry.start && reading.end <= entry.end)
      const token = fills.token
      const placed =
        token !== undefined && inside.some((reading) => input.words.slice(reading.start, zone(reading, rendered)).some((word) => (word.literal ?? word.source).includes(token)))
      const appended =
        fills.append &&
        inside
          .filter((reading) => reading.end === entry.end && !(reading.layer?.inner ?? []).some((next) => next.end === entry.end))
          .some((reading) => {
            const layer = reading.layer
            if (layer === undefined) return reading.end - reading.start < BashArity.arity(rendered.slice(reading.start, reading.end))
            const shell = reading.name !== undefined && BashParseWrapper.isShell(basename(reading.name))
            return !(shell && layer.strings.length > 0)
          })
      return placed || appended
    })
  })

/**
 * A command whose leading options are all harmless or name its directory (`git -C src status`,
 * BashParseOperation.plain) is judged as its operation (`git status`, with `src` a directory
 * target), so that a rule for the operation allows it; an "always" saves the operation's pattern.
 */
const cleanly = (input: Input, reading: Reading, rendered: ReadonlyArray<string>, form: (texts: ReadonlyArray<string>, end: number) => string) => {
  const words = input.words.slice(reading.start, reading.end)
  const found = BashParseOperation.plain(
    words.map((word) => word.literal ?? word.source),
    (index) => words[index]?.literal !== undefined,
  )
  if (found === undefined) return undefined
  const name = basename(reading.name as string)
  const texts = [name, ...rendered.slice(reading.start + found.at, reading.end)]
  const keep = BashArity.prefix(texts)
  const bare = reading.end === input.words.length && input.redirects.length > 0 ? [{ text: texts.join(" "), save: undefined }] : []
  const spelled = BashSynonyms.spellings(texts)
  if (spelled === undefined) return undefined
  const synonyms = spelled.map((words) => ({ text: form(words, reading.end), save: undefined }))
  const resources = [{ text: form(texts, reading.end), save: keep === undefined ? undefined : BashArity.pattern(texts, keep) }, ...bare, ...synonyms]
  const targets = input.places.flatMap((place) =>
    found.directories.map((directory, index) => ({ kind: "directory" as const, path: directory, cwd: [...place.cwd, ...reading.cwd, ...found.directories.slice(0, index)], entered: true })),
  )
  return { resources, targets }
}

/** Whether `xargs` completes `reading` with words from its input (appended, or in place of its `-I` string). */
const fedByXargs = (reading: Reading, readings: ReadonlyArray<Reading>) =>
  readings.some(
    (runner) => runner !== reading && runner.name !== undefined && basename(runner.name) === "xargs" && (runner.layer?.inner ?? []).some((entry) => reading.start >= entry.start && reading.end === entry.end),
  )

/**
 * Whether a reading runs something no parser can see: `eval`, `source`, a name that expands, a
 * wrapper option or string that makes it so, a shell whose script comes from another command
 * (a heredoc, a here-string, `< <(cmd)`, `<(cmd)`, or a pipe into its standard input), a reserved
 * word or `=word` as a name (the grammar misread a compound command; zsh's `=cmd`), a builtin
 * that evaluates a variable name, a sub-command that expands, or a command `xargs`/`find` complete.
 */
const hides = (input: Input, readings: ReadonlyArray<Reading>, rendered: ReadonlyArray<string>) => {
  const reads = input.redirects.filter((redirect) => redirect.kind === "read")
  const fed =
    input.redirects.some((redirect) => redirect.kind === "stdin") || reads.some((redirect) => generated(redirect.file)) || (input.piped && reads.length === 0)
  return (
    readings.some((reading) => {
      if (reading.name === undefined) return true
      const name = basename(reading.name)
      const keyword = input.keyword && reading.start === input.assignments
      return (
        OPAQUE.includes(name) ||
        remounts(name) ||
        RESERVED.includes(reading.name) ||
        reading.name.startsWith("=") ||
        (DECLARATIONS.includes(name) && !keyword) ||
        evaluatesNames(input, reading, name) ||
        dynamicPrefix(input, reading, rendered) ||
        reading.layer?.opaque === true ||
        reading.layer?.strings.some((text) => text === undefined) === true ||
        (reading.layer?.stdin === true && fed) ||
        (reading.layer?.script !== undefined && generated(input.words[reading.layer.script]))
      )
    }) || filled(input, readings, rendered)
  )
}

export const analyze = (input: Input): Output => {
  const { words, redirects, places } = input
  const rendered = words.map(render)
  const readings = readingsOf(input, rendered)
  if (readings === undefined || hides(input, readings, rendered)) return opaqueOutput(input)
  // `git -C . push`: the operation behind the options, never saved; a reading that cannot be judged so is opaque.
  const operationsOf = readings.map((reading) =>
    BashParseOperation.forms(
      input.words.slice(reading.start, reading.end).map((word) => word.literal ?? word.source),
      rendered.slice(reading.start, reading.end),
      (index) => input.words[reading.start + index]?.literal !== undefined,
    ),
  )
  if (operationsOf.some((found) => found === undefined)) return opaqueOutput(input)
  // `git-push x`, `git send-pack x` are also `git push x`, `docker image push` is `docker push`: a rule judges what they do.
  const synonymsOf = readings.map((reading, index) => {
    const name = basename(reading.name as string)
    const spelled = [[name, ...rendered.slice(reading.start + 1, reading.end)], ...(operationsOf[index] ?? []).map((found) => [name, ...found.slice(1)])]
    const found = spelled.map(BashSynonyms.spellings)
    return found.some((list) => list === undefined) ? undefined : found.flatMap((list) => list ?? [])
  })
  if (synonymsOf.some((found) => found === undefined)) return opaqueOutput(input)
  // A program that runs what its words do not show (`rg --pre`) is opaque; what it writes through its options is a target (`sort -o`).
  // What xargs adds to a program whose every operand is a write (`xargs rm`) is a write to an unknown path.
  const fedOperands = (reading: Reading) => fedByXargs(reading, readings) && BashPrograms.OPERANDS.has(basename(reading.name as string))
  const programs = readings.map((reading) => {
    const verdict = BashPrograms.judge(input.words, reading.start, reading.end)
    return { reading, verdict: fedOperands(reading) ? { ...verdict, writes: [...verdict.writes, BashProgramsScan.UNPLACED] } : verdict }
  })
  if (programs.some((entry) => entry.verdict.opaque)) return opaqueOutput(input)
  // What xargs adds at run time may be an option of a program in the table (`--output=/outside/x`, `-i` operands).
  const optioned = (reading: Reading) => {
    const name = basename(reading.name as string)
    if (BashPrograms.OPERANDS.has(name)) return false
    return name === "git" ? BashProgramsGit.takesOptions(input.words, reading.start, reading.end) : BashPrograms.programOf(name) !== undefined
  }
  if (readings.some((reading) => fedByXargs(reading, readings) && optioned(reading))) return opaqueOutput(input)

  const tail = redirects.map((redirect) => redirect.text)
  const form = (texts: ReadonlyArray<string>, end: number) => [...texts, ...(end === words.length ? tail : [])].join(" ")
  const nameOf = (reading: Reading) => basename(reading.name as string)
  const moves = readings.flatMap((reading) => (MOVES.includes(nameOf(reading)) ? [{ reading, ...move(input, reading, nameOf(reading)) }] : []))
  const shell = moves.find((entry) => entry.reading.inShell)
  // `cd x`, `builtin cd x`: the shell moving itself is not a resource (07); `sudo cd x` is.
  const moving = shell !== undefined && readings.every((reading) => MOVES.includes(nameOf(reading)) || reading.layer?.inShell === true)
  const forms = readings.flatMap((reading, readingIndex): ReadonlyArray<BashCommand.Resource> => {
    const name = nameOf(reading)
    if (MOVES.includes(name)) return []
    const texts = rendered.slice(reading.start, reading.end)
    const save = (list: ReadonlyArray<string>) => (reading.keep === undefined ? undefined : BashArity.pattern(list, reading.keep))
    const based = [name, ...texts.slice(1)]
    const plainName = name !== reading.name && BashArity.PLAIN.test(name)
    const short = plainName ? [{ text: form(based, reading.end), save: save(based) }] : []
    const operations = (operationsOf[readingIndex] ?? []).flatMap((words) => [
      { text: form(words, reading.end), save: undefined },
      ...(plainName ? [{ text: form([name, ...words.slice(1)], reading.end), save: undefined }] : []),
    ])
    // `echo hi 2>&1` is also `echo hi`: an exact rule for the command (a deny) still matches.
    const bare = reading.end === words.length && tail.length > 0 ? [{ text: texts.join(" "), save: undefined }] : []
    const synonyms = (synonymsOf[readingIndex] ?? []).map((found) => ({ text: form(found, reading.end), save: undefined }))
    return [{ text: form(texts, reading.end), save: save(texts) }, ...short, ...operations, ...bare, ...synonyms]
  })
  const top = readings[0] as Reading
  const raw = { text: input.text, save: top.keep === undefined ? undefined : BashArity.pattern(words.map((word) => word.source), input.assignments + top.keep) }
  const clean = readings.length === 1 ? cleanly(input, top, rendered, form) : undefined

  const tees = readings.flatMap((reading) => (nameOf(reading) === TEE ? [tee(input, reading)] : []))
  const consumed = new Set([...moves, ...tees].flatMap((entry) => Array.from(entry.consumed)))
  const names = new Set(readings.map((reading) => reading.start))
  const inputs = redirects.flatMap((redirect) => (redirect.kind === "read" && redirect.file !== undefined ? [redirect.file] : []))
  const paths = [...words.filter((word, index) => index > input.assignments && !names.has(index) && !consumed.has(word)), ...inputs]
    .flatMap((word) => (word.path?.startsWith("/") === true && !BashParseWord.isDevice(word.path) ? [word.path] : []))
  return {
    // Leading assignments left in the line name no program (else it is opaque): the forms without them judge it.
    resources: moving ? [] : clean !== undefined ? clean.resources : [...(input.assignments > 0 ? [] : [raw]), ...forms],
    targets: [...(clean?.targets ?? []), ...BashParseRedirect.targets(redirects, places), ...moves.flatMap((entry) => entry.targets), ...tees.flatMap((entry) => entry.targets), ...programs.flatMap((entry) => BashPrograms.targets(entry.verdict, places, entry.reading.cwd)), ...programs.flatMap((entry) => BashInputWrites.targets(BashInputWrites.writes(input.words, entry.reading.start, entry.reading.end, entry.verdict), places, entry.reading.cwd))],
    paths,
    strings: readings.flatMap((reading) =>
      (reading.layer?.strings ?? []).map((text) => ({ text: text as string, places: BashParsePlace.child(places, reading.cwd) })),
    ),
    outcome: shell?.outcome ?? BashParsePlace.same(places),
    opaque: false,
    inert: readings.every((reading) => !BUILTINS.includes(nameOf(reading)) || INERT_BUILTINS.includes(nameOf(reading))),
    moves: moving ? nameOf(shell.reading) : undefined,
    later: readings.some((reading) => LATER.includes(nameOf(reading)) && (reading.layer?.strings.length ?? 0) > 0),
    links: readings.some((reading) => BashParseLink.mayLink(nameOf(reading), input.words.slice(reading.start + 1, reading.end).map((word) => word.literal), (reading.layer?.strings.length ?? 0) > 0)),
  }
}
