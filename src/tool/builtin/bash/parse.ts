/**
 * The bash command parser for permissions (07): a command → `BashCommand.Parsed`, with
 * tree-sitter's bash grammar (`web-tree-sitter` + the wasm shipped by `tree-sitter-bash`, found
 * through module resolution, so it works from `src/` and from `dist/` without any download).
 * `load()` initializes the grammar once per process; its `parse` is synchronous, pure and never
 * throws: a fault inside fails closed as opaque. Opaque input (07) — a parse error, `eval`,
 * `source`, a command name that expands, a shell fed by a pipe, heredoc or here-string, a
 * backslash-newline inside a word, more than MAX_COMMANDS commands or MAX_CHARS characters — is
 * one resource, the whole command, with no save; its targets and absolute paths are still the
 * ones the walk found (best effort), and none at all above MAX_CHARS, which is not parsed.
 */
export * as BashParse from "./parse.js"

import { createRequire } from "node:module"
import { Language, Parser as TreeParser } from "web-tree-sitter"
import type { BashCommand } from "./command.js"
import { BashParsePlace } from "./parse-place.js"
import { BashParseWalk } from "./parse-walk.js"

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

/** Drops every use of `$HOME` and `${HOME}`: whatever is left that names HOME may change it. */
const HOME_READS = /\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g
const mayChangeHome = (text: string) => text.replace(HOME_READS, "").includes("HOME")

/**
 * Bash deletes a backslash-newline before it splits words, so `r\<newline>m x` runs `rm x`; the
 * grammar reads the pair as a blank and sees `r m x`. Where the pair joins two non-blank
 * characters the readings differ, and the input is opaque.
 */
const CONTINUATION = /(\\+)\n/g
const joinsWords = (text: string) =>
  Array.from(text.matchAll(CONTINUATION)).some((match) => {
    const before = text[match.index - 1]
    const after = text[match.index + match[0].length]
    return (match[1] as string).length % 2 === 1 && before !== undefined && after !== undefined && /\S/.test(before) && /\S/.test(after)
  })

const opaque = (command: string, targets: ReadonlyArray<BashCommand.Target>, absolutePaths: ReadonlyArray<string>): BashCommand.Parsed => ({
  resources: [{ text: command, save: undefined }],
  opaque: true,
  targets,
  absolutePaths,
})

const run = (parser: TreeParser, command: string, options: Options): BashCommand.Parsed => {
  const resources = new Map<string, BashCommand.Resource>()
  const targets = new Map<string, BashCommand.Target>()
  const paths = new Set<string>()
  const state = { commands: 0, opaque: false, nesting: 0 }
  const walk = (text: string, places: BashParsePlace.Places, scope: BashParseWalk.Scope) => {
    const tree = parser.parse(text)
    if (tree === null) return void (state.opaque = true)
    try {
      if (tree.rootNode.hasError || joinsWords(text)) state.opaque = true
      BashParseWalk.program(tree.rootNode, places, scope, sink)
    } finally {
      tree.delete()
    }
  }
  const sink: BashParseWalk.Sink = {
    command: (output) => {
      state.commands++
      if (output.opaque) state.opaque = true
      output.resources.forEach((resource) => resources.has(resource.text) || resources.set(resource.text, resource))
      output.targets.forEach(sink.target)
      output.paths.forEach((path) => paths.add(path))
    },
    target: (target) => void targets.set(JSON.stringify([target.kind, target.path ?? null, target.cwd]), target),
    opaque: () => void (state.opaque = true),
    nested: (text, places, scope) => {
      if (state.nesting >= MAX_NESTING) return void (state.opaque = true)
      state.nesting++
      try {
        walk(text, places, {
          ...scope,
          source: text,
          tilde: { home: mayChangeHome(text) ? undefined : scope.tilde.home },
          cdpath: scope.cdpath || text.includes("CDPATH"),
          lastpipe: scope.lastpipe || text.includes("lastpipe"),
        })
      } finally {
        state.nesting--
      }
    },
  }
  const home = options.home === "" || mayChangeHome(command) ? undefined : options.home
  walk(command, BashParsePlace.START, { source: command, tilde: { home }, cdpath: command.includes("CDPATH"), piped: false, lastpipe: command.includes("lastpipe"), depth: 0 })
  const found = Array.from(targets.values())
  const written = new Set(found.map((target) => target.path))
  const absolutePaths = Array.from(paths).filter((path) => !written.has(path))
  if (state.opaque || state.commands > MAX_COMMANDS) return opaque(command, found, absolutePaths)
  const list = resources.size === 0 ? [{ text: command, save: undefined }] : Array.from(resources.values())
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
  await TreeParser.init()
  const language = await Language.load(createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm"))
  const parser = new TreeParser()
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
