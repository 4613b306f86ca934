/**
 * Links made in the same line (issue 11, item 8). The tool resolves a target's real path before
 * the command runs; a command of the same line that runs before it, or beside it in a pipe, may
 * create or replace a path on the way with a symbolic link (`ln -s /outside L && echo x > L/f`,
 * `cp -rs /outside L`, `git checkout` of a committed link, any script). So a target of a line in
 * which another command may do that is unknowable (the tool asks `external_directory *`). Only
 * commands that cannot make a link are listed here; every other name may.
 * Gotcha: a command's own redirections are opened before it runs, so its own targets stay known.
 */
export * as BashParseLink from "./parse-link.js"

import type { BashCommand } from "./command.js"

/** Commands that create no link and replace no path by one: readers, printers, `mkdir`, `touch`, wrappers (their inner command is judged on its own). */
export const UNLINKING: ReadonlyArray<string> = [
  ...["echo", "printf", "true", "false", ":", "test", "[", "pwd", "ls", "cat", "grep", "egrep", "fgrep", "rg", "head", "tail", "wc", "sort", "uniq", "cut"],
  ...["tr", "diff", "cmp", "stat", "file", "which", "type", "date", "sleep", "basename", "dirname", "realpath", "readlink", "jq", "mkdir", "touch", "tee"],
  ...["cd", "pushd", "popd", "export", "unset", "set", "read", "shift", "exit", "return", "break", "continue", "wait", "declare", "typeset", "local"],
  ...["rm", "rmdir", "unlink", "chmod", "chown", "chgrp", "du", "df", "id", "whoami", "uname", "printenv", "hostname", "nproc", "seq", "yes"],
  ...["readonly", "trap", "sudo", "env", "timeout", "nice", "nohup", "time", "command", "builtin", "exec", "stdbuf", "ionice", "setsid", "xargs", "watch"],
]

/** git sub-commands that only read. */
export const GIT_READS: ReadonlyArray<string> = ["status", "diff", "log", "show", "rev-parse", "ls-files", "grep", "blame", "describe", "shortlog", "version"]

/**
 * Whether a command (its base name, then its words) may create or replace a path with a link; a
 * shell that runs a command string (`sh -c '…'`) does not itself: the string's commands are judged.
 * @example BashParseLink.mayLink("ln", ["-s", "/outside", "L"], false) // true
 */
export const mayLink = (name: string, words: ReadonlyArray<string | undefined>, runsString: boolean): boolean => {
  if (runsString) return false
  if (name === "git") return words[0] === undefined || !GIT_READS.includes(words[0])
  return !UNLINKING.includes(name)
}

/** A target with whether its own command may link. */
export interface Owned {
  readonly target: BashCommand.Target
  readonly linking: boolean
}

/**
 * The targets as the tool must judge them, given how many commands of the line may link: one
 * whose path another command may have made a link is unknowable.
 */
export const settle = (owned: ReadonlyArray<Owned>, linking: number): ReadonlyArray<BashCommand.Target> =>
  owned.map(({ target, linking: own }) => (linking - (own ? 1 : 0) > 0 ? { ...target, path: undefined } : target))
