/**
 * Programs that run other programs or write files through their own options (07), one entry per
 * program: a rule that allows one by prefix (`sed -n *`, `rg *`, `sort *`, `git diff*`) must
 * not allow it to run what its words do not show, nor to write outside the Location unasked.
 * Each reading of a command (the commands inside wrappers too) is judged by its base name: an
 * option or script form that executes something makes the input opaque (`rg --pre`, `sort
 * --compress-program`, `sed 's/x/y/e'`, `awk '{print > "f"}'`, `tar -I`, `ssh host cmd`);
 * a written file is a target, judged like a redirect (`sort -o`, `sed -i`, `find -fprint`, `curl
 * -o`). Gotcha: option spellings vary (`-ofile`, `--out=f`, options after operands), so each
 * entry reads them with its option table, and fails closed (opaque) where it is unsure.
 */
export * as BashPrograms from "./programs.js"

import type { BashCommand } from "./command.js"
import type { BashParsePlace } from "./parse-place.js"
import { BashParseWrapper } from "./parse-wrapper.js"
import type { BashParseWord } from "./parse-word.js"
import { BashProgramNames } from "./names.js"
import { BashProgramsArchive } from "./programs-archive.js"
import { BashProgramsBuild } from "./programs-build.js"
import { BashProgramsBundle } from "./programs-bundle.js"
import { BashProgramsConfig } from "./programs-config.js"
import { BashProgramsDownload } from "./programs-download.js"
import { BashProgramsExtract } from "./programs-extract.js"
import { BashProgramsFiles } from "./programs-files.js"
import { BashProgramsGit } from "./programs-git.js"
import { BashProgramsNet } from "./programs-net.js"
import { BashProgramsOutput } from "./programs-output.js"
import { BashProgramsRemove } from "./programs-remove.js"
import { BashProgramsScan } from "./programs-scan.js"
import { BashProgramsSed } from "./programs-sed.js"
import { BashProgramsText } from "./programs-text.js"

export type Verdict = BashProgramsScan.Verdict
type Word = BashParseWord.Word
type Program = BashProgramsScan.Program

const scan = BashProgramsScan.scan
const OPAQUE = BashProgramsScan.OPAQUE
const CLEAR = BashProgramsScan.CLEAR

const RG: BashProgramsScan.Spec = {
  flags: "abcFhHiIlLnNopqsSuUvwxz0",
  args: "ABCdEefgjmMrtT",
  longArgs: [
    ...["--after-context", "--before-context", "--context", "--max-depth", "--encoding", "--regexp", "--file", "--glob", "--iglob", "--threads", "--max-count"],
    ...["--max-columns", "--replace", "--type", "--type-not", "--type-add", "--type-clear", "--colors", "--color", "--context-separator", "--field-context-separator"],
    ...["--field-match-separator", "--max-filesize", "--path-separator", "--sort", "--sortr", "--dfa-size-limit", "--regex-size-limit", "--engine", "--hyperlink-format"],
    ...["--ignore-file", "--pre", "--pre-glob", "--hostname-bin"],
  ],
  opaque: ["--pre", "--hostname-bin"],
}

const SORT: BashProgramsScan.Spec = {
  flags: "bdfgiMhnRrVcCmsuz",
  args: "ktS",
  longArgs: ["--key", "--field-separator", "--buffer-size", "--batch-size", "--files0-from", "--parallel", "--random-source", "--sort", "--compress-program"],
  longFlags: [
    ...["--ignore-leading-blanks", "--dictionary-order", "--ignore-case", "--general-numeric-sort", "--ignore-nonprinting", "--month-sort", "--human-numeric-sort"],
    ...["--numeric-sort", "--random-sort", "--reverse", "--version-sort", "--check", "--debug", "--merge", "--stable", "--unique", "--zero-terminated"],
  ],
  longStops: ["--help", "--version"],
  files: ["-o", "--output"],
  directories: ["-T", "--temporary-directory"],
  opaque: ["--compress-program"],
}

/** awk program text that may run a command or read one: `system(`, pipes, `getline`, gawk's `@include`/`@load`. */
const AWK_RUNS = /system|getline|[|@]/
const AWK_PRINT = /\bprintf?\b/g

/**
 * Whether a `print`/`printf` statement of an awk program redirects (`print > "f"`): a `>` outside
 * parentheses and strings before the statement ends; a `/` there (a regex that may hold a `;`)
 * fails closed. A `>` elsewhere is a comparison (`NR > 1`), as inside parentheses.
 */
const redirects = (program: string): boolean =>
  Array.from(program.matchAll(AWK_PRINT)).some((match) => {
    let depth = 0
    for (let i = match.index + match[0].length; i < program.length; i++) {
      const char = program[i] as string
      if (char === '"') {
        while (++i < program.length && program[i] !== '"') if (program[i] === "\\") i++
      } else if (char === "(") depth++
      else if (char === ")") depth--
      else if (depth <= 0 && (char === ">" || char === "/")) return true
      else if (depth <= 0 && (char === ";" || char === "}" || char === "\n")) return false
    }
    return false
  })
const AWK: BashProgramsScan.Spec = {
  flags: "bcCgknNOPrsStVhMIy",
  args: "Fv",
  attached: "dDLop",
  longArgs: ["--field-separator", "--assign", "--file", "--exec", "--include", "--load"],
  longFlags: ["--characters-as-bytes", "--traditional", "--copyright", "--gen-pot", "--csv", "--bignum", "--use-lc-numeric", "--non-decimal-data", "--optimize", "--posix", "--re-interval", "--no-optimize", "--sandbox", "--lint-old", "--trace", "--lint", "--dump-variables", "--debug", "--pretty-print", "--profile"],
  longStops: ["--help", "--version", "--usage"],
  values: ["-e", "--source"],
  opaque: ["-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load", "-W", "-d", "--dump-variables", "-D", "--debug", "-o", "--pretty-print", "-p", "--profile"],
  ordered: true,
}

/** `awk [options] 'program' [files…]`: a program that may run or write anything is opaque (fail closed). */
const awk = scan(AWK, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading) => {
      const given = reading.values.map((value) => value.value)
      const first = reading.operands[0]
      const texts = given.length > 0 ? given : first === undefined ? [] : [found.words[first]?.literal]
      return texts.some((text) => !BashProgramsScan.known(text) || AWK_RUNS.test(text) || redirects(text)) ? OPAQUE : CLEAR
    }),
  ),
)

/** find primaries whose one value is the next word. */
const FIND_VALUES = [
  ...["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype", "-size", "-user", "-group"],
  ...["-uid", "-gid", "-perm", "-newer", "-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-used", "-links", "-inum", "-samefile"],
  ...["-maxdepth", "-mindepth", "-fstype", "-context", "-printf", "-regextype", "-files0-from"],
]
const FIND_WRITES: Readonly<Record<string, number>> = { "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2 }
const FIND_EXEC = ["-exec", "-execdir", "-ok", "-okdir"]

/**
 * `find [-H|-L|-P] [-D opts] [-Olevel] [paths…] [expression]`: `-fprint`, `-fprint0`, `-fprintf`
 * and `-fls` write their file; `-delete` writes under every starting point (`.` when none).
 * `-exec` and its kin are wrappers (BashParseWrapper); their words are skipped here.
 */
const find: Program = (words, start, end) => {
  let i = start + 1
  const text = (at: number) => (words[at] === undefined ? undefined : BashProgramsScan.literalOf(words[at] as Word))
  while (i < end && /^-(?:[HLP]|O\d*|D)$/.test(text(i) ?? "")) i += text(i) === "-D" ? 2 : 1
  const points: Array<Word> = []
  for (; i < end; i++) {
    const word = words[i] as Word
    if (BashProgramsScan.mayBeOption(word)) return OPAQUE
    if (/^[-(!),]/.test(text(i) ?? "")) break
    points.push(word)
  }
  const writes: Array<BashProgramsScan.Write> = []
  let deletes = false
  for (; i < end; i++) {
    const word = words[i] as Word
    // A primary that expands may be any primary: `-exe$'c'` is `-exec`, `-delet{e..e}` is `-delete`.
    if (BashProgramsScan.mayBeOption(word)) return OPAQUE
    const primary = text(i)
    if (primary === undefined) continue
    if (FIND_EXEC.includes(primary)) {
      const close = words.slice(i + 1, end).findIndex((next, n) => next.literal === ";" || (next.literal === "+" && words[i + n]?.literal === "{}"))
      i = close === -1 ? end : i + 1 + close
    } else if (primary === "-delete") deletes = true
    else if (FIND_WRITES[primary] !== undefined) {
      const file = words[i + 1]
      if (file !== undefined && i + 1 < end) writes.push(...BashProgramsScan.written(file))
      i += FIND_WRITES[primary] as number
    } else if (FIND_VALUES.includes(primary) || /^-newer[aBcmt][aBcmt]$/.test(primary)) i++
  }
  const listed = words.slice(start + 1, end).some((word) => word.literal === "-files0-from")
  const roots = deletes ? (listed ? [{ kind: "directory" as const, path: undefined, cwd: [] }] : points.length === 0 ? [{ kind: "directory" as const, path: ".", cwd: [] }] : points.flatMap((word) => BashProgramsScan.written(word, "directory"))) : []
  return { opaque: false, writes: [...writes, ...roots] }
}

/** less, more, most: a `+cmd` runs a command at start; less `-o`/`-O` copies its input to a file. */
const pager = (spec: BashProgramsScan.Spec): Program =>
  scan(spec, (found) => (found.readings.some((reading) => reading.operands.some((index) => found.words[index]?.literal?.startsWith("+") === true)) ? OPAQUE : CLEAR))

/** less: a lesskey file can set LESSOPEN, a program less runs on every file (`#env`), so naming one is opaque. */
const LESS: BashProgramsScan.Spec = {
  flags: "aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWX~",
  args: "bhjkpPtTxyzD#",
  longArgs: ["--lesskey-file", "--lesskey-src", "--lesskey-content", "--tag", "--tag-file", "--prompt", "--pattern"],
  files: ["-o", "-O", "--log-file", "--LOG-FILE"],
  opaque: ["-k", "--lesskey-file", "--lesskey-src", "--lesskey-content"],
}

const MAN: BashProgramsScan.Spec = {
  flags: "acdDfFhiIklKtuVwWZ",
  args: "PCMmSsLeRErp",
  attached: "HXT",
  longArgs: ["--pager", "--config-file", "--manpath", "--systems", "--sections", "--locale", "--extension", "--encoding", "--prompt", "--preprocessor"],
  longFlags: ["--html", "--gxditview", "--troff-device", "--browser", "--local-file", "--where", "--all", "--apropos", "--whatis", "--global-apropos"],
  opaque: ["-P", "--pager", "-H", "--html", "-C", "--config-file", "--browser"],
}

const MAKE: BashProgramsScan.Spec = {
  flags: "BbdeiknpqrRsStvwL",
  args: "CfIoWjl",
  longArgs: ["--directory", "--file", "--makefile", "--include-dir", "--old-file", "--assume-old", "--what-if", "--new-file", "--assume-new", "--eval"],
  values: ["-f", "--file", "--makefile"],
  opaque: ["-E", "--eval"],
}

/** `make -f -` reads its makefile from standard input, which no one sees. */
const make = scan(MAKE, (found) => (found.readings.some((reading) => reading.values.some((value) => !BashProgramsScan.known(value.value) || value.value === "-" || value.value === "/dev/stdin")) ? OPAQUE : CLEAR))

/** npm-family options and config that choose the shell or preload of scripts, or read another config. */
const PACKAGE_RUNS = /^--(?:script-shell|node-options|userconfig|globalconfig|shell-emulator)(?:=|$)/
const CONFIG_WRITES = ["set", "edit", "delete"]

/** npm, pnpm, yarn: `config set`, `set`, `--script-shell`, `--node-options` make scripts run what no word shows. */
const packages: Program = (words, start, end) => {
  const args = words.slice(start + 1, end)
  // A word that expands may be any option: `--script-shel$'l'=x`, `$OPTS`.
  if (args.some(BashProgramsScan.mayBeOption)) return OPAQUE
  const literals = args.map(BashProgramsScan.literalOf)
  const sub = literals.find((word) => word === undefined || !word.startsWith("-"))
  const configures = literals.some((word, index) => word === "config" && CONFIG_WRITES.includes(literals[index + 1] ?? ""))
  if (sub === "set" || configures || literals.some((word) => word !== undefined && PACKAGE_RUNS.test(word))) return OPAQUE
  return BashProgramsConfig.packageConfig(words, start, end)
}

/** Wrappers that write through an option before their command (`time -o f cmd`, `strace -o f cmd`). */
const wrapperOutput = (spec: BashProgramsScan.Spec): Program => scan({ ...spec, ordered: true })

/** `script [file]`: the typescript file is written, and `--log-*` files. */
const script = scan({ ...BashParseWrapper.SCRIPT, files: ["-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing"] }, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading) => {
      const file = reading.operands[0] === undefined ? undefined : found.words[reading.operands[0]]
      return { opaque: false, writes: file === undefined ? [] : BashProgramsScan.written(file) }
    }),
  ),
)

/**
 * Cluster clients that read a kubeconfig: its `users[].user.exec` is a program they run to get a
 * token, so one named on the command line (`--kubeconfig=k.yaml`, which the agent may have
 * written) is opaque, as `KUBECONFIG=` is (parse-guard.ts), and so is a `config` command that
 * writes one (BashProgramsConfig). A word that expands may be that option.
 */
const kubeconfig: Program = (words, start, end) =>
  words.slice(start + 1, end).some((word) => {
    const literal = BashProgramsScan.literalOf(word)
    return literal === undefined || BashProgramsScan.nameExpands(literal) || /^--kubeconfig(?:=|$)/.test(literal)
  })
    ? OPAQUE
    : BashProgramsConfig.kubectlConfig(words, start, end)

/**
 * `ps e`, `ps eww`, `ps axe`: a BSD-style option word (no dash) holding `e` prints the environment
 * every listed process started with, toolgate's own included (`ps eww $PPID` printed the token
 * `toolgate serve` was started with, which the kernel keeps though the server dropped it). It
 * reads what no word names, so it is opaque; `ps -e` (every process) is not that. A word that
 * expands may be such a word.
 */
const ps: Program = (words, start, end) =>
  words.slice(start + 1, end).some((word) => {
    const literal = BashProgramsScan.literalOf(word)
    return literal === undefined || BashProgramsScan.nameExpands(literal) || (!literal.startsWith("-") && literal.includes("e"))
  })
    ? OPAQUE
    : CLEAR

const AWKS = ["awk", "gawk", "mawk", "nawk", "busybox-awk"]

/** One entry per program (by base name). */
export const TABLE: ReadonlyMap<string, Program> = new Map<string, Program>([
  ["rg", scan(RG)],
  ["ps", ps],
  ["sort", scan(SORT)],
  ["sed", BashProgramsSed.sed],
  ["gsed", BashProgramsSed.sed],
  ...AWKS.map((name): [string, Program] => [name, awk]),
  ["find", find],
  ["tar", BashProgramsArchive.tar],
  ["gtar", BashProgramsArchive.tar],
  ["zip", BashProgramsArchive.zip],
  ["xxd", BashProgramsArchive.xxd],
  ["git", BashProgramsGit.git],
  ["less", pager(LESS)],
  ["more", pager({ flags: "dlfpcsu", args: "n" })],
  ["most", pager({ flags: "bkstvwzCM" })],
  ["man", scan(MAN)],
  ["make", make],
  ["gmake", make],
  ["npm", packages],
  ["pnpm", packages],
  ["yarn", packages],
  ["time", wrapperOutput({ flags: "pavq", args: "f", longArgs: ["--format"], longFlags: ["--append", "--verbose", "--quiet", "--portability"], files: ["-o", "--output"] })],
  ["strace", wrapperOutput({ flags: "cCdDfFhiqrtTvVxyz", args: "abeEIpPsSuU", longArgs: ["--trace", "--signal", "--user"], files: ["-o", "--output"] })],
  ["ltrace", wrapperOutput({ flags: "bcCfhiLrStTV", args: "aAeEnlpsuxX", longArgs: ["--library"], files: ["-o", "--output"] })],
  ["script", script],
  ["kubectl", kubeconfig],
  ["helm", kubeconfig],
  ["oc", kubeconfig],
  ...BashProgramsDownload.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsNet.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsFiles.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsBuild.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsRemove.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsText.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsOutput.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsExtract.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsConfig.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
  ...BashProgramsBundle.PROGRAMS.map(([name, program]): [string, Program] => [name, program]),
])

/** Programs whose options neither run nor write anything else: a word added at run time (`xargs rm`) is one more written operand (BashProgramsRemove). */
export const OPERANDS: ReadonlySet<string> = new Set(BashProgramsRemove.PROGRAMS.map(([name]) => name))


const basename = (name: string) => name.slice(name.lastIndexOf("/") + 1)

/**
 * The verdict on the command named by `words[start]` over its words up to `end`.
 * @example BashPrograms.judge(words("sort -o /etc/x f"), 0, 4).writes // [{ kind: "file", path: "/etc/x", cwd: [] }]
 */
export const judge = (words: ReadonlyArray<Word>, start: number, end: number): Verdict => {
  const name = words[start]?.literal
  const program = name === undefined ? undefined : programOf(name)
  return program === undefined ? CLEAR : program(words, start, end)
}

/** The program of the command `name` (by base name): the table's (its stem's for a versioned name, `gawk-5.2`), else git's for `git-<sub-command>`, else a compiler's by its name's shape (`gcc-12`). */
export const programOf = (name: string): Program | undefined => {
  const base = basename(name)
  return BashProgramNames.lookup(TABLE, base) ?? BashProgramsGit.dashed(base) ?? BashProgramsBuild.compiler(base)
}

/** The targets of a verdict's writes, at each of `places`, after the reading's own `cwd`. */
export const targets = (verdict: Verdict, places: BashParsePlace.Places, cwd: BashParsePlace.Chain): ReadonlyArray<BashCommand.Target> =>
  verdict.writes.flatMap((write) =>
    places.map((place) => ({ kind: write.kind, path: write.path, cwd: [...place.cwd, ...cwd, ...write.cwd], ...(write.sources === undefined ? {} : { sources: write.sources }) })),
  )
