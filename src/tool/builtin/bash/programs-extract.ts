/**
 * Extractors that write into a folder their words name, like `tar -x -C dir` (the fifth outside
 * review found them unread): `unzip … -d dir` (`-ddir`; `.` without it), `ar x --output=dir`,
 * `dpkg-deb -x|-X|-R deb dir` (and `dpkg` with those actions, which it hands to dpkg-deb), `-e`
 * into `DEBIAN` or its folder. The folder is a target a protected one asks for, like `tar -C`:
 * `unzip t.zip -d .git/hooks` installed a hook, and `-d ../sib` wrote outside, unasked. What an
 * archive holds is not read here: its names are the input's, asked as a fed folder (BashInputWrites); unzip's `-:`, which
 * lets names climb out with `..`, is a write to an unknown path.
 */
export * as BashProgramsExtract from "./programs-extract.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

type Word = BashParseWord.Word
type Write = BashProgramsScan.Write

/** unzip letters after which nothing is extracted to files: list, test, to standard output, comment, zipinfo. */
const UNZIP_READS = /[lvtpczZ]/

/**
 * `unzip [-opts] file[.zip] [list] [-x xlist] [-d exdir]`: options anywhere, letters in clusters;
 * `-d` takes the rest of its cluster or the next word.
 */
const unzip: BashProgramsScan.Program = (words, start, end) => {
  const folders: Array<Write> = []
  let reads = false
  let climbs = false
  for (let i = start + 1; i < end; i++) {
    const word = words[i] as Word
    const text = BashProgramsScan.literalOf(word)
    if (text === undefined ? BashProgramsScan.mayBeOption(word) : BashProgramsScan.nameExpands(text)) return BashProgramsScan.OPAQUE
    if (text === undefined || !text.startsWith("-") || text === "-") continue
    const letters = text.slice(1)
    const at = letters.indexOf("d")
    const own = at === -1 ? letters : letters.slice(0, at)
    if (UNZIP_READS.test(own)) reads = true
    if (own.includes(":")) climbs = true
    if (at === -1) continue
    const rest = letters.slice(at + 1)
    const next = words[i + 1]
    if (rest !== "") folders.push(...BashProgramsScan.writtenValue({ name: "-d", value: rest, word: undefined }, "directory"))
    else if (next !== undefined) folders.push(...BashProgramsScan.written(next, "directory"))
    if (rest === "") i++
  }
  if (reads) return BashProgramsScan.CLEAR
  const into = folders.length === 0 ? [{ kind: "directory" as const, path: ".", cwd: [] }] : folders
  return { opaque: false, writes: [...into, ...(climbs ? [{ kind: "file" as const, path: undefined, cwd: [] }] : [])] }
}

/** `ar x archive --output=dir` (binutils): extraction lands in the folder, else where ar runs (already judged). */
const ar: BashProgramsScan.Program = (words, start, end) => {
  const writes: Array<Write> = []
  for (let i = start + 1; i < end; i++) {
    const word = words[i] as Word
    const text = BashProgramsScan.literalOf(word)
    if (text === undefined ? BashProgramsScan.mayBeOption(word) : BashProgramsScan.nameExpands(text)) return BashProgramsScan.OPAQUE
    if (text === undefined || !text.startsWith("--out")) continue
    const equals = text.indexOf("=")
    const next = words[i + 1]
    if (equals !== -1) writes.push(...BashProgramsScan.writtenValue({ name: "--output", value: text.slice(equals + 1), word: undefined }, "directory"))
    else if (next !== undefined) writes.push(...BashProgramsScan.written(next, "directory"))
  }
  return { opaque: false, writes }
}

/** dpkg-deb's actions that extract, as written (`-x`, `--extract`, `--ex`…), and where `-e` lands without a folder. */
const DPKG_EXTRACTS = ["-x", "-X", "-R", "-e", "--extract", "--vextract", "--raw-extract", "--control"]

/** `dpkg-deb -x deb dir`: the folder after the archive is written into; `-e deb` writes `DEBIAN`. */
const dpkgDeb: BashProgramsScan.Program = (words, start, end) => {
  const literals = words.slice(start + 1, end).map((word) => BashProgramsScan.literalOf(word as Word))
  const action = literals.findIndex((text) => text !== undefined && text.startsWith("-") && DPKG_EXTRACTS.some((name) => name === text.split("=")[0] || (text.startsWith("--") && text.length > 3 && name.startsWith(text.split("=")[0] as string))))
  if (words.slice(start + 1, end).some((word) => BashProgramsScan.mayBeOption(word))) return BashProgramsScan.OPAQUE
  if (action === -1) return BashProgramsScan.CLEAR
  const operands = words.slice(start + 1 + action + 1, end).filter((word) => !(BashProgramsScan.literalOf(word)?.startsWith("-") ?? false))
  const folder = operands[1]
  const control = literals[action] === "-e" || literals[action]?.startsWith("--c") === true
  if (folder !== undefined) return { opaque: false, writes: BashProgramsScan.written(folder, "directory") }
  return { opaque: false, writes: control ? [{ kind: "directory", path: "DEBIAN", cwd: [] }] : [{ kind: "directory", path: undefined, cwd: [] }] }
}

export const PROGRAMS: ReadonlyArray<readonly [string, BashProgramsScan.Program]> = [
  ["unzip", unzip],
  ["ar", ar],
  ["dpkg-deb", dpkgDeb],
  ["dpkg", dpkgDeb],
]
