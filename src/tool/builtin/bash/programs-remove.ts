/**
 * Programs that delete, create or change the files their operands name (07): `rm`, `rmdir`,
 * `unlink`, busybox's `nuke`, `shred`, `touch`, `mkdir`, `chmod`, `chown`, `chgrp`. An outside review found `rm
 * -rf ../sib` allowed while `find .. -delete` asked: deleting is writing, so every operand is a
 * write target, judged like a redirect's (`rm .git/config` asks `edit`, `rm -r ../x` asks
 * `external_directory`). chmod, chown and chgrp take a mode or owner first, unless `--reference`.
 * Gotcha: a mode may look like an option (`chmod -w f`): the option table reads it both ways,
 * and every reading's operands are targets. No option of these runs a program or writes another
 * file, so a word that is not static where an option could be (`rm $f`, `xargs rm`) is not
 * opaque (that would turn an `rm *` deny into an ask): every word but a static option is then a
 * write, unknown when not static. Left alone: a folder that holds protected names
 * (`rm -r evil` with `evil/.git`) is judged by its own name only.
 */
export * as BashProgramsRemove from "./programs-remove.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

type Program = BashProgramsScan.Program
type Word = BashParseWord.Word

const STOPS = ["--help", "--version"]

const RM: BashProgramsScan.Spec = {
  flags: "fiIrRdv",
  longFlags: ["--force", "--recursive", "--dir", "--one-file-system", "--no-preserve-root", "--verbose", "--interactive", "--preserve-root"],
  longStops: STOPS,
}

const RMDIR: BashProgramsScan.Spec = { flags: "pv", longFlags: ["--ignore-fail-on-non-empty", "--parents", "--verbose"], longStops: STOPS }

const UNLINK: BashProgramsScan.Spec = { longStops: STOPS }

const SHRED: BashProgramsScan.Spec = {
  flags: "uzxfv",
  args: "ns",
  longArgs: ["--iterations", "--size", "--random-source"],
  longFlags: ["--remove", "--zero", "--exact", "--force", "--verbose"],
  longStops: STOPS,
}

const TOUCH: BashProgramsScan.Spec = {
  flags: "acfhm",
  args: "drt",
  longArgs: ["--date", "--reference", "--time"],
  longFlags: ["--no-create", "--no-dereference"],
  longStops: STOPS,
}

const MKDIR: BashProgramsScan.Spec = { flags: "pvZ", args: "m", longArgs: ["--mode"], longFlags: ["--parents", "--verbose", "--context"], longStops: STOPS }

const CHMOD: BashProgramsScan.Spec = {
  flags: "cfvR",
  longArgs: ["--reference"],
  longFlags: ["--changes", "--silent", "--quiet", "--verbose", "--recursive", "--no-preserve-root", "--preserve-root"],
  longStops: STOPS,
}

const CHOWN: BashProgramsScan.Spec = {
  flags: "cfvRhHLP",
  longArgs: ["--reference", "--from"],
  longFlags: ["--changes", "--silent", "--quiet", "--verbose", "--recursive", "--dereference", "--no-dereference", "--no-preserve-root", "--preserve-root"],
  longStops: STOPS,
}

/** Letters of a mode written as an option (`chmod -w f`, `chmod -x,u+r f`): the first operand is then a file. */
const MODE_OPTION = /^-[rwxXst]$/

/** Whether a reading's first operand is a mode or owner: none with `--reference`, nor after a mode read as an option. */
const named = (reading: BashProgramsScan.Reading) => !BashProgramsScan.saw(reading, ["--reference"]) && !reading.seen.some((name) => MODE_OPTION.test(name))

/** Every word that is not a static option, each a written file (unknown when not static). */
const loose: Program = (words, start, end) => ({
  opaque: false,
  writes: words.slice(start + 1, end).flatMap((word) => (word.literal?.startsWith("-") === true ? [] : word.literal === undefined ? [{ kind: "file" as const, path: undefined, cwd: [] }] : BashProgramsScan.written(word))),
})

/** The operands of every reading, each a written file; the first is a mode or owner when `skip` and `named`. */
const operands = (spec: BashProgramsScan.Spec, skip: boolean): Program => {
  const read = scan(spec, skip)
  return (words, start, end) => (words.slice(start + 1, end).some(BashProgramsScan.mayBeOption) ? loose(words, start, end) : read(words, start, end))
}

const scan = (spec: BashProgramsScan.Spec, skip: boolean): Program =>
  BashProgramsScan.scan(spec, (found) =>
    BashProgramsScan.union(
      found.readings.map((reading) => {
        const first = skip && named(reading) ? 1 : 0
        return { opaque: false, writes: reading.operands.slice(first).flatMap((index) => BashProgramsScan.written(found.words[index] as Word)) }
      }),
    ),
  )

export const PROGRAMS: ReadonlyArray<readonly [string, Program]> = [
  ["rm", operands(RM, false)],
  ["rmdir", operands(RMDIR, false)],
  ["unlink", operands(UNLINK, false)],
  // busybox's (and klibc's) `nuke DIR…` removes each operand as `rm -rf` does (the sixth review
  // removed `.git` with it unasked).
  ["nuke", operands(UNLINK, false)],
  ["shred", operands(SHRED, false)],
  ["touch", operands(TOUCH, false)],
  ["mkdir", operands(MKDIR, false)],
  ["chmod", operands(CHMOD, true)],
  ["chown", operands(CHOWN, true)],
  ["chgrp", operands(CHOWN, true)],
]
