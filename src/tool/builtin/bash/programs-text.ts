/**
 * Text tools that write files through an operand or an option (an attacker's review found them
 * unmodelled): `uniq IN OUT`, `shuf -o`, `iconv -o`, `split IN PREFIX`, `csplit -f PREFIX`,
 * `tree -o`, `sponge FILE`, `yq -i`, `patch -o`/`-r`. A written operand is a target like a redirect's; `split` and `csplit` write files
 * named by a prefix and a generated suffix, judged at the prefix (default `x`, `xx`: where the
 * command runs), and a chosen suffix makes the name unknowable, so the line is opaque.
 */
export * as BashProgramsText from "./programs-text.js"

import { ProtectedPath } from "../../../location/protected-path.js"
import { BashParseOption } from "./parse-option.js"
import { BashProgramsScan } from "./programs-scan.js"

type Program = BashProgramsScan.Program

/**
 * Whether a prefix may be completed into a protected name by the letters or digits a program
 * appends (`split -a1 -l1 x .envr` writes `.envra`, `.envrb`, `.envrc`): its last segment begins
 * a segment of a protected name, case folded. Then where the output lands is not placed.
 */
const completesProtected = (prefix: string): boolean => {
  const last = (prefix.split("/").at(-1) ?? "").toLowerCase()
  return ProtectedPath.NAMES.some((name) => name.split("/").some((segment) => segment.toLowerCase().startsWith(last) && segment.length > last.length))
}

/** A prefix's write, unplaced when what is appended may complete a protected name. */
const prefixed = (write: BashProgramsScan.Write): BashProgramsScan.Write => (write.path !== undefined && completesProtected(write.path) ? BashProgramsScan.UNPLACED : write)

/** The write of the operand at `position` of each reading (`uniq in out`: position 1), as `place` puts it (`prefixed` for split). */
const operandWrite = (spec: BashProgramsScan.Spec, position: number, fallback?: string, place: (write: BashProgramsScan.Write) => BashProgramsScan.Write = (write) => write): Program =>
  BashProgramsScan.scan(spec, (found) =>
    BashProgramsScan.union(
      found.readings.map((reading) => {
        const index = reading.operands[position]
        const word = index === undefined ? undefined : found.words[index]
        const writes = word !== undefined ? BashProgramsScan.written(word) : fallback === undefined ? [] : [{ kind: "file" as const, path: fallback, cwd: [] }]
        return { opaque: false, writes: writes.map(place) }
      }),
    ),
  )

const UNIQ: BashProgramsScan.Spec = {
  flags: "cdDiuz",
  args: "fsw",
  longArgs: ["--skip-fields", "--skip-chars", "--check-chars"],
  longFlags: ["--count", "--repeated", "--all-repeated", "--group", "--ignore-case", "--unique", "--zero-terminated"],
  longStops: ["--help", "--version"],
}

const SHUF: BashProgramsScan.Spec = {
  flags: "erz",
  args: "ino",
  longArgs: ["--input-range", "--head-count", "--output", "--random-source"],
  longFlags: ["--echo", "--repeat", "--zero-terminated"],
  longStops: ["--help", "--version"],
  files: ["-o", "--output"],
}

const ICONV: BashProgramsScan.Spec = {
  flags: "cls",
  args: "fto",
  longArgs: ["--from-code", "--to-code", "--output"],
  longFlags: ["--list", "--silent"],
  longStops: ["--help", "--version", "--usage"],
  files: ["-o", "--output"],
}

const SPLIT: BashProgramsScan.Spec = {
  flags: "denux",
  args: "abClt",
  longArgs: ["--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--filter", "--additional-suffix", "--numeric-suffixes", "--hex-suffixes"],
  longFlags: ["--elide-empty-files", "--unbuffered", "--verbose"],
  longStops: ["--help", "--version"],
  opaque: ["--filter", "--additional-suffix"],
}

const CSPLIT: BashProgramsScan.Spec = {
  flags: "kszq",
  args: "bfn",
  longArgs: ["--suffix-format", "--prefix", "--digits"],
  longFlags: ["--keep-files", "--suppress-matched", "--quiet", "--silent", "--elide-empty-files"],
  longStops: ["--help", "--version"],
  files: ["-f", "--prefix"],
  opaque: ["-b", "--suffix-format"],
}

/** csplit writes `xx00`… where it runs unless `-f` names the prefix. */
const csplit: Program = BashProgramsScan.scan(CSPLIT, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading) =>
      {
        const prefix = reading.values.find((value) => BashParseOption.has(CSPLIT.files, value.name))
        // The prefix named by -f is a written file (BashProgramsScan's `files`); unplaced when digits may complete a protected name.
        if (prefix !== undefined) return { opaque: false, writes: prefix.value !== undefined && completesProtected(prefix.value) ? [BashProgramsScan.UNPLACED] : [] }
        return { opaque: false, writes: [{ kind: "file" as const, path: "xx", cwd: [] }] }
      },
    ),
  ),
)

const TREE: BashProgramsScan.Spec = {
  flags: "adlfxpsughDFqNQrtvUcSnCAJXR",
  args: "LPIHTo",
  longArgs: ["--filelimit", "--timefmt", "--charset", "--sort"],
  files: ["-o"],
}

/**
 * patch: `-o FILE` takes the patched text and `-r FILE` the rejects; where it writes without them
 * is named by the patch, asked as a fed folder (BashInputWrites).
 */
const PATCH: BashProgramsScan.Spec = {
  flags: "bcEefflnNRsStTuUvZ",
  args: "BDdFgioprVYz",
  longArgs: ["--prefix", "--ifdef", "--directory", "--fuzz", "--get", "--input", "--strip", "--version-control", "--basename-prefix", "--suffix", "--quoting-style", "--reject-format"],
  longFlags: ["--backup", "--context", "--ed", "--force", "--normal", "--dry-run", "--reverse", "--silent", "--quiet", "--unified", "--verbose", "--forward", "--ignore-whitespace", "--merge", "--posix", "--batch", "--set-time", "--set-utc", "--remove-empty-files"],
  longStops: ["--help", "--version"],
  files: ["-o", "--output", "-r", "--reject-file"],
}

/** yq's sub-commands (mikefarah's `yq eval …`): not files. */
const YQ_SUBS = ["e", "eval", "ea", "eval-all"]

/**
 * `yq -i`/`--inplace`/`--in-place` (mikefarah's and the Python one alike) rewrites its file
 * operands; which operand is the expression differs between them, so every operand counts as
 * written (an expression as a file name inside the working directory changes nothing). A word
 * that expands may be that option: opaque.
 */
const yq: Program = (words, start, end) => {
  const literals = words.slice(start + 1, end).map(BashProgramsScan.literalOf)
  if (literals.some((word) => word === undefined || BashProgramsScan.nameExpands(word))) return BashProgramsScan.OPAQUE
  const inPlace = literals.some((word) => word === "--inplace" || word === "--in-place" || /^-[A-Za-z]*i[A-Za-z]*$/.test(word ?? ""))
  if (!inPlace) return BashProgramsScan.CLEAR
  const operands = words.slice(start + 1, end).filter((_, index) => !(literals[index] ?? "-").startsWith("-") && !YQ_SUBS.includes(literals[index] ?? ""))
  return { opaque: false, writes: operands.flatMap((word) => BashProgramsScan.written(word)) }
}

export const PROGRAMS: ReadonlyArray<readonly [string, Program]> = [
  // `sponge [-a] file`: soaks standard input up, then writes the file.
  ["sponge", operandWrite({ flags: "a" }, 0)],
  ["yq", yq],
  ["patch", BashProgramsScan.scan(PATCH)],
  ["uniq", operandWrite(UNIQ, 1)],
  ["shuf", BashProgramsScan.scan(SHUF)],
  ["iconv", BashProgramsScan.scan(ICONV)],
  ["split", operandWrite(SPLIT, 1, "x", prefixed)],
  ["csplit", csplit],
  ["tree", BashProgramsScan.scan(TREE)],
]
