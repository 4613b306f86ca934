/**
 * Programs whose written paths come from their input, not their words (2026-12-06): archive
 * extractors (`tar x`, `bsdtar`, `cpio -i`/`-p`, `unzip`, `7z x|e`, `jar x`, `ar x`, `pax -r`,
 * `unrar`/`rar x|e`, `unar`, `cabextract`, `dpkg-deb -x`, `gem unpack`, `unshar`, `python -m
 * zipfile|tarfile -e`) and patch appliers (`patch` without `-o`, `git apply`, `git am`). What
 * they write is named inside the archive or the diff, so the gate cannot judge it where it
 * lands: `git archive --prefix=.git/hooks/ -o e.tar HEAD f && tar xf e.tar` installed a hook
 * unasked. Each such command yields the folder it writes into as a "fed" target, which the tool
 * asks as an opaque `edit` of that folder (only a rule naming it exactly allows it, and an
 * "always" saves nothing). The archive is not listed before the run: it can change between the
 * listing and the extraction, come from a pipe, or be read differently by the lister and the
 * extractor (links inside it, `..`, absolute names). Modes that write nothing stay clear: listing
 * and testing (`tar t`, `unzip -l|-t|-p|-Z|-v`, `cpio -t`, `7z l`), to standard output (`tar -O`,
 * `7z -so`), and `git apply --check|--stat|--numstat|--summary` without `--apply`; `git apply
 * --cached` writes only the index. Gotcha: a word that is not static where the mode could be read
 * as an extraction, so it asks (failing closed).
 */
export * as BashInputWrites from "./parse-input-writes.js"

import type { BashCommand } from "./command.js"
import { BashProgramNames } from "./names.js"
import type { BashParsePlace } from "./parse-place.js"
import type { BashParseWord } from "./parse-word.js"
import { BashProgramsArchive } from "./programs-archive.js"
import { BashProgramsScan } from "./programs-scan.js"

type Word = BashParseWord.Word
type Write = BashProgramsScan.Write
type Judge = (words: ReadonlyArray<Word>, start: number, end: number, verdict: BashProgramsScan.Verdict) => ReadonlyArray<Write>

/** The folder where it runs. */
const HERE: Write = { kind: "directory", path: ".", cwd: [] }
/** Somewhere the words do not say. */
const SOMEWHERE: Write = { kind: "directory", path: undefined, cwd: [] }

const literals = (words: ReadonlyArray<Word>, start: number, end: number) => words.slice(start + 1, end).map(BashProgramsScan.literalOf)

/** A word that is not static, or an option whose name expands: it may be any option, a mode included. */
const unsure = (words: ReadonlyArray<Word>, start: number, end: number) =>
  words.slice(start + 1, end).some((word) => {
    const literal = BashProgramsScan.literalOf(word)
    return literal === undefined ? BashProgramsScan.mayBeOption(word) : BashProgramsScan.nameExpands(literal)
  })

/** The folder a word names, as a written folder. */
const folder = (word: Word | undefined): ReadonlyArray<Write> => (word === undefined ? [SOMEWHERE] : BashProgramsScan.written(word, "directory"))
const folderValue = (value: string): ReadonlyArray<Write> => BashProgramsScan.writtenValue({ name: "", value, word: undefined }, "directory")

/** The folders a judged program writes into (`tar -x` after its `-C`s, `unzip -d`, `dpkg-deb -x … dir`): its verdict's folder writes. */
const folders: Judge = (_words, _start, _end, verdict) => verdict.writes.filter((write) => write.kind === "directory")

/** bsdtar reads as tar (no table of its own): where tar's reading is opaque, an extraction lands somewhere unknown. */
const bsdtar: Judge = (words, start, end) => {
  const verdict = BashProgramsArchive.tar(words, start, end)
  if (!verdict.opaque) return folders(words, start, end, verdict)
  return literals(words, start, end).some((text) => text === undefined || /^(?:-?[A-Za-z]*x|--ex|--g)/.test(text)) ? [SOMEWHERE] : []
}

/**
 * An option reader for programs with short clusters: each option word in `words`, its letters
 * (a letter in `valued` takes the rest of the word or the next word as its value) and long names.
 */
interface Options {
  readonly letters: string
  readonly long: ReadonlyArray<string>
  readonly values: ReadonlyArray<{ readonly name: string; readonly value: string | undefined; readonly word: Word | undefined }>
  readonly operands: ReadonlyArray<Word>
}

const options = (words: ReadonlyArray<Word>, start: number, end: number, valued: string, longValued: ReadonlyArray<string>): Options => {
  let letters = ""
  const long: string[] = []
  const values: Array<Options["values"][number]> = []
  const operands: Word[] = []
  let ended = false
  for (let i = start + 1; i < end; i++) {
    const word = words[i] as Word
    const text = BashProgramsScan.literalOf(word)
    if (ended || text === undefined || !text.startsWith("-") || text === "-") {
      operands.push(word)
      continue
    }
    if (text === "--") {
      ended = true
      continue
    }
    if (text.startsWith("--")) {
      const equals = text.indexOf("=")
      const name = equals === -1 ? text : text.slice(0, equals)
      long.push(name)
      if (equals !== -1) values.push({ name, value: text.slice(equals + 1), word: undefined })
      else if (longValued.includes(name)) {
        const next = words[i + 1]
        values.push({ name, value: next === undefined || i + 1 >= end ? undefined : BashProgramsScan.literalOf(next), word: i + 1 < end ? next : undefined })
        i++
      }
      continue
    }
    for (let at = 1; at < text.length; at++) {
      const letter = text[at] as string
      letters += letter
      if (!valued.includes(letter)) continue
      const rest = text.slice(at + 1)
      if (rest !== "") values.push({ name: `-${letter}`, value: rest, word: undefined })
      else {
        const next = words[i + 1]
        values.push({ name: `-${letter}`, value: next === undefined || i + 1 >= end ? undefined : BashProgramsScan.literalOf(next), word: i + 1 < end ? next : undefined })
        i++
      }
      break
    }
  }
  return { letters, long, values, operands }
}

/** Where a value names a folder: its word, or its attached text. */
const valueFolder = (value: Options["values"][number]): ReadonlyArray<Write> =>
  value.word !== undefined && BashProgramsScan.literalOf(value.word) === value.value ? folder(value.word) : value.value === undefined ? [SOMEWHERE] : folderValue(value.value)

/** The folders named by the options `names` (the last one given counts; all are judged), else `fallback`. */
const into = (found: Options, names: ReadonlyArray<string>, fallback: ReadonlyArray<Write>): ReadonlyArray<Write> => {
  const named = found.values.filter((value) => names.includes(value.name))
  return named.length === 0 ? fallback : named.flatMap(valueFolder)
}

/** `cpio -i` (`--extract`) into `.` or `-D dir`; `cpio -p dir` (`--pass-through`) copies the listed names into `dir`. `-t`/`--list` and `--to-stdout` write nothing. */
const cpio: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const found = options(words, start, end, "CDEFHIMOR", ["--directory", "--file", "--format", "--block-size", "--io-size", "--message", "--owner", "--pattern-file", "--pattern-file", "--rsh-command"])
  const has = (letter: string, name: string) => found.letters.includes(letter) || found.long.some((long) => long.length > 3 && name.startsWith(long))
  if (has("p", "--pass-through")) return found.operands.length === 0 ? [SOMEWHERE] : folder(found.operands[0])
  if (!has("i", "--extract") || has("t", "--list") || found.long.includes("--to-stdout")) return []
  return into(found, ["-D", "--directory"], [HERE])
}

/** `7z x|e archive [-o{dir}]` (and 7za, 7zr, 7zz): the first operand is the command; `-so` writes to standard output. */
const sevenZip: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const texts = literals(words, start, end) as ReadonlyArray<string>
  const command = texts.find((text) => !text.startsWith("-"))?.toLowerCase()
  if (command !== "x" && command !== "e") return []
  if (texts.some((text) => text.toLowerCase() === "-so")) return []
  const out = texts.filter((text) => /^-o/i.test(text)).map((text) => text.slice(2))
  return out.length === 0 ? [HERE] : out.flatMap(folderValue)
}

/** `jar xf x.jar`, `jar -x -f x.jar`, `jar --extract` into `.` (or `-C dir`/`--dir dir`, JDK 21+). */
const jar: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const texts = literals(words, start, end) as ReadonlyArray<string>
  const first = texts[0] ?? ""
  const extracts = /^-?[A-Za-z]*x/.test(first) && !first.startsWith("--") ? true : texts.some((text) => text === "-x" || /^--ex/.test(text) || /^-[A-Za-z]*x[A-Za-z]*$/.test(text))
  if (!extracts) return []
  const found = options(words, start, end, "C", ["--dir"])
  return into(found, ["-C", "--dir"], [HERE])
}

/** `ar x archive` (its key: `x`, `xv`, `-x`): into `.` or `--output dir`. */
const ar: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const texts = literals(words, start, end) as ReadonlyArray<string>
  const key = texts.find((text) => !text.startsWith("--"))
  if (key === undefined || !/^-?[A-Za-z]*x/.test(key)) return []
  const output = texts.flatMap((text, index) => (text.startsWith("--out") ? [text.includes("=") ? text.slice(text.indexOf("=") + 1) : (texts[index + 1] ?? undefined)] : []))
  return output.length === 0 ? [HERE] : output.flatMap((value) => (value === undefined ? [SOMEWHERE] : folderValue(value)))
}

/** `pax -r` extracts into `.`; `pax -rw … dir` copies the names it reads into `dir`. */
const pax: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const found = options(words, start, end, "bfopsxBDEGTUYZ", [])
  if (!found.letters.includes("r")) return []
  if (!found.letters.includes("w")) return [HERE]
  return found.operands.length === 0 ? [SOMEWHERE] : folder(found.operands.at(-1))
}

/** `unrar x|e archive [files] [dir/]` (and `rar`): into `.` or a last operand ending in a slash. */
const unrar: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const found = options(words, start, end, "", [])
  const command = BashProgramsScan.literalOf(found.operands[0] as Word)?.toLowerCase()
  if (command !== "x" && command !== "e") return []
  const last = found.operands.at(-1)
  return found.operands.length > 2 && BashProgramsScan.literalOf(last as Word)?.endsWith("/") === true ? folder(last) : [HERE]
}

/** `unar archive` into `.` or `-o dir` (`-output-directory`). */
const unar: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const texts = literals(words, start, end) as ReadonlyArray<string>
  const at = texts.findIndex((text) => text === "-o" || text === "-output-directory" || text === "--output-directory")
  if (at === -1) return [HERE]
  return folder(words[start + 2 + at])
}

/** `cabextract` into `.` or `-d dir`; `-l`, `-t`, `-p` list, test or print. */
const cabextract: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const found = options(words, start, end, "dFe", ["--directory", "--filter", "--encoding"])
  if (/[ltp]/.test(found.letters) || found.long.some((name) => ["--list", "--test", "--pipe"].includes(name))) return []
  return into(found, ["-d", "--directory"], [HERE])
}

/** `gem unpack x.gem` into `.` or `--target dir`. */
const gem: Judge = (words, start, end) => {
  const texts = literals(words, start, end)
  if (texts.find((text) => text === undefined || !text.startsWith("-")) !== "unpack") return []
  if (unsure(words, start, end)) return [SOMEWHERE]
  const found = options(words, start, end, "", ["--target"])
  return into(found, ["--target"], [HERE])
}

/** `unshar` runs each shell archive to make the files it names, into `.` or `-d dir`. */
const unshar: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  return into(options(words, start, end, "d", ["--directory"]), ["-d", "--directory"], [HERE])
}

/** Python's options that take the next word. */
const PYTHON_ARGS = ["-W", "-X", "-Q"]

/** `python -m zipfile -e zip dir`, `python -m tarfile -e tar [dir]` (`--extract`): the module's options follow it. */
const python: Judge = (words, start, end) => {
  for (let i = start + 1; i < end; i++) {
    const text = BashProgramsScan.literalOf(words[i] as Word)
    if (text === undefined) return [SOMEWHERE]
    if (!text.startsWith("-") || text === "-" || text === "--" || text.startsWith("-c")) return []
    if (PYTHON_ARGS.includes(text)) i++
    if (!text.startsWith("-m") || text.startsWith("--")) continue
    const name = text === "-m" ? BashProgramsScan.literalOf(words[i + 1] as Word) : text.slice(2)
    if (name === undefined || name.includes(BashProgramsScan.UNKNOWN)) return [SOMEWHERE]
    if (name !== "zipfile" && name !== "tarfile") return []
    const args = words.slice(i + (text === "-m" ? 2 : 1), end)
    const extract = args.findIndex((word) => {
      const literal = BashProgramsScan.literalOf(word)
      return literal === undefined || literal === "-e" || literal === "--extract"
    })
    if (extract === -1) return []
    if (BashProgramsScan.literalOf(args[extract] as Word) === undefined) return [SOMEWHERE]
    const target = args[extract + 2]
    return target === undefined ? (name === "tarfile" ? [HERE] : [SOMEWHERE]) : folder(target)
  }
  return []
}

/** `patch` writes the files its diff names, under `-d dir`; `-o` (the output file, judged by its table), `--dry-run` and BSD's `-C`/`--check` write none of them. */
const patch: Judge = (words, start, end) => {
  if (unsure(words, start, end)) return [SOMEWHERE]
  const found = options(words, start, end, "BDdFgioprVYz", ["--prefix", "--ifdef", "--directory", "--fuzz", "--get", "--input", "--strip", "--version-control", "--basename-prefix", "--suffix", "--quoting-style", "--reject-format", "--output", "--reject-file"])
  const has = (name: string) => found.long.some((long) => long.length > 3 && name.startsWith(long))
  if (found.letters.includes("o") || found.letters.includes("C") || has("--output") || has("--dry-run") || has("--check")) return []
  return into(found, ["-d", "--directory"], [HERE])
}

/** git's global options that take the next word. */
const GIT_GLOBAL_ARGS = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source", "--list-cmds"]
/** `git apply` options after which it writes no working-tree file (without `--apply`). */
const APPLY_READS = ["--check", "--stat", "--numstat", "--summary"]
/** `git am` forms that apply nothing. */
const AM_READS = ["--show-current-patch", "--quit"]

/**
 * `git apply` writes the working-tree files its diff names (git refuses `.git/` paths, not
 * `.envrc` or `toolgate.json`), unless it only reports or only changes the index (`--cached`);
 * `git am` applies and commits its mails. Both from the top of the work tree.
 */
const gitSub = (name: string, args: ReadonlyArray<Word>): ReadonlyArray<Write> => {
  const texts = args.map(BashProgramsScan.literalOf)
  const seen = (option: string) => texts.some((text) => text !== undefined && text.startsWith("--") && text.length > 3 && option.startsWith(text.split("=")[0] as string))
  if (name !== "apply" && name !== "am") return []
  if (args.some((word, index) => BashProgramsScan.mayBeOption(word) || BashProgramsScan.nameExpands(texts[index]))) return [SOMEWHERE]
  if (name === "apply") {
    if (!seen("--apply") && APPLY_READS.some(seen)) return []
    return seen("--cached") && !seen("--index") ? [] : [HERE]
  }
  return AM_READS.some(seen) ? [] : [HERE]
}

/** `git [global options] apply|am …`; `git-apply`, `git-am`. A global option that moves the work tree (`--work-tree`, `--git-dir`) makes it unknown. */
const git: Judge = (words, start, end) => {
  const cwd: Array<string | undefined> = []
  let elsewhere = false
  for (let i = start + 1; i < end; i++) {
    const text = BashProgramsScan.literalOf(words[i] as Word)
    if (text === undefined || text.includes(BashProgramsScan.UNKNOWN)) return []
    if (text === "-C") cwd.push(words[i + 1]?.path)
    if (text.startsWith("--work-tree") || text.startsWith("--git-dir")) elsewhere = true
    if (GIT_GLOBAL_ARGS.includes(text)) i++
    else if (!text.startsWith("-")) {
      const writes = gitSub(text, words.slice(i + 1, end))
      return writes.map((write) => (elsewhere ? SOMEWHERE : { ...write, cwd: [...cwd, ...write.cwd] }))
    }
  }
  return []
}

const dashedGit = (name: string): Judge => (words, start, end) => gitSub(name, words.slice(start + 1, end))

/** One entry per program, by base name (a versioned name reads as its stem: `python3.11`). */
export const TABLE: ReadonlyMap<string, Judge> = new Map<string, Judge>([
  ["tar", folders],
  ["gtar", folders],
  ["unzip", folders],
  ["dpkg-deb", folders],
  ["dpkg", folders],
  ["bsdtar", bsdtar],
  ["cpio", cpio],
  ["bsdcpio", cpio],
  ["7z", sevenZip],
  ["7za", sevenZip],
  ["7zr", sevenZip],
  ["7zz", sevenZip],
  ["jar", jar],
  ["ar", ar],
  ["pax", pax],
  ["unrar", unrar],
  ["rar", unrar],
  ["unar", unar],
  ["cabextract", cabextract],
  ["gem", gem],
  ["unshar", unshar],
  ["python", python],
  ["patch", patch],
  ["git", git],
  ["git-apply", dashedGit("apply")],
  ["git-am", dashedGit("am")],
])

const basename = (name: string) => name.slice(name.lastIndexOf("/") + 1)

/**
 * The folders the command named by `words[start]` writes what its input names into, given its
 * verdict from BashPrograms (whose folder writes are tar's, unzip's and dpkg-deb's extraction
 * folders). None for any other program.
 * @example BashInputWrites.writes(words("tar xf e.tar"), 0, 3, verdict) // [{ kind: "directory", path: ".", cwd: [] }]
 */
export const writes = (words: ReadonlyArray<Word>, start: number, end: number, verdict: BashProgramsScan.Verdict): ReadonlyArray<Write> => {
  const name = words[start]?.literal
  const judge = name === undefined ? undefined : BashProgramNames.lookup(TABLE, basename(name))
  return judge === undefined || verdict.opaque ? [] : judge(words, start, end, verdict)
}

/** The fed targets of `writes`, at each of `places`, after the reading's own `cwd`. */
export const targets = (found: ReadonlyArray<Write>, places: BashParsePlace.Places, cwd: BashParsePlace.Chain): ReadonlyArray<BashCommand.Target> =>
  found.flatMap((write) => places.map((place) => ({ kind: "directory" as const, path: write.path, cwd: [...place.cwd, ...cwd, ...write.cwd], fed: true })))
