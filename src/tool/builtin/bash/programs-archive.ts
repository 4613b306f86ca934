/**
 * Archivers and dumpers (07). tar: its program options (`-I`/`--use-compress-program`,
 * `--to-command`, `--checkpoint-action`, `-F`/`--info-script`, `--new-volume-script`,
 * `--rsh-command`, `--rmt-command`), `-P`/`--absolute-names` and a `host:archive` (run through
 * rsh) are opaque; it writes its `-f` archive when it creates, appends, updates or deletes, the
 * directory it extracts into (`.` after its `-C`s), its snapshot and index files, and with
 * `--remove-files` its operands. The old form (`tar cvf x.tar dir`) is read as its dashed
 * letters. zip: `-TT`/`--unzip-command` are opaque; it writes its archive (the first operand),
 * `-O`, `-lf`, `-b`, and with `-m` its operands. xxd writes its second operand.
 */
export * as BashProgramsArchive from "./programs-archive.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

type Word = BashParseWord.Word
type Words = BashProgramsScan.Words

const TAR: BashProgramsScan.Spec = {
  flags: "AcdtruxGkmOpPsSvwWBiMRzjJZahlo",
  args: "bCHKLNVX",
  longArgs: [
    ...["--directory", "--exclude", "--exclude-from", "--transform", "--xform", "--format", "--owner", "--group", "--mode", "--mtime", "--newer", "--newer-mtime", "--after-date"],
    ...["--blocking-factor", "--record-size", "--tape-length", "--label", "--starting-file", "--strip-components", "--suffix", "--use-compress-program", "--to-command"],
    ...["--rsh-command", "--rmt-command", "--info-script", "--new-volume-script", "--checkpoint-action", "--quoting-style", "--quote-chars", "--no-quote-chars", "--level"],
    ...["--xattrs-include", "--xattrs-exclude", "--pax-option", "--exclude-tag", "--exclude-tag-under", "--exclude-tag-all", "--exclude-ignore", "--exclude-ignore-recursive", "--add-file", "--warning"],
  ],
  longFlags: [
    ...["--create", "--append", "--update", "--extract", "--get", "--list", "--diff", "--compare", "--delete", "--catenate", "--concatenate", "--test-label", "--verbose"],
    ...["--gzip", "--gunzip", "--bzip2", "--xz", "--zstd", "--lzip", "--lzma", "--lzop", "--compress", "--auto-compress", "--no-auto-compress", "--keep-old-files", "--keep-newer-files"],
    ...["--overwrite", "--skip-old-files", "--remove-files", "--to-stdout", "--force-local", "--preserve-permissions", "--same-permissions", "--numeric-owner", "--no-same-owner"],
    ...["--same-owner", "--dereference", "--hard-dereference", "--ignore-zeros", "--ignore-failed-read", "--one-file-system", "--sparse", "--totals", "--verify", "--wildcards"],
    ...["--no-wildcards", "--anchored", "--no-anchored", "--recursion", "--no-recursion", "--unlink-first", "--recursive-unlink", "--null", "--no-null", "--show-transformed-names"],
    ...["--interactive", "--confirmation", "--touch", "--xattrs", "--no-xattrs", "--acls", "--no-acls", "--selinux", "--no-selinux", "--check-links", "--exclude-vcs"],
    ...["--exclude-vcs-ignores", "--exclude-backups", "--exclude-caches", "--exclude-caches-all", "--exclude-caches-under", "--seek", "--no-seek", "--full-time", "--utc", "--absolute-names"],
  ],
  longStops: ["--help", "--version", "--usage", "--show-defaults"],
  chdir: ["-C", "--directory"],
  files: ["-g", "--listed-incremental", "--index-file", "--volno-file"],
  values: ["-f", "--file", "-T", "--files-from"],
  opaque: ["-I", "--use-compress-program", "-F", "--info-script", "--new-volume-script", "--to-command", "--checkpoint-action", "--rsh-command", "--rmt-command", "-P", "--absolute-names"],
}
/** Old-form letters that take the next word, in order (`tar cfb x.tar 20`). */
const TAR_VALUES = "bCfFgHIKLNTVX"
const TAR_WRITES = ["-c", "-r", "-u", "-A", "--create", "--append", "--update", "--catenate", "--concatenate", "--delete"]

/** `tar cvf x.tar dir` as `tar -c -v -f x.tar dir`: an old-form first word's letters, each with its value. */
const dashed = (words: Words, start: number, end: number): Words => {
  const first = words[start + 1]
  const letters = first?.literal
  if (letters === undefined || !/^[A-Za-z]+$/.test(letters)) return words
  const option = (letter: string): Word => ({ ...(first as Word), source: `-${letter}`, literal: `-${letter}`, path: `-${letter}` })
  let next = start + 2
  const expanded = Array.from(letters).flatMap((letter) => {
    const taken = TAR_VALUES.includes(letter) && next < end ? [words[next++] as Word] : []
    return [option(letter), ...taken]
  })
  return [...words.slice(0, start + 1), ...expanded, ...words.slice(next, end)]
}

const tarScan = BashProgramsScan.scan(TAR, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading): BashProgramsScan.Verdict => {
      const saw = (names: ReadonlyArray<string>) => BashProgramsScan.saw(reading, names)
      const archives = reading.values.filter((value) => value.name === "-f" || value.name === "--file")
      const remote = archives.some((value) => !BashProgramsScan.known(value.value) || (value.value.includes(":") && !saw(["--force-local"])))
      if (remote) return BashProgramsScan.OPAQUE
      const lists = reading.values.filter((value) => value.name === "-T" || value.name === "--files-from")
      const operands = reading.operands.map((index) => found.words[index] as Word)
      const writes = [
        ...(saw(TAR_WRITES) ? archives.flatMap((value) => BashProgramsScan.writtenValue(value)) : []),
        ...(saw(["-x", "--extract", "--get"]) && !saw(["-O", "--to-stdout"]) ? [{ kind: "directory" as const, path: ".", cwd: reading.cwd }] : []),
        ...(saw(["--remove-files"]) ? [...operands.flatMap((word) => BashProgramsScan.written(word, "file", reading.cwd)), ...lists.map(() => ({ kind: "file" as const, path: undefined, cwd: reading.cwd }))] : []),
      ]
      return { opaque: false, writes }
    }),
  ),
)

export const tar: BashProgramsScan.Program = (words, start, end) => {
  const read = dashed(words, start, end)
  return tarScan(read, start, read === words ? end : read.length)
}

/** zip options whose value is the next word (zip's short options may be several letters). */
const ZIP_VALUES = ["-b", "-n", "-t", "-tt", "-O", "-P", "-Z", "-s", "-ds", "-lf", "-TT"]
const ZIP_LONG_VALUES = ["--temp-path", "--suffixes", "--from-date", "--before-date", "--output-file", "--password", "--compression-method", "--split-size", "--dot-size", "--logfile-path"]
/** Single letters that take a value, at the end of a cluster (`-rb dir`). */
const ZIP_LETTERS = "bntOPZs"

const means = (written: string, name: string) => written === name || (written.length >= 4 && name.startsWith(written))

export const zip: BashProgramsScan.Program = (words, start, end) => {
  const args = words.slice(start + 1, end)
  // zip's short options are words of several letters: one that expands may be any (`-q$'TT'`).
  if (args.some(BashProgramsScan.mayBeOption)) return BashProgramsScan.OPAQUE
  const writes: Array<BashProgramsScan.Write> = []
  const operands: Array<Word> = []
  const value = (i: number, attached: string | undefined, kind: "file" | "directory") => {
    const next = args[i + 1]
    writes.push(...(attached !== undefined ? BashProgramsScan.writtenValue({ name: "", value: attached, word: undefined }, kind) : next === undefined ? [] : BashProgramsScan.written(next, kind)))
  }
  let move = false
  let list = false
  let ended = false
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word
    const text = BashProgramsScan.literalOf(word) ?? ""
    if (ended || !text.startsWith("-") || text === "-") {
      if (!list || ended) operands.push(word)
      continue
    }
    list = false
    if (text === "--") {
      ended = true
      continue
    }
    if (text.startsWith("--")) {
      const [name = "", ...rest] = text.split("=")
      const attached = rest.length > 0 ? rest.join("=") : undefined
      if (means(name, "--unzip-command")) return BashProgramsScan.OPAQUE
      if (means(name, "--output-file") || means(name, "--logfile-path")) value(i, attached, "file")
      if (means(name, "--temp-path")) value(i, attached, "directory")
      if (means(name, "--move")) move = true
      if (means(name, "--include") || means(name, "--exclude")) list = true
      if (attached === undefined && ZIP_LONG_VALUES.some((known) => means(name, known))) i++
      continue
    }
    if (text.includes("TT")) return BashProgramsScan.OPAQUE
    if (text === "-O" || text === "-lf") value(i++, undefined, "file")
    else if (text === "-b") value(i++, undefined, "directory")
    else if (ZIP_VALUES.includes(text)) i++
    else if (text === "-x" || text === "-i") list = true
    else if (!/^-(?:MM|FF|FS|db|dc|dd|dg|du|dv|sf|so|su|sU|sp|sb|sc|sd|sv|ws|nw|ll|la|li|ic|AC|AS|DF|h2)$/.test(text)) {
      if (/^-[^-]*m/.test(text)) move = true
      const last = text.at(-1) as string
      if (ZIP_LETTERS.includes(last)) {
        if (last === "O") value(i, undefined, "file")
        if (last === "b") value(i, undefined, "directory")
        i++
      }
    }
  }
  const [archive, ...files] = operands
  return { opaque: false, writes: [...writes, ...(archive === undefined ? [] : BashProgramsScan.written(archive)), ...(move ? files.flatMap((word) => BashProgramsScan.written(word)) : [])] }
}

/** xxd options whose value is the next word: `-c 8`, `-cols 8`, `-s +16`, … (`-c8` holds its own). */
const XXD_VALUES = /^-(?:c|cols|g|groupsize|l|len|n|name|o|offset|s|seek|R)$/

/** `xxd [options] [infile [outfile]]`: the outfile is written (a dump, or with `-r` the bytes). */
export const xxd: BashProgramsScan.Program = (words, start, end) => {
  const operands: Array<Word> = []
  for (let i = start + 1; i < end; i++) {
    const word = words[i] as Word
    const text = BashProgramsScan.literalOf(word)
    if (operands.length === 0 && BashProgramsScan.mayBeOption(word)) return BashProgramsScan.OPAQUE
    if (operands.length === 0 && text !== undefined && text.startsWith("-") && text !== "-") {
      if (XXD_VALUES.test(text)) i++
      continue
    }
    operands.push(word)
  }
  const output = operands[1]
  return { opaque: false, writes: output === undefined ? [] : BashProgramsScan.written(output) }
}
