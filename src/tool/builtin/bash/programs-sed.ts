/**
 * sed (07): its script runs commands (`e`, the `s///e` flag) and writes files (`w file`, `W
 * file`, `s///w file`, and `-i` on its operands), so the script is read command by command as
 * GNU sed reads it. A script given by `-f` comes from a file no one sees: opaque; so is any
 * script this reader is not sure of (an unknown command, an unclosed `[` or `{`, a bracket BSD
 * sed would read otherwise). The script is the `-e`/`--expression` texts joined by newlines, or
 * else the first operand. Gotcha: BSD sed takes a bare `-i`'s next word for its suffix, so the
 * second operand is read as a script too, when it is one.
 */
export * as BashProgramsSed from "./programs-sed.js"

import { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

export interface Script {
  /** It runs a command (`e`, `s///e`). */
  readonly runs: boolean
  /** The files its `w`, `W` and `s///w` commands write, as written. */
  readonly writes: ReadonlyArray<string>
}

/** Whether every `[` of a regular expression closes (`[]…]`, `[^]…]`, `[[:alpha:]]`) before its end. */
const closed = (regex: string): boolean => {
  for (let at = 0; at < regex.length; at++) {
    if (regex[at] === "\\") at++
    else if (regex[at] === "[") {
      let j = at + 1 + (regex[at + 1] === "^" ? 1 : 0)
      if (regex[j] === "]") j++
      while (regex[j] !== "]") {
        if (j >= regex.length) return false
        const kind = regex[j + 1]
        if (regex[j] === "[" && kind !== undefined && ".:=".includes(kind)) {
          const close = regex.indexOf(`${kind}]`, j + 2)
          if (close === -1) return false
          j = close + 2
        } else j++
      }
      at = j
    }
  }
  return true
}

/**
 * Reads a GNU sed script: what it runs and writes; undefined when it is not a script this reader
 * is sure of.
 * @example BashProgramsSed.read("1,5p;s/a/b/w out") // { runs: false, writes: ["out"] }
 */
export const read = (text: string): Script | undefined => {
  const writes: Array<string> = []
  const size = text.length
  let i = 0
  let depth = 0
  const at = () => text[i] ?? ""
  const blanks = () => {
    while (at() === " " || at() === "\t") i++
  }
  const digits = () => {
    const from = i
    while (/[0-9]/.test(at())) i++
    return i > from
  }
  /** The rest of the line, past its newline. */
  const line = () => {
    const stop = text.indexOf("\n", i)
    const found = text.slice(i, stop === -1 ? size : stop)
    i = stop === -1 ? size : stop + 1
    return found
  }
  /** Text up to the unescaped `delimiter` on the same line; undefined when none. */
  const delimited = (delimiter: string): string | undefined => {
    const from = i
    while (i < size) {
      const char = at()
      if (char === "\\") i += 2
      else if (char === "\n") return undefined
      else if (char === delimiter) return text.slice(from, i++)
      else i++
    }
    return undefined
  }
  const regex = (delimiter: string) => {
    const found = delimited(delimiter)
    return found !== undefined && closed(found)
  }
  /** An address regex and its flags: `/re/I`, `\%re%M`. */
  const matching = (delimiter: string) => {
    if (!regex(delimiter)) return false
    while (at() === "I" || at() === "M") i++
    return true
  }
  const address = (): boolean => {
    const char = at()
    if (char === "/") return ++i > 0 && matching("/")
    if (char === "\\") {
      const delimiter = text[i + 1]
      i += 2
      return delimiter !== undefined && delimiter !== "\n" && delimiter !== "\\" && matching(delimiter)
    }
    if (char === "$") i++
    else if (digits() && at() === "~") return ++i > 0 && digits()
    return true
  }
  const label = () => {
    blanks()
    const from = i
    while (i < size && !/[\s;]/.test(at())) i++
    return text.slice(from, i)
  }
  while (i < size) {
    if (/[\s;]/.test(at())) {
      i++
      continue
    }
    if (at() === "#") {
      line()
      continue
    }
    if (!address()) return undefined
    blanks()
    if (at() === ",") {
      i++
      blanks()
      if ((at() === "+" || at() === "~") && !(++i > 0 && digits())) return undefined
      if (!address()) return undefined
    }
    blanks()
    while (at() === "!") {
      i++
      blanks()
    }
    const command = text[i++]
    if (command === undefined) return undefined
    if (command === "e") return { runs: true, writes }
    if ("aic".includes(command)) {
      // The text runs to a line that does not end in an odd number of backslashes.
      while (i < size && /(?:^|[^\\])(?:\\\\)*\\$/.test(line()));
      continue
    }
    if ("rR".includes(command)) {
      blanks()
      line()
      continue
    }
    if ("wW".includes(command)) {
      blanks()
      const file = line()
      if (file === "") return undefined
      writes.push(file)
      continue
    }
    if (command === "{") {
      depth++
      continue
    }
    if (command === "}" && --depth < 0) return undefined
    if (command === "s" || command === "y") {
      const delimiter = text[i++]
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return undefined
      if (command === "s" ? !regex(delimiter) : delimited(delimiter) === undefined) return undefined
      if (delimited(delimiter) === undefined) return undefined
      if (command === "s") {
        while (/[gpiImM0-9]/.test(at())) i++
        if (at() === "e") return { runs: true, writes }
        if (at() === "w") {
          i++
          blanks()
          const file = line()
          if (file === "") return undefined
          writes.push(file)
          continue
        }
      }
    } else if (":btTv".includes(command)) {
      if (label() === "" && command === ":") return undefined
    } else if ("lLqQ".includes(command)) {
      blanks()
      digits()
    } else if (!"=dDgGhHnNpPxzF}".includes(command)) return undefined
    blanks()
    const next = at()
    if (next !== "" && next !== ";" && next !== "\n" && next !== "}" && next !== "#") return undefined
  }
  return depth === 0 ? { runs: false, writes } : undefined
}

const SPEC: BashProgramsScan.Spec = {
  flags: "nrEsuzb",
  args: "lf",
  attached: "i",
  longArgs: ["--line-length", "--file"],
  longFlags: ["--quiet", "--silent", "--debug", "--in-place", "--regexp-extended", "--separate", "--sandbox", "--unbuffered", "--null-data", "--zero-terminated", "--posix", "--follow-symlinks", "--binary"],
  longStops: ["--help", "--version"],
  values: ["-e", "--expression"],
  opaque: ["-f", "--file"],
}

/** An in-place suffix with a `/` puts the backup in another directory (`-i'/etc/*'`). */
const MOVED_BACKUP = /^(?:-[^-/]*i[^/]*|--i[a-z-]*=.*)\//

/**
 * The backup suffixes of `-i`/`--in-place` (`-i.bak`, `-ni.bak`, `--in-place=.bak`): the original
 * of each file is kept at its name and the suffix (`sed -ic s/a/b/ .envr` writes `.envrc`).
 */
const suffixesOf = (literals: ReadonlyArray<string | undefined>): ReadonlyArray<string> =>
  literals.flatMap((word) => {
    if (word === undefined || !word.startsWith("-")) return []
    const long = /^--i[a-z-]*=(.+)$/.exec(word)
    if (long !== null) return [long[1] as string]
    const cluster = /^-([nrEsuzb]*)i(.+)$/.exec(word)
    return cluster === null ? [] : [cluster[2] as string]
  })

/** Where the backup of `file` lands: a suffix with `*` (the file's name) is placed as sed would, so it is left unplaced. */
const backupOf = (file: BashParseWord.Word, suffix: string): BashProgramsScan.Write =>
  file.path === undefined || suffix.includes("*") ? BashProgramsScan.UNPLACED : { kind: "file", path: `${file.path}${suffix}`, cwd: [] }

const verdictOf = (script: Script | undefined): BashProgramsScan.Verdict => {
  if (script === undefined || script.runs) return BashProgramsScan.OPAQUE
  return { opaque: false, writes: script.writes.filter((file) => !BashParseWord.isDevice(file)).map((path) => ({ kind: "file" as const, path, cwd: [] })) }
}

/** `sed [options] [script] [files…]`: the script's commands, and `-i`'s operands as written files. */
export const sed: BashProgramsScan.Program = BashProgramsScan.scan(SPEC, (found) => {
  const words = found.words
  const literals = words.slice(found.start + 1, found.end).map(BashProgramsScan.literalOf)
  if (literals.some((word) => word !== undefined && (MOVED_BACKUP.test(word) || (word.startsWith("-") && !word.startsWith("--") && word.includes("i") && word.includes(BashProgramsScan.UNKNOWN))))) {
    return BashProgramsScan.OPAQUE
  }
  const bare = literals.includes("-i")
  const suffixes = suffixesOf(literals)
  return BashProgramsScan.union(
    found.readings.map((reading) => {
      const given = reading.values.map((value) => value.value)
      const operands = reading.operands.map((index) => words[index] as BashParseWord.Word)
      const texts = given.length > 0 ? given : operands.slice(0, 1).map((word) => word.literal)
      if (!texts.every(BashProgramsScan.known)) return BashProgramsScan.OPAQUE
      const files = given.length > 0 ? operands : operands.slice(1)
      const own = texts.length === 0 ? BashProgramsScan.CLEAR : verdictOf(read(texts.join("\n")))
      const inPlace = BashProgramsScan.saw(reading, ["-i", "--in-place"])
      const edits = inPlace ? files.flatMap((word) => [...BashProgramsScan.written(word), ...(BashParseWord.isNotFile(word) ? [] : suffixes.map((suffix) => backupOf(word, suffix)))]) : []
      const second = bare && given.length === 0 ? operands[1]?.literal : undefined
      const bsd = BashProgramsScan.known(second) ? read(second) : undefined
      return BashProgramsScan.union([own, { opaque: false, writes: edits }, ...(bsd === undefined ? [] : [verdictOf(bsd)])])
    }),
  )
})
