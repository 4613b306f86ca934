/**
 * git (07). Opaque: options that name a program (`fetch --upload-pack`, `push --receive-pack`,
 * `clone -u`/`--template`/`-c`, `rebase -x`, `difftool -x`, `grep -O`), `submodule foreach`,
 * `bisect run`, `filter-branch`, `-c` before the sub-command, and a `git config` that sets
 * anything. Writes: `--output` (and `--output-directory`) of any sub-command, `format-patch -o`,
 * `archive -o`, `bundle create`, the directory of `clone`, `init`, `worktree add`, `worktree move`, the prefix of
 * `checkout-index`, the destination of `mv` (with what lands in it), the file `merge-file`
 * merges into. Any prefix of a long option counts, from `--` and one letter (git's parse-options
 * takes any unambiguous one, and an ambiguous one fails). git reads options anywhere, so a word that expands (`git push origin
 * $BRANCH`, `git diff "$f"`) before a `--` of a sub-command that can run or write through its
 * options may become one (`--receive-pack=…`, `--output=…`): opaque. A sub-command git does not
 * ship may be an alias for `log` or `diff`: it is read so. So is `--exec-path` opaque.
 */
export * as BashProgramsGit from "./programs-git.js"

import { Subcommand } from "../../../permission/subcommand.js"
import type { BashParseWord } from "./parse-word.js"
import { BashProgramsFiles } from "./programs-files.js"
import { BashProgramsScan } from "./programs-scan.js"

type Word = BashParseWord.Word
type Verdict = BashProgramsScan.Verdict

/** Global options whose value is the next word (unless written `--opt=value`). */
const GLOBAL_ARGS = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source", "--list-cmds"]

/** Per sub-command: the long options (prefixes count) and short letters that run a program. */
const RUNS: Readonly<Record<string, { readonly long: ReadonlyArray<string>; readonly short?: string }>> = {
  fetch: { long: ["--upload-pack"] },
  pull: { long: ["--upload-pack"] },
  clone: { long: ["--upload-pack", "--template", "--config"], short: "uc" },
  init: { long: ["--template"] },
  "ls-remote": { long: ["--upload-pack"] },
  "fetch-pack": { long: ["--upload-pack", "--exec"] },
  push: { long: ["--receive-pack", "--exec"] },
  "send-pack": { long: ["--receive-pack", "--exec"] },
  archive: { long: ["--exec"] },
  rebase: { long: ["--exec"], short: "x" },
  difftool: { long: ["--extcmd"], short: "x" },
  grep: { long: ["--open-files-in-pager"], short: "O" },
}
/**
 * Sub-commands that run what their words name or their config holds: opaque whatever follows.
 * `for-each-repo` runs `git <its words>` in every repository a config key lists (the person's
 * `maintenance.repo`, which an allowed `git maintenance register` adds this one to), so
 * `git for-each-repo --config=maintenance.repo push` pushes.
 */
const OPAQUE_SUBS = ["filter-branch", "instaweb", "send-email", "web--browse", "credential", "daemon", "for-each-repo"]
/**
 * Sub-commands that take revision or diff options, whose `--output=file` writes the file while
 * git parses them (`setup_revisions()`): a word that expands may be that option.
 */
const OUTPUT = [
  ...["diff", "log", "show", "whatchanged", "diff-tree", "diff-index", "diff-files", "range-diff", "stash", "format-patch", "reflog", "archive", "rev-list", "shortlog"],
  ...["blame", "annotate", "pickaxe", "fast-export", "cherry-pick", "revert", "bundle", "replay", "cherry", "merge-tree", "last-modified", "diff-pairs", "difftool", "bisect"],
]
/** The sub-commands git ships (permission/subcommand.ts): any other may be an alias for `log`. */
const KNOWN = Subcommand.GIT
/** Flags that take no value: a `--` after one ends the options (`git diff --stat -- "$f"`). */
const FLAGS = ["--cached", "--staged", "--stat", "--name-only", "--name-status", "--oneline", "--no-color", "--patch", "-p", "--numstat", "--shortstat", "--graph", "--all", "--follow", "--no-merges", "--raw", "--quiet", "-q", "--exit-code", "--no-index", "--check", "-w", "-v", "--verbose"]

/** Options of the sub-commands that write an operand, whose value is the next word. */
const VALUED: Readonly<Record<string, ReadonlyArray<string>>> = {
  clone: ["-b", "--branch", "-o", "--origin", "--reference", "--reference-if-able", "--depth", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--filter", "--separate-git-dir", "--server-option", "--bundle-uri", "--ref-format", "--revision"],
  init: ["-b", "--initial-branch", "--separate-git-dir", "--object-format", "--ref-format"],
  worktree: ["-b", "-B", "--reason", "--orphan"],
  bundle: ["--version"],
  "merge-file": ["-L"],
}

/** Sub-commands that write the paths they are given in the work tree, with their options that take a value. */
const PATHSPECS: Readonly<Record<string, ReadonlyArray<string>>> = {
  checkout: ["-b", "-B", "--orphan", "--conflict"],
  restore: ["-s", "--source", "--conflict"],
  rm: [],
}

/** A pathspec git matches itself (`*.json`, `:(glob)x`, `:!x`): which files it names is not known here. */
const MATCHED = /[*?[]|^:/

/**
 * The files `git checkout|restore|rm` writes (checks out, restores, removes): each pathspec,
 * unless only the index changes (`rm --cached`, `restore --staged` without `--worktree`). For
 * checkout with `--`, only what follows it is a path; without it, every operand may be one
 * (`git checkout main` names a file `main` too, which costs nothing). A pathspec git matches
 * itself, or a list from a file, is a write to an unknown path.
 */
const pathspecs = (name: string, args: ReadonlyArray<Word>, literals: ReadonlyArray<string | undefined>, end: number): ReadonlyArray<BashProgramsScan.Write> => {
  const options = end === -1 ? literals : literals.slice(0, end)
  const has = (...names: ReadonlyArray<string>) => options.some((word) => word !== undefined && names.some((option) => word === option || word.startsWith(`${option}=`)))
  if (name === "rm" && has("--cached")) return []
  if (name === "restore" && has("--staged", "-S") && !has("--worktree", "-W")) return []
  if (has("--pathspec-from-file")) return [{ kind: "file", path: undefined, cwd: [] }]
  const valued = PATHSPECS[name] ?? []
  const before = (end === -1 ? args : args.slice(0, end)).filter((_, index) => {
    const word = literals[index]
    return word === undefined || (!word.startsWith("-") && !valued.includes(literals[index - 1] ?? ""))
  })
  const after = end === -1 ? [] : args.slice(end + 1)
  const paths = name === "checkout" && end !== -1 ? after : [...before, ...after]
  return paths.flatMap((word) => {
    const literal = BashProgramsScan.literalOf(word)
    return literal === undefined || MATCHED.test(literal) ? [{ kind: "file" as const, path: undefined, cwd: [] }] : BashProgramsScan.written(word)
  })
}

/** `git config`: actions that only read, options with a value, options that change nothing. */
const CONFIG_READS = ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l"]
const CONFIG_ARGS = ["-f", "--file", "--blob", "--type", "--default", "--comment", "--url"]
const CONFIG_FLAGS = ["--global", "--system", "--local", "--worktree", "--includes", "--no-includes", "--bool", "--int", "--bool-or-int", "--path", "--expiry-date", "-z", "--null", "--show-origin", "--show-scope", "--name-only", "--fixed-value", "--all"]

/**
 * Whether the long option `word` (before any `=`) is `name` or a prefix git may take for it: any
 * prefix from `--` and one letter (`--u=x` is `--upload-pack=x` where no other option starts so;
 * where one does, git fails, so reading it as `name` only asks more).
 */
const means = (word: string, name: string) => {
  const written = word.split("=")[0] as string
  return written === name || (written.length >= 3 && name.startsWith(written))
}

/** Whether `name` takes revision or diff options (`--output`), or may be an alias that does. */
const takesRevisions = (name: string) => OUTPUT.includes(name) || !KNOWN.includes(name)

/** A value of an option: after its `=` (or the rest of a short word), else the next word. */
const valueOf = (words: ReadonlyArray<Word>, at: number, attached: string | undefined, kind: "file" | "directory"): ReadonlyArray<BashProgramsScan.Write> => {
  if (attached !== undefined) return BashProgramsScan.writtenValue({ name: "", value: attached, word: undefined }, kind)
  const next = words[at + 1]
  return next === undefined ? [] : BashProgramsScan.written(next, kind)
}

/** `git config`: reads are clear; anything that sets, unsets, renames or edits is opaque. */
const config = (args: ReadonlyArray<Word>): Verdict => {
  const operands: Array<string> = []
  let reads = false
  for (let i = 0; i < args.length; i++) {
    const word = BashProgramsScan.literalOf(args[i] as Word)
    if (word === undefined) return BashProgramsScan.OPAQUE
    const name = word.split("=")[0] as string
    if (CONFIG_READS.includes(name)) reads = true
    else if (CONFIG_ARGS.includes(name)) i += word.includes("=") ? 0 : 1
    else if (word.startsWith("-") && !CONFIG_FLAGS.includes(name) && !name.startsWith("--type")) return BashProgramsScan.OPAQUE
    else if (!word.startsWith("-")) operands.push(word)
  }
  const first = operands[0]
  if (reads || first === "get" || first === "list") return BashProgramsScan.CLEAR
  return operands.length <= 1 && first !== "edit" ? BashProgramsScan.CLEAR : BashProgramsScan.OPAQUE
}

/** The writes and opaque forms of one git sub-command's words `args` (after the sub-command). */
const sub = (name: string, args: ReadonlyArray<Word>, cwd: ReadonlyArray<string | undefined>): Verdict => {
  if (name === "config") return config(args)
  if (OPAQUE_SUBS.includes(name)) return BashProgramsScan.OPAQUE
  const literals = args.map(BashProgramsScan.literalOf)
  if ((name === "submodule" && literals.includes("foreach")) || (name === "bisect" && literals[0] === "run")) return BashProgramsScan.OPAQUE
  if (name === "maintenance" && (literals[0] === undefined || MAINTENANCE_CONFIGURES.includes(literals[0]))) return BashProgramsScan.OPAQUE
  const runs = RUNS[name]
  const end = literals.findIndex((word, index) => word === "--" && (index === 0 || !(literals[index - 1] ?? "-").startsWith("-") || FLAGS.includes(literals[index - 1] ?? "")))
  const options = end === -1 ? args : args.slice(0, end)
  const writes: Array<BashProgramsScan.Write> = []
  for (let i = 0; i < options.length; i++) {
    const word = literals[i]
    // A word that expands may expand to an option: `$f` → `--output=/outside/x`, and so may a
    // long option whose name expands (`--outpu$'t'=x`), or a short cluster where a letter runs
    // something (`-i$'O'sh` is `-iO sh`; a cluster never becomes a long option).
    const expands = word !== undefined && BashProgramsScan.nameExpands(word) && (word.startsWith("--") || runs?.short !== undefined)
    if ((word === undefined || expands) && (runs !== undefined || takesRevisions(name))) return BashProgramsScan.OPAQUE
    if (word === undefined || !word.startsWith("-") || word === "-") continue
    const long = word.startsWith("--")
    if (long && runs?.long.some((option) => means(word, option)) === true) return BashProgramsScan.OPAQUE
    if (!long && runs?.short !== undefined && Array.from(word.slice(1)).some((letter) => runs.short?.includes(letter))) return BashProgramsScan.OPAQUE
    const equals = word.indexOf("=")
    const attached = equals === -1 ? undefined : word.slice(equals + 1)
    // Any sub-command: the diff options of one not listed, of an alias, or of a later git. Where
    // `--output` is no file option (`bugreport`), it abbreviates `--output-directory`.
    const output = long && means(word, "--output")
    if (output) writes.push(...valueOf(args, i, attached, "file"))
    if (long && means(word, "--output-directory") && !(output && OUTPUT.includes(name))) writes.push(...valueOf(args, i, attached, "directory"))
    if (word.startsWith("-o") && !long && (name === "format-patch" || name === "archive")) {
      writes.push(...valueOf(args, i, word.length > 2 ? word.slice(2) : undefined, name === "archive" ? "file" : "directory"))
    }
    if (long && (name === "clone" || name === "init") && means(word, "--separate-git-dir")) writes.push(...valueOf(args, i, attached, "directory"))
    // fast-export and fast-import write their marks (and fast-import its pack edges) to a file.
    if (long && (means(word, "--export-marks") || (name === "fast-import" && means(word, "--export-pack-edges")))) writes.push(...valueOf(args, i, attached, "file"))
    // Each checked-out file lands at the prefix and its path (`--prefix=.git/hooks/` writes hooks).
    if (long && name === "checkout-index" && means(word, "--prefix")) writes.push(...valueOf(args, i, attached, "directory"))
  }
  const valued = VALUED[name] ?? []
  const operands = args.filter((word, index) => {
    const before = literals[index - 1]
    return !(literals[index] ?? "").startsWith("-") && (before === undefined || !valued.includes(before))
  })
  const placed = (word: Word | undefined, kind: "file" | "directory") => (word === undefined ? [] : BashProgramsScan.written(word, kind))
  if (name === "bundle" && literals[0] === "create") writes.push(...placed(operands[1], "file"))
  if (name === "clone") writes.push(...placed(operands[1], "directory"))
  if (name === "init") writes.push(...placed(operands[0], "directory"))
  if (name === "worktree" && literals[0] === "add") writes.push(...placed(operands[1], "directory"))
  // `git worktree move <worktree> <new-path>`: the worktree and what it holds land at the new path.
  if (name === "worktree" && literals[0] === "move") writes.push(...placed(operands[2], "directory"))
  // `git mv source… destination`: as `mv`, the sources land in the destination when it is a folder.
  if (name === "mv" && operands.length >= 2) {
    const sources = operands.slice(0, -1).map((word) => BashProgramsFiles.sourceOf(word, true))
    writes.push(...placed(operands.at(-1), "file").map((write) => ({ ...write, sources })))
  }
  // `git merge-file current base other` writes the merge into `current`, unless it prints it.
  const prints = literals.some((word) => word === "-p" || (word?.startsWith("--") === true && means(word, "--stdout")))
  if (name === "merge-file" && !prints) writes.push(...placed(operands[0], "file"))
  // The paths checkout, restore and rm write in the work tree (`git checkout evil -- .envrc` wrote it unasked).
  if (PATHSPECS[name] !== undefined) writes.push(...pathspecs(name, args, literals, end))
  return { opaque: false, writes: writes.map((write) => ({ ...write, cwd: [...cwd, ...write.cwd] })) }
}

/**
 * Whether more words added at the end (by `xargs`) could make `git …` run or write through an
 * option: its sub-command has such options, or is not static, or there is none yet.
 * @example BashProgramsGit.takesOptions(words, 0, 2) // false for `git add`, true for `git diff`
 */
export const takesOptions = (words: ReadonlyArray<Word>, start: number, end: number): boolean => {
  for (let i = start + 1; i < end; i++) {
    const word = BashProgramsScan.literalOf(words[i] as Word)
    if (word === undefined) return true
    if (GLOBAL_ARGS.includes(word)) i++
    else if (!word.startsWith("-")) return RUNS[word] !== undefined || takesRevisions(word) || OPAQUE_SUBS.includes(word) || ["config", "submodule", "bisect", "clone", "init", "worktree", "bundle", "mv", "merge-file", "checkout-index", ...Object.keys(PATHSPECS)].includes(word)
  }
  return true
}

/** git's dashed form: `git-push` (in `git --exec-path`, or an external `git-lfs` on PATH) is `git push`. */
const DASHED = /^git-(.+)$/

/**
 * The program of a dashed git command (`git-diff --output=x`, which takes no global options):
 * judged as that sub-command; undefined for any other name.
 */
export const dashed = (name: string): BashProgramsScan.Program | undefined => {
  const found = DASHED.exec(name)?.[1]
  return found === undefined ? undefined : (words, start, end) => sub(found, words.slice(start + 1, end), [])
}

/**
 * `git maintenance` forms that write the person's global config (`maintenance.repo`, which
 * `for-each-repo` runs commands over) and, for `start`/`stop`, their scheduler's jobs: opaque.
 */
const MAINTENANCE_CONFIGURES = ["register", "unregister", "start", "stop"]

/** Sub-commands that push under another name (`subtree push` runs `git push`). */
export const PUSHES: ReadonlyArray<string> = ["send-pack", "http-push"]

/** Sub-commands that fetch under another name (`pull` and `subtree pull` fetch first). */
export const FETCHES: ReadonlyArray<string> = ["fetch-pack", "http-fetch", "pull"]

/**
 * Other spellings of the git command `words` (base name first) that say what it does, each one
 * more form a rule judges: `git-push x` is `git push x`, and `git send-pack x`, `git http-push x`,
 * `git subtree push x` push, so they are also `git push x`; `git pull x`, `git fetch-pack x`
 * fetch, so they are also `git fetch x`. A rule compares spellings, so a `git push *` deny must
 * see the push. None for other commands.
 * @example BashProgramsGit.synonyms(["git-send-pack", "r", "main"]) // [["git", "send-pack", "r", "main"], ["git", "push", "r", "main"]]
 */
export const synonyms = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const [name = "", first, second] = words
  const found = DASHED.exec(name)?.[1]
  if (found !== undefined) {
    const spelled = ["git", found, ...words.slice(1)]
    return [spelled, ...synonyms(spelled)]
  }
  if (name !== "git" || first === undefined) return []
  if (PUSHES.includes(first)) return [["git", "push", ...words.slice(2)]]
  if (FETCHES.includes(first)) return [["git", "fetch", ...words.slice(2)]]
  if (first === "subtree" && second === "push") return [["git", "push", ...words.slice(3)]]
  return first === "subtree" && second === "pull" ? [["git", "fetch", ...words.slice(3)]] : []
}

/** `git [global options] sub-command …`. */
export const git: BashProgramsScan.Program = (words, start, end) => {
  const cwd: Array<string | undefined> = []
  for (let i = start + 1; i < end; i++) {
    const word = BashProgramsScan.literalOf(words[i] as Word)
    // A global option that expands (`-C"$d"`, `-$'c'`) is somewhere unknown or any option.
    if (word === undefined || word.includes(BashProgramsScan.UNKNOWN)) return BashProgramsScan.OPAQUE
    if (word === "-c" || word.startsWith("--config-env") || word.startsWith("--exec-path")) return BashProgramsScan.OPAQUE
    if (word === "-C") cwd.push(words[i + 1]?.path)
    if (GLOBAL_ARGS.includes(word)) i++
    else if (!word.startsWith("-")) return sub(word, words.slice(i + 1, end), cwd)
  }
  return BashProgramsScan.CLEAR
}
