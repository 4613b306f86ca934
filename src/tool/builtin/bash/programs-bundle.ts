/**
 * JavaScript bundlers and compilers write where their output options say (the fifth outside
 * review): `esbuild x.js --banner:js='cmd #' --outfile=.envrc` wrote a `.envrc` whose first line
 * is a command, unasked, and `--outdir`, `tsc --outDir`, `rolldown -o`/`-d` and `vite build
 * --outDir` write outside as readily. Each option's file or folder is a target like a redirect's.
 * Only the options named here are read (a write option missing from them is the documented gap of
 * this family); a word that expands where an option could be asks.
 */
export * as BashProgramsBundle from "./programs-bundle.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

type Word = BashParseWord.Word

interface Outputs {
  /** Options whose value is a file written, as written (`--outfile`). */
  readonly files: ReadonlyArray<string>
  /** Options whose value is a folder written into. */
  readonly directories: ReadonlyArray<string>
  /** The value may be the next word (else only after `=`, as esbuild takes it). */
  readonly separate: boolean
  /** Option names compare without case (tsc's `--outdir` is `--outDir`). */
  readonly caseless?: boolean
}

/** A program whose `outputs` options write their value. */
const outputs =
  (spec: Outputs): BashProgramsScan.Program =>
  (words, start, end) => {
    const writes: Array<BashProgramsScan.Write> = []
    const fold = (name: string) => (spec.caseless === true ? name.toLowerCase() : name)
    const files = spec.files.map(fold)
    const directories = spec.directories.map(fold)
    for (let i = start + 1; i < end; i++) {
      const word = words[i] as Word
      const text = BashProgramsScan.literalOf(word)
      if (text === undefined ? BashProgramsScan.mayBeOption(word) : BashProgramsScan.nameExpands(text)) return BashProgramsScan.OPAQUE
      if (text === undefined || !text.startsWith("-")) continue
      const equals = text.indexOf("=")
      const name = fold(equals === -1 ? text : text.slice(0, equals))
      const kind = files.includes(name) ? "file" : directories.includes(name) ? "directory" : undefined
      if (kind === undefined) continue
      const next = words[i + 1]
      if (equals !== -1) writes.push(...BashProgramsScan.writtenValue({ name, value: text.slice(equals + 1), word: undefined }, kind))
      else if (spec.separate && next !== undefined) {
        writes.push(...BashProgramsScan.written(next, kind))
        i++
      }
    }
    return { opaque: false, writes }
  }

export const PROGRAMS: ReadonlyArray<readonly [string, BashProgramsScan.Program]> = [
  ["esbuild", outputs({ files: ["--outfile", "--metafile"], directories: ["--outdir"], separate: false })],
  ["tsc", outputs({ files: ["--outFile", "--out", "--tsBuildInfoFile"], directories: ["--outDir", "--declarationDir", "--generateTrace"], separate: true, caseless: true })],
  ["rolldown", outputs({ files: ["-o", "--file"], directories: ["-d", "--dir"], separate: true })],
  ["rollup", outputs({ files: ["-o", "--file"], directories: ["-d", "--dir"], separate: true })],
  ["vite", outputs({ files: [], directories: ["--outDir"], separate: true })],
]
