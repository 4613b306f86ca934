/**
 * Programs that make a file next to or instead of their operands (07): decompressors write each
 * operand without its suffix (`gunzip .envrc.gz` writes `.envrc`; bzip2 adds `.out` to a name
 * without one), compressors write it with the suffix and delete it, unless `-c`/`--stdout`,
 * `-t` or `-l` (nothing written) or `-k` (kept); `lz4 in out` and `zstd -o` write their output.
 * Compilers, assemblers and linkers write their `-o` value (`cc -o ../x`, `go build -o`,
 * `rustc -o`), `strip` its operands in place or its `-o`, `objcopy` its last operand. What
 * cannot be known (`-r`, a file list, an output folder, a response file `@args`) is a write to
 * an unknown path. Left alone: a compiler's default outputs (`a.out`, `x.o`, `-MD` files) land
 * beside the command, in the working directory.
 */
export * as BashProgramsBuild from "./programs-build.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

type Program = BashProgramsScan.Program
type Word = BashParseWord.Word
type Write = BashProgramsScan.Write

const unknown: Write = { kind: "file", path: undefined, cwd: [] }
const at = (path: string): Write => ({ kind: "file", path, cwd: [] })

/** Suffixes of archives that decompress to a `.tar`. */
const TAR_SUFFIXES: Readonly<Record<string, string>> = { ".tgz": ".tar", ".taz": ".tar", ".tbz": ".tar", ".tbz2": ".tar", ".txz": ".tar", ".tzst": ".tar", ".tlz4": ".tar" }

interface Codec {
  readonly spec: BashProgramsScan.Spec
  /** Suffixes it strips when decompressing; the first is the one it adds. */
  readonly suffixes: ReadonlyArray<string>
  /** It decompresses without `-d` (`gunzip`). */
  readonly decompresses?: boolean
  /** It keeps its input unless `--rm` (zstd, lz4). */
  readonly keeps?: boolean
  /** A name without a known suffix decompresses to `name.out` (bzip2), else it is refused. */
  readonly out?: boolean
  /** `lz4 in out`: a second operand is the output. */
  readonly paired?: boolean
}

const STDOUT = ["-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"]
const UNKNOWABLE = ["-r", "--recursive", "--files", "--files0", "--filelist", "--output-dir-flat", "--output-dir-mirror"]
const DECOMPRESS = ["-d", "--decompress", "--uncompress"]
const COMMON = ["--stdout", "--to-stdout", "--decompress", "--uncompress", "--compress", "--force", "--keep", "--list", "--test", "--quiet", "--verbose", "--recursive", "--fast", "--best", "--rm"]

const GZIP: BashProgramsScan.Spec = { flags: "cdfhklLnNqrtvVz123456789", args: "S", longArgs: ["--suffix"], longFlags: [...COMMON, "--no-name", "--name", "--rsyncable", "--synchronous"], values: ["-S", "--suffix"] }
const XZ: BashProgramsScan.Spec = {
  flags: "zdtlkfcqQvhHVe0123456789",
  args: "FCTMS",
  longArgs: ["--suffix", "--format", "--check", "--threads", "--memlimit", "--memory", "--files", "--files0", "--block-size", "--block-list"],
  longFlags: [...COMMON, "--extreme", "--single-stream", "--no-sparse"],
  values: ["-S", "--suffix"],
}
const BZIP2: BashProgramsScan.Spec = { flags: "cdzkfqtvsL123456789V", longFlags: [...COMMON, "--small"] }
const ZSTD: BashProgramsScan.Spec = {
  flags: "zdcfkqvhHVlrt0123456789",
  args: "DTBM",
  longArgs: ["--format", "--memory", "--threads", "--filelist", "--output-dir-flat", "--output-dir-mirror"],
  longFlags: [...COMMON, "--ultra", "--long", "--rsyncable", "--no-progress"],
  files: ["-o"],
}
const LZ4: BashProgramsScan.Spec = { flags: "zdcfkqvhHVlmrt0123456789BDSX", longFlags: [...COMMON, "--multiple", "--content-size", "--favor-decSpeed"] }

/** The name a decompressor gives `name`, or undefined when it refuses it. */
const stripped = (name: string, suffixes: ReadonlyArray<string>, out: boolean): string | undefined => {
  const lower = name.toLowerCase()
  const suffix = suffixes.find((candidate) => candidate !== "" && lower.endsWith(candidate.toLowerCase()) && lower.length > candidate.length)
  if (suffix !== undefined) return `${name.slice(0, -suffix.length)}${TAR_SUFFIXES[suffix] ?? ""}`
  return out ? `${name}.out` : undefined
}

/** A decompressor or compressor: what each operand becomes, and the operand itself when it is deleted. */
const codec = (codec: Codec): Program =>
  BashProgramsScan.scan(codec.spec, (found) =>
    BashProgramsScan.union(
      found.readings.map((reading): BashProgramsScan.Verdict => {
        if (BashProgramsScan.saw(reading, STDOUT)) return BashProgramsScan.CLEAR
        if (BashProgramsScan.saw(reading, UNKNOWABLE)) return { opaque: false, writes: [unknown] }
        if (BashProgramsScan.saw(reading, ["-o"])) return BashProgramsScan.CLEAR
        const words = reading.operands.map((index) => found.words[index] as Word).filter((word) => word.literal !== "-")
        if (codec.paired === true && words.length === 2 && !BashProgramsScan.saw(reading, ["-m", "--multiple"])) return { opaque: false, writes: BashProgramsScan.written(words[1] as Word) }
        const custom = reading.values.filter((value) => value.name === "-S" || value.name === "--suffix").map((value) => value.value)
        if (custom.some((value) => !BashProgramsScan.known(value))) return { opaque: false, writes: [unknown] }
        const suffixes = [...(custom as ReadonlyArray<string>), ...codec.suffixes, ...(codec.suffixes.length > 0 ? Object.keys(TAR_SUFFIXES) : [])]
        const decompress = codec.decompresses === true || BashProgramsScan.saw(reading, DECOMPRESS)
        const deletes = codec.keeps === true ? BashProgramsScan.saw(reading, ["--rm"]) : !BashProgramsScan.saw(reading, ["-k", "--keep"])
        const writes = words.flatMap((word): ReadonlyArray<Write> => {
          const name = word.path
          if (name === undefined) return [unknown]
          const made = decompress ? stripped(name, suffixes, codec.out === true) : `${name}${suffixes[0] ?? ""}`
          return [...(made === undefined ? [] : [at(made)]), ...(deletes ? BashProgramsScan.written(word) : [])]
        })
        return { opaque: false, writes }
      }),
    ),
  )

/**
 * The `-o` value of a compiler-like program (`-o FILE`, `-oFILE`, `--output[=]FILE`): a written
 * file. A word that is not static where an option could be is opaque; a response file (`@f`)
 * or an option in `unknowable` is a write to an unknown path.
 */
const output =
  (unknowable: ReadonlyArray<string> = [], compiler = false): Program =>
  (words, start, end) => {
    const writes: Array<Write> = []
    for (let i = start + 1; i < end; i++) {
      const word = words[i] as Word
      if (BashProgramsScan.mayBeOption(word)) return BashProgramsScan.OPAQUE
      const text = BashProgramsScan.literalOf(word) ?? ""
      const next = () => (i + 1 < end ? words[i + 1] : undefined)
      if (text.startsWith("@") || unknowable.some((name) => text.startsWith(name))) writes.push(unknown)
      else if (compiler && LINKER_OUTPUT.test(text)) writes.push(unknown)
      else if (compiler && text === "-Xlinker") {
        // Its value is the linker's word: `-o` there names the output, in the -Xlinker after it.
        if (/^(?:-o|--output)/.test(BashProgramsScan.literalOf(next() ?? word) ?? "-o")) writes.push(unknown)
        i++
      } else if (compiler && text === "-MF") {
        const named = next()
        if (named !== undefined) writes.push(...BashProgramsScan.written(named))
        i++
      } else if (compiler && text.startsWith("-MF")) writes.push(...BashProgramsScan.writtenValue({ name: "-MF", value: text.slice(3), word: undefined }))
      else if (text === "-o" || text === "--output") {
        const next = words[i + 1]
        if (next !== undefined && i + 1 < end) writes.push(...BashProgramsScan.written(next))
        i++
      } else if (text.startsWith("--output=")) writes.push(...BashProgramsScan.writtenValue({ name: "--output", value: text.slice(9), word: undefined }))
      else if (/^-o[^-]/.test(text)) writes.push(...BashProgramsScan.writtenValue({ name: "-o", value: text.slice(2), word: undefined }))
    }
    return { opaque: false, writes }
  }

/** Whether a word is an operand of strip or objcopy: static and not an option. */
const operand = (word: Word) => word.literal !== undefined && !word.literal.startsWith("-")

/** `strip [options] file…`: its `-o` file, else every operand in place. */
const strip: Program = (words, start, end) => {
  const named = output()(words, start, end)
  if (named.opaque || named.writes.length > 0) return named
  return { opaque: false, writes: words.slice(start + 1, end).filter(operand).flatMap((word) => BashProgramsScan.written(word)) }
}

/** `objcopy [options] in [out]`: its last operand (the input, in place, when alone). */
const objcopy: Program = (words, start, end) => {
  const args = words.slice(start + 1, end)
  if (args.some(BashProgramsScan.mayBeOption)) return BashProgramsScan.OPAQUE
  const last = args.filter(operand).at(-1)
  return { opaque: false, writes: last === undefined ? [] : BashProgramsScan.written(last) }
}

/** `go build`/`go test` write their `-o`; other sub-commands write nothing here. */
const go: Program = (words, start, end) => (["build", "test"].includes(words[start + 1]?.literal ?? "") ? output()(words, start + 1, end) : BashProgramsScan.CLEAR)

/** A linker option passed through (`-Wl,-o,f`, `-Wl,--output=f`) that names the output: where it lands is not read here. */
const LINKER_OUTPUT = /^-Wl,(?:.*,)?(?:-o|--output)(?:[,=]|$)/

/** Options of a compiler whose files land where is not read here (auxiliary outputs). */
const AUXILIARY = ["-dumpdir", "-dumpbase", "-save-temps"]

/**
 * Compilers, preprocessors, assemblers and linkers, by name, with a target prefix and a version
 * (`x86_64-linux-gnu-gcc-12`, `clang++-17`, `ld.gold`, `c99`): each writes its `-o`.
 */
const COMPILER = /^(?:[\w.+-]+-)?(?:cc|c\+\+|gcc|g\+\+|clang|clang\+\+|c89|c99|cpp|ld(?:\.\w+)?|gold|lld|as|gas)(?:-\d+(?:\.\d+)*)?$/

/** `cpp in out`: besides `-o`, its second operand is the output file. */
const cpp: Program = (words, start, end) => {
  const named = output(AUXILIARY, true)(words, start, end)
  if (named.opaque) return named
  const operands = words.slice(start + 1, end).filter((word, index, all) => operand(word) && BashProgramsScan.literalOf(all[index - 1] ?? word) !== "-o")
  const second = operands[1]
  return second === undefined ? named : { opaque: false, writes: [...named.writes, ...BashProgramsScan.written(second)] }
}

/**
 * The program of a compiler-like name the table does not list by itself (a cross compiler, a
 * versioned one); undefined for any other name.
 * @example BashProgramsBuild.compiler("gcc-12") // the reader of `-o`
 */
export const compiler = (name: string): Program | undefined => {
  if (!COMPILER.test(name)) return undefined
  return /(?:^|-)cpp(?:-\d+(?:\.\d+)*)?$/.test(name) ? cpp : output(AUXILIARY, true)
}

export const PROGRAMS: ReadonlyArray<readonly [string, Program]> = [
  ["gzip", codec({ spec: GZIP, suffixes: [".gz", "-gz", ".z", "-z", "_z"] })],
  ["gunzip", codec({ spec: GZIP, suffixes: [".gz", "-gz", ".z", "-z", "_z"], decompresses: true })],
  ["xz", codec({ spec: XZ, suffixes: [".xz", ".lzma"] })],
  ["unxz", codec({ spec: XZ, suffixes: [".xz", ".lzma"], decompresses: true })],
  ["bzip2", codec({ spec: BZIP2, suffixes: [".bz2", ".bz"], out: true })],
  ["bunzip2", codec({ spec: BZIP2, suffixes: [".bz2", ".bz"], decompresses: true, out: true })],
  ["zstd", codec({ spec: ZSTD, suffixes: [".zst"], keeps: true })],
  ["unzstd", codec({ spec: ZSTD, suffixes: [".zst"], decompresses: true, keeps: true })],
  ["lz4", codec({ spec: LZ4, suffixes: [".lz4"], keeps: true, paired: true })],
  ["unlz4", codec({ spec: LZ4, suffixes: [".lz4"], decompresses: true, keeps: true, paired: true })],
  // The same formats under other names: aliases, parallel builds, older front ends.
  ...["pigz", "lbzip2", "pbzip2"].map((name): readonly [string, Program] => [name, name === "pigz" ? codec({ spec: GZIP, suffixes: [".gz", "-gz", ".z", "-z", "_z"] }) : codec({ spec: BZIP2, suffixes: [".bz2", ".bz"], out: true })]),
  ["unpigz", codec({ spec: GZIP, suffixes: [".gz", "-gz", ".z", "-z", "_z"], decompresses: true })],
  ["uncompress", codec({ spec: GZIP, suffixes: [".Z", ".z", ".gz"], decompresses: true })],
  ["lzma", codec({ spec: XZ, suffixes: [".lzma", ".xz"] })],
  ["unlzma", codec({ spec: XZ, suffixes: [".lzma", ".xz"], decompresses: true })],
  ["zstdmt", codec({ spec: ZSTD, suffixes: [".zst"], keeps: true })],
  ["lz4c", codec({ spec: LZ4, suffixes: [".lz4"], keeps: true, paired: true })],
  ["rustc", output(["--out-dir", "--emit"])],
  ["strip", strip],
  ["objcopy", objcopy],
  ["go", go],
]
