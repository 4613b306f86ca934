/**
 * Programs that copy, move, link or overwrite the files their operands name (07): `cp`, `mv`,
 * `ln`, `link`, `install`, `dd of=` and `truncate`. An outside review found `cp x .git/config`,
 * `dd of=.git/config` and `mv x .envrc` allowed under `bash * allow` while `echo x > .git/config`
 * asked: the written file is the same thing, so it is a target judged like a redirect's. A
 * destination that may be a folder also names what lands inside it (`cp evil/.envrc .`,
 * `cp -r tpl/. .`): its sources, with their trees when the program copies or moves folders
 * (BashCommand.Source; the tool looks at them, bash/landing.ts). A word that is not static where
 * an option could be (`cp "$f" d`: `-t.git`?) makes the line opaque, as for every program read
 * by its option table.
 */
export * as BashProgramsFiles from "./programs-files.js"

import type { BashCommand } from "./command.js"
import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

type Program = BashProgramsScan.Program
type Word = BashParseWord.Word

/** Characters a source may hold for the tool to expand it as a glob itself; anything else (`$x`, quotes, braces) is unknowable. */
const PLAIN_GLOB = /^[A-Za-z0-9_./:@%+=,~*?[\]!^-]+$/

/** A source as the tool judges what lands from it: its path, or the glob it is when plain. */
export const sourceOf = (word: Word, tree: boolean): BashCommand.Source =>
  word.path !== undefined ? { path: word.path, tree } : PLAIN_GLOB.test(word.source) && !word.source.startsWith("~") ? { path: undefined, glob: word.source, tree } : { path: undefined, tree }

const COPY: BashProgramsScan.Spec = {
  flags: "abdfHilLnPpRrsTuvxZ",
  args: "S",
  longArgs: ["--suffix", "--no-preserve", "--sparse"],
  longFlags: [
    ...["--archive", "--attributes-only", "--backup", "--copy-contents", "--debug", "--force", "--interactive", "--link", "--dereference", "--no-clobber", "--no-dereference"],
    ...["--preserve", "--parents", "--recursive", "--reflink", "--remove-destination", "--strip-trailing-slashes", "--symbolic-link", "--no-target-directory", "--update"],
    ...["--verbose", "--keep-directory-symlink", "--one-file-system", "--context"],
  ],
  longStops: ["--help", "--version"],
  values: ["-t", "--target-directory"],
}

const MOVE: BashProgramsScan.Spec = {
  flags: "bfinTuvZ",
  args: "S",
  longArgs: ["--suffix"],
  longFlags: ["--backup", "--force", "--interactive", "--no-clobber", "--strip-trailing-slashes", "--update", "--verbose", "--no-target-directory", "--context", "--exchange", "--no-copy", "--debug"],
  longStops: ["--help", "--version"],
  values: ["-t", "--target-directory"],
}

const LINK: BashProgramsScan.Spec = {
  flags: "bdFfiLnPrsTv",
  args: "S",
  longArgs: ["--suffix"],
  longFlags: ["--backup", "--directory", "--force", "--interactive", "--logical", "--no-dereference", "--physical", "--relative", "--symbolic", "--no-target-directory", "--verbose"],
  longStops: ["--help", "--version"],
  values: ["-t", "--target-directory"],
}

const INSTALL: BashProgramsScan.Spec = {
  flags: "bcCdDpsvTZ",
  args: "gmoS",
  longArgs: ["--group", "--mode", "--owner", "--suffix", "--strip-program"],
  longFlags: ["--backup", "--compare", "--directory", "--preserve-timestamps", "--strip", "--no-target-directory", "--verbose", "--context", "--preserve-context", "--debug"],
  longStops: ["--help", "--version"],
  values: ["-t", "--target-directory"],
  opaque: ["--strip-program"],
}

const TRUNCATE: BashProgramsScan.Spec = {
  flags: "co",
  args: "rs",
  longArgs: ["--reference", "--size"],
  longFlags: ["--no-create", "--io-blocks"],
  longStops: ["--help", "--version"],
}

interface Shape {
  /** Folder sources bring their trees (`cp -r`, `mv`); `always` for mv. */
  readonly tree: (reading: BashProgramsScan.Reading) => boolean
  /** With one operand and no `-t`, the destination is where the command runs (`ln -s /x/y` makes `./y`). */
  readonly lone?: boolean
  /** An option that turns the operands into folders to create, not files to copy (`install -d`). */
  readonly folders?: ReadonlyArray<string>
  /** The sources are taken away (`mv`). */
  readonly moves?: boolean
}

/**
 * `program [options] source… destination` or `program -t folder source…`: the destination is a
 * written file, and the sources are what lands in it when it is a folder. `--parents` lands each
 * source's whole path under the folder (`cp --parents .git/config .` writes `./.git/config`).
 */
const copying = (spec: BashProgramsScan.Spec, shape: Shape): Program =>
  BashProgramsScan.scan(spec, (found) =>
    BashProgramsScan.union(
      found.readings.map((reading): BashProgramsScan.Verdict => {
        if (shape.folders !== undefined && BashProgramsScan.saw(reading, shape.folders)) return BashProgramsScan.CLEAR
        const operands = reading.operands.map((index) => found.words[index] as Word)
        const folder = reading.values.find((value) => value.name === "-t" || value.name === "--target-directory")
        const tree = shape.tree(reading)
        const parents = BashProgramsScan.saw(reading, ["--parents"])
        const moved = shape.moves === true ? { moved: true } : {}
        // A backup renames the destination to a name made with a suffix (`mv -S c x .envr` makes
        // `.envrc`), from `-S`, `--suffix` or SIMPLE_BACKUP_SUFFIX: a write the gate cannot place.
        const backup: ReadonlyArray<BashProgramsScan.Write> = BashProgramsScan.saw(reading, BACKUP) ? [BashProgramsScan.UNPLACED] : []
        const into = (destination: ReadonlyArray<BashProgramsScan.Write>, sources: ReadonlyArray<Word>) =>
          destination.map((write) => ({ ...write, sources: sources.map((word) => ({ ...sourceOf(word, tree), ...(parents ? { parents } : {}), ...moved })) }))
        if (folder !== undefined) return { opaque: false, writes: [...into(BashProgramsScan.writtenValue(folder), operands), ...backup] }
        if (operands.length === 0) return BashProgramsScan.CLEAR
        if (operands.length === 1) return shape.lone === true ? { opaque: false, writes: [...into([{ kind: "file", path: ".", cwd: [] }], operands), ...backup] } : BashProgramsScan.CLEAR
        return { opaque: false, writes: [...into(BashProgramsScan.written(operands.at(-1) as Word), operands.slice(0, -1)), ...backup] }
      }),
    ),
  )

/** `truncate [options] file…`: every operand is written in place. */
const truncate: Program = BashProgramsScan.scan(TRUNCATE, (found) =>
  BashProgramsScan.union(found.readings.map((reading) => ({ opaque: false, writes: reading.operands.flatMap((index) => BashProgramsScan.written(found.words[index] as Word)) }))),
)

/**
 * `dd operand…`: `of=FILE` is written in place. A word that is not static may be `of=…`, and a
 * `~` after `of=` is expanded by bash (parse-word.ts): either one is a write to an unknown file.
 */
const dd: Program = (words, start, end) => {
  const writes: Array<BashProgramsScan.Write> = []
  for (const word of words.slice(start + 1, end)) {
    if (word.literal === undefined) writes.push({ kind: "file", path: undefined, cwd: [] })
    else if (word.literal.startsWith("of=")) writes.push(...BashProgramsScan.writtenValue({ name: "of", value: word.literal.slice(3), word: undefined }))
  }
  return { opaque: false, writes }
}

/** `link FILE NEW`: NEW is a new name of FILE. */
const link: Program = (words, start, end) => {
  const operands = words.slice(start + 1, end).filter((word) => word.literal !== "--")
  const named = operands[1]
  return { opaque: false, writes: named === undefined ? [] : BashProgramsScan.written(named) }
}

/** The options that make `cp`, `mv`, `ln` and `install` keep a backup of what they replace (`-S` implies `-b`). */
export const BACKUP = ["-b", "-S", "--backup", "--suffix"]

/**
 * Programs that rename files to names they compute, so where each lands is unplaced: util-linux
 * `rename FROM TO file…` (Debian's `rename.ul`) replaces FROM in the whole path
 * (`rename.ul hk .git/hooks/post-checkout hk` wrote a hook), and `mmv` expands its patterns.
 */
const RENAMERS = ["rename.ul", "mmv"]

/**
 * Renamers that run code or an editor: Perl's `rename` (Debian's `rename`, `prename`,
 * `file-rename`, `perl-rename`) evaluates its first word as Perl for every file, and `qmv`,
 * `imv`, `vidir` open `$EDITOR`. A bare `rename` may be either: opaque, as `perl -e` is.
 */
const CODE_RENAMERS = ["rename", "prename", "file-rename", "perl-rename", "qmv", "imv", "vidir", "zmv"]

const recursive = (reading: BashProgramsScan.Reading) => BashProgramsScan.saw(reading, ["-r", "-R", "-a", "--recursive", "--archive"])

export const PROGRAMS: ReadonlyArray<readonly [string, Program]> = [
  ["cp", copying(COPY, { tree: recursive })],
  ["mv", copying(MOVE, { tree: () => true, moves: true })],
  ["ln", copying(LINK, { tree: () => false, lone: true })],
  ["install", copying(INSTALL, { tree: () => false, folders: ["-d", "--directory"] })],
  ["link", link],
  ["dd", dd],
  ["truncate", truncate],
  ...RENAMERS.map((name) => [name, (): BashProgramsScan.Verdict => ({ opaque: false, writes: [BashProgramsScan.UNPLACED] })] as const),
  ...CODE_RENAMERS.map((name) => [name, () => BashProgramsScan.OPAQUE] as const),
]
