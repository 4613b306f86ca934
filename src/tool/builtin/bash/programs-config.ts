/**
 * Programs' own commands that write their configuration, which names programs they or a later
 * command run (the fifth outside review; `git config` and `npm config set` were already opaque).
 * Each wrote a file the protected list names, or one that chooses a program, without an ask:
 * `npm c set script-shell=…` and `npm conf set` (npm's alias and a prefix of `config`: the shell
 * of every later `npm run`), `pip config set` (`pip.conf`, the package index), `kubectl config
 * set-credentials --exec-command=…` and `kubectl config set users.x.exec.command …` (a program the
 * next `kubectl` runs), `aws configure set profile.x.credential_process …` (run by the next `aws`
 * call), `gh config set` (gh's editor, pager and browser). Opaque; their reads stay clear.
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

export const PROGRAMS: ReadonlyArray<readonly [string, Program]> = [
  ["pip", configures((word) => word === "config", ["list", "get", "debug"], false)],
  ["pip3", configures((word) => word === "config", ["list", "get", "debug"], false)],
  ["aws", configures((word) => word === "configure", ["get", "list", "list-profiles", "export-credentials"], true)],
  ["gh", configures((word) => word === "config", ["get", "list", "clear-cache"], false)],
]
