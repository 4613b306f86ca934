/**
 * Programs' own commands that write their configuration, which names programs they or a later
 * command run (the fifth outside review; `git config` and `npm config set` were already opaque).
 * Each wrote a file the protected list names, or one that chooses a program, without an ask:
 * `npm c set script-shell=…` and `npm conf set` (npm's alias and a prefix of `config`: the shell
 * of every later `npm run`), `pip config set` (`pip.conf`, the package index), `kubectl config
 * set-credentials --exec-command=…` and `kubectl config set users.x.exec.command …` (a program the
 * next `kubectl` runs), `aws configure set profile.x.credential_process …` (run by the next `aws`
 * call), `gh config set` (gh's editor, pager and browser). Opaque; their reads stay clear. apt's
 * configuration on its command line (`-o`, `-c`) is opaque too (the sixth review).
 */
export * as BashProgramsConfig from "./programs-config.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"

type Program = BashProgramsScan.Program
type Word = BashParseWord.Word

/** The static words after the program, or undefined when one may expand to an option or a command. */
const literalsOf = (words: BashProgramsScan.Words, start: number, end: number): ReadonlyArray<string> | undefined => {
  const args = words.slice(start + 1, end)
  if (args.some((word) => BashProgramsScan.mayBeOption(word as Word))) return undefined
  const literals = args.map((word) => BashProgramsScan.literalOf(word as Word))
  return literals.some((word) => word === undefined) ? undefined : (literals as ReadonlyArray<string>)
}

/**
 * `<program> … <command> <action> …`: opaque when an operand is `command` and the word after it is
 * not one of `reads` (or is missing and `bare` writes, as `aws configure` prompts for keys).
 * Option values are not told apart from operands (`kubectl -n x config set …`): any operand may
 * be the command, which only asks more.
 */
const configures =
  (command: (word: string) => boolean, reads: ReadonlyArray<string>, bare: boolean): Program =>
  (words, start, end) => {
    const literals = literalsOf(words, start, end)
    if (literals === undefined) return BashProgramsScan.OPAQUE
    const operands = literals.filter((word) => !word.startsWith("-"))
    const at = operands.findIndex(command)
    if (at === -1) return BashProgramsScan.CLEAR
    const action = operands[at + 1]
    if (action === undefined) return bare ? BashProgramsScan.OPAQUE : BashProgramsScan.CLEAR
    return reads.includes(action) ? BashProgramsScan.CLEAR : BashProgramsScan.OPAQUE
  }

/**
 * npm, pnpm and yarn: `config` by its alias `c` or any prefix npm takes for it (`conf`), unless it
 * only reads. (`set`, `config set` and `--script-shell` are read in programs.ts.)
 */
export const packageConfig = configures((word) => word !== "" && "config".startsWith(word), ["get", "list", "ls"], false)

/** `kubectl config …`: anything but reading it and choosing a context it already holds. */
export const kubectlConfig = configures((word) => word === "config", ["view", "get-contexts", "get-clusters", "get-users", "current-context", "use-context", "use"], false)

/** apt's long options that set its configuration: an item, or a file of them. */
const APT_CONFIG = ["--option", "--config-file"]

/**
 * apt's configuration given on its command line (`-o Name=value`, `-oName=value`, `--option`, `-c
 * file`, `--config-file`) names programs apt runs (`Acquire::http::Proxy-Auto-Detect`,
 * `APT::Update::Pre-Invoke`, `DPkg::Pre-Invoke`, `Dir::Bin::*`): `apt-get -o
 * Acquire::http::Proxy-Auto-Detect=./x download hello` ran `./x` (the sixth review), as `git -c`
 * names a pager. Opaque, and so is a short cluster holding `o` or `c`; other options are read as before.
 */
const aptConfig: Program = (words, start, end) => {
  const literals = literalsOf(words, start, end)
  if (literals === undefined) return BashProgramsScan.OPAQUE
  const configures = (word: string) => (word.startsWith("--") ? APT_CONFIG.includes(word.split("=")[0] as string) : word.startsWith("-") && /[oc]/.test(word.slice(1)))
  return literals.some(configures) ? BashProgramsScan.OPAQUE : BashProgramsScan.CLEAR
}

/** apt's programs that read its configuration options. */
const APT = ["apt", "apt-get", "apt-cache", "apt-mark", "apt-config", "apt-cdrom", "apt-ftparchive", "apt-extracttemplates", "apt-sortpkgs", "aptitude"]

export const PROGRAMS: ReadonlyArray<readonly [string, Program]> = [
  ...APT.map((name) => [name, aptConfig] as const),
  ["pip", configures((word) => word === "config", ["list", "get", "debug"], false)],
  ["pip3", configures((word) => word === "config", ["list", "get", "debug"], false)],
  ["aws", configures((word) => word === "configure", ["get", "list", "list-profiles", "export-credentials"], true)],
  ["gh", configures((word) => word === "config", ["get", "list", "clear-cache"], false)],
]
