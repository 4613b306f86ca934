/**
 * The bash command parser for permissions (07): a command → `BashCommand.Parsed`, with
 * tree-sitter's bash grammar (`web-tree-sitter` + the wasm shipped by `tree-sitter-bash`, found
 * through module resolution, so it works from `src/` and from `dist/` without any download).
 * `load()` initializes the grammar once per process; its `parse` is synchronous, pure and never
 * throws: a fault inside fails closed as opaque. Opaque input (07) is one resource, the whole
 * command, with no save; its targets and absolute paths are still the ones the walk found (best
 * effort), and none at all above MAX_CHARS, which is not parsed. Options before a sub-command
 * (`git -C . push`, `kubectl -n prod delete`) add one resource per reading of them with the options
 * dropped (`git push`), with no save (BashParseOperation). It is opaque when it holds:
 * - a parse error, a backslash-newline inside a word, more than MAX_COMMANDS commands or
 *   MAX_CHARS characters, command strings nested past MAX_NESTING;
 * - `eval`, `source`/`.`, `alias`, `shopt`, `hash`, `enable`, `coproc`, `let`, `bind`,
 *   `complete`, `compgen`, `fc`, a wrapped declaration (`builtin declare`), `set -x`/`xtrace`;
 * - a command name that expands, a reserved word or a `=word` as a command name (`time if …`,
 *   `time { …; }`: the grammar misread a compound command), a sub-command inside the arity
 *   window that expands (`git $X`, `git $'push'`);
 * - a shell fed by a pipe, heredoc or here-string, a shell `-c` with no or a non-static string,
 *   a command `xargs`/`find -exec` complete at run time (`{}` or the `-I` string in a name,
 *   sub-command or command string, `xargs git`, `xargs bash -c`);
 * - a `$(`, backtick, `<(` or `>(` the walk did not walk (tree-sitter hides some: heredoc lines
 *   that start with a blank, backticks in heredocs, quotes inside `${…}`), unless bash reads it
 *   literally: a quoted-delimiter heredoc body, an escaped character, or a single-quoted part of a
 *   static argument of a non-builtin command (or echo/printf/true/false/:) when the input defines
 *   no function. So `echo '$(x)'` is literal yet `x='$(y)'` and `read '$(y)'` are opaque;
 * - an evaluation sink (BashParseGuard): arithmetic with a name or an expansion (`((x))`,
 *   `$((i+1))`, `for ((i=0;…))`), a subscript that is not a number, `${!x}`, `${x@P}`, a
 *   substring offset that is not a number, `[[ -v ]]` or an arithmetic `[[` test on non-numbers,
 *   `[`/`test` whose operator could come from an expansion, `test -v`, a name of `read`,
 *   `mapfile`, `printf -v`, `getopts`, `wait -p`, `unset`, `declare` that is not an identifier,
 *   `declare -i/-n/-a/-A`, a `declare`/`local`/`typeset`/`readonly` value that is not static;
 * - PS4, PROMPT_COMMAND, BASH_ENV, ENV, SHELLOPTS, BASHOPTS, BASH_FUNC_*, expand_aliases,
 *   extdebug, or IFS (but for `IFS=… read`) named anywhere, quotes removed;
 * - CDPATH, DIRSTACK, OLDPWD, cdable_vars, or HOME other than a `$HOME` read, named anywhere
 *   (quotes removed: `printf -v HO''ME`): they move `cd`, `pushd`, `popd` and `~`. The targets
 *   are reported as well, with those moves and `~` unknown (no path);
 * - a heredoc the grammar ended where bash would not, or whose unquoted body holds arithmetic, a
 *   `${…}` that evaluates or one whose word holds a quote (read from the text: the grammar leaves
 *   body lines that start with a blank unparsed);
 * - a quote in the word of a double-quoted `${…}` that bash reads otherwise (BashParseLexical);
 * - no command at all, and a `$` or backtick (`[[ $x -eq 0 ]]` alone).
 */
export * as BashParse from "./parse.js"

import { createRequire } from "node:module"
import type { Parser as TreeParser } from "web-tree-sitter"
import type { BashCommand } from "./command.js"
import { BashParseGuard } from "./parse-guard.js"
import { BashParseLexical } from "./parse-lexical.js"
import { BashParseLink } from "./parse-link.js"
import { BashParsePlace } from "./parse-place.js"
import { BashParseWalk } from "./parse-walk.js"
import { BashParseWord } from "./parse-word.js"

export const MAX_CHARS = 10_000
export const MAX_COMMANDS = 100
/** Command strings inside command strings (`sh -c "bash -c '…'"`) past which the input is opaque. */
export const MAX_NESTING = 8

export interface Options {
  /** The home directory a leading `~` expands to. */
  readonly home: string
}

export interface Parser {
  /** @example parser.parse("cd /etc && echo x > passwd", { home: "/home/me" }).targets[1] // { kind: "file", path: "passwd", cwd: ["/etc"] } */
  readonly parse: (command: string, options: Options) => BashCommand.Parsed
}

const opaque = (command: string, targets: ReadonlyArray<BashCommand.Target>, absolutePaths: ReadonlyArray<string>): BashCommand.Parsed => ({
  resources: [{ text: command, save: undefined }],
  opaque: true,
  targets,
  absolutePaths,
})

/**
 * A write to `/dev/fd/N`, `/dev/stdin`, `/dev/stdout`, `/dev/stderr` or `/proc/<pid>/fd/N` goes wherever that descriptor is bound:
 * the tool's pipes (not a file) unless a redirection of the line bound one to a file it opened
 * for reading (`3< /outside/f >/dev/fd/3` reopens it for writing); then it is unknowable.
 */
const descriptors = (targets: ReadonlyArray<BashCommand.Target>, bound: boolean): ReadonlyArray<BashCommand.Target> =>
  targets.flatMap((target) => {
    if (target.kind !== "file" || target.path === undefined || !BashParseWord.isDescriptor(target.path)) return [target]
    return bound ? [{ ...target, path: undefined }] : []
  })

const run = (parser: TreeParser, command: string, options: Options): BashCommand.Parsed => {
  const resources = new Map<string, BashCommand.Resource>()
  const targets = new Map<string, BashParseLink.Owned>()
  const paths = new Set<string>()
  const state = { commands: 0, opaque: false, nesting: 0, bound: false, linking: 0, moves: new Set<string | undefined>() }
  const walk = (text: string, places: BashParsePlace.Places, base: Omit<BashParseWalk.Scope, "ledger">) => {
    const tree = parser.parse(text)
    if (tree === null) return void (state.opaque = true)
    try {
      const root = tree.rootNode
      const ledger = BashParseGuard.ledger(root)
      if (root.hasError || BashParseLexical.strange(text) || !BashParseLexical.continuations(text) || !BashParseLexical.agrees(root, text) || BashParseGuard.evaluates(text) || BashParseGuard.unsettles(text) || BashParseGuard.mayChangeHome(text)) state.opaque = true
      BashParseWalk.program(root, places, { ...base, ledger }, sink)
      // After the walk: `inspect` records the literal heredoc bodies `hidden` must skip.
      if (BashParseGuard.inspect(root, text, ledger) || BashParseGuard.hidden(text, ledger)) state.opaque = true
    } finally {
      tree.delete()
    }
  }
  const own = (target: BashCommand.Target, linking: boolean) => {
    // A folder entered (`cd d`) or fed (`tar x -C d`) is not the same target as one written: one must not replace the other.
    const key = JSON.stringify([target.kind, target.path ?? null, target.cwd, target.entered === true, target.fed === true])
    targets.set(key, { target, linking: linking && (targets.get(key)?.linking ?? true) })
  }
  const sink: BashParseWalk.Sink = {
    command: (output) => {
      state.commands++
      if (output.opaque) state.opaque = true
      if (output.links) state.linking++
      state.moves.add(output.moves)
      output.resources.forEach((resource) => resources.has(resource.text) || resources.set(resource.text, resource))
      output.targets.forEach((target) => own(target, output.links))
      output.paths.forEach((path) => paths.add(path))
    },
    target: (target) => own(target, false),
    opaque: () => void (state.opaque = true),
    bind: () => void (state.bound = true),
    read: (path) => void paths.add(path),
    nested: (text, places, scope) => {
      if (state.nesting >= MAX_NESTING) return void (state.opaque = true)
      state.nesting++
      try {
        walk(text, places, {
          ...scope,
          source: text,
          tilde: { home: BashParseGuard.mayChangeHome(text) ? undefined : scope.tilde.home },
          cdpath: scope.cdpath || BashParseGuard.unquoted(text).includes("CDPATH"),
          unsettled: scope.unsettled || BashParseGuard.unsettles(text),
          lastpipe: scope.lastpipe || text.includes("lastpipe"),
        })
      } finally {
        state.nesting--
      }
    },
  }
  const home = options.home === "" || BashParseGuard.mayChangeHome(command) ? undefined : options.home
  walk(command, BashParsePlace.START, {
    source: command,
    tilde: { home },
    cdpath: BashParseGuard.unquoted(command).includes("CDPATH"),
    unsettled: BashParseGuard.unsettles(command),
    piped: false,
    lastpipe: command.includes("lastpipe"),
    depth: 0,
  })
  const owned = Array.from(targets.values())
  const found = descriptors(BashParseLink.settle(owned, state.linking), state.bound)
  const written = new Set(owned.map((entry) => entry.target.path))
  const absolutePaths = Array.from(paths).filter((path) => !written.has(path))
  // No command to judge: a wildcard must not allow what expands (`[[ $x -eq 0 ]]`, `cd "$d"`).
  const bare = resources.size === 0 && /[$`]/.test(command)
  if (state.opaque || bare || state.commands > MAX_COMMANDS) return opaque(command, found, absolutePaths)
  // A line that only moves the shell (`cd src`) saves `cd *`: where it goes is judged as a directory target.
  const moved = state.moves.size === 1 ? Array.from(state.moves)[0] : undefined
  const list = resources.size === 0 ? [{ text: command, save: moved === undefined ? undefined : `${moved} *` }] : Array.from(resources.values())
  return { resources: list, opaque: false, targets: found, absolutePaths }
}

const parseWith = (parser: TreeParser, command: string, options: Options): BashCommand.Parsed => {
  if (command.trim() === "") return { resources: [], opaque: false, targets: [], absolutePaths: [] }
  if (command.length > MAX_CHARS) return opaque(command, [], [])
  try {
    return run(parser, command, options)
  } catch {
    // Deliberate: a fault in the grammar or the walk must fail closed (opaque: ask), never throw into the gate.
    return opaque(command, [], [])
  }
}

const make = async (): Promise<Parser> => {
  // Loaded on the first bash command, not with the CLI: most commands never parse one.
  const { Language, Parser: TreeSitter } = await import("web-tree-sitter")
  await TreeSitter.init()
  const language = await Language.load(createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm"))
  const parser = new TreeSitter()
  parser.setLanguage(language)
  return { parse: (command, options) => parseWith(parser, command, options) }
}

let loading: Promise<Parser> | undefined

/**
 * The parser, loaded once per process (a failed load is retried by the next call). The bash
 * tool calls it as `Effect.promise(BashParse.load)`: a grammar that cannot load is a broken install.
 * @example (await BashParse.load()).parse("git status && rm -rf x", { home: "/home/me" }).resources.map((r) => r.text) // ["git status", "rm -rf x"]
 */
export const load = (): Promise<Parser> => {
  const current = loading ?? make()
  loading = current
  current.catch(() => {
    if (loading === current) loading = undefined
  })
  return current
}
