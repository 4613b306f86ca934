/**
 * The `grep` tool (07): lines matching a regular expression, found by `rg --json` (hidden files
 * searched, `.git` excluded, `.gitignore` respected, links not followed). A result is one
 * matching line; ripgrep stops at `limit + 1` of them, so `Found <n>` counts the lines shown
 * (≤ limit) and the truncation line says more exist. `include` is matched by GlobPattern (see
 * glob.ts for why not `rg --glob`). Lines that are not UTF-8 arrive as bytes and are decoded
 * with U+FFFD for invalid sequences. Files are listed by path, their lines in order.
 */
export * as GrepTool from "./grep.js"

import path from "node:path"
import { Effect, Schema } from "effect"
import { LocationMutation } from "../../location/mutation.js"
import { Permission } from "../../permission/permission.js"
import { Tool } from "../tool.js"
import { FileAccess } from "./file-access.js"
import { Ripgrep } from "./search/ripgrep.js"
import { Search } from "./search/search.js"
import { Tracing } from "../../tracing.js"

export const name = "grep"

/** Characters (code points) shown of one matching line. */
export const MAX_LINE_LENGTH = 2_000

export const DESCRIPTION = `Searches file contents with a regular expression (ripgrep syntax), fast, in any codebase size.

- pattern: the regular expression, e.g. "function\\s+\\w+" or "TODO"; set literal to true to search for the text exactly as written.
- path: the folder (or one file) to search, relative to the working directory or absolute (default: the working directory; paths outside it need approval).
- include: only search files whose path matches this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}" (a glob without "/" matches file names at any depth).
- caseSensitive: default true.
- Hidden files are searched; files ignored by .gitignore (and .ignore) and the .git folder are not; symbolic links are not followed.
- Returns the matching lines grouped by file (absolute paths, sorted), each as "Line <number>: <text>", lines cut after ${MAX_LINE_LENGTH} characters; at most limit lines (default ${Search.DEFAULT_LIMIT}), with a note when more exist.`

export const Messages = {
  found: (count: number) => `Found ${count} matches`,
  noMatches: "No matches found",
  file: (path: string) => `${path}:`,
  line: (number: number, text: string) => `  Line ${number}: ${text}`,
  /** In place of a line whose search output was too long to hold (a matching line of megabytes). */
  longLine: "  (a matching line too long to show here; read the file to see it)",
  lineTruncated: `... (line truncated to ${MAX_LINE_LENGTH} chars)`,
} as const

export const Input = Schema.Struct({
  pattern: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "The regular expression to search for (or the exact text, with literal)" }),
  path: Schema.optional(Schema.String.annotate({ description: "The folder or file to search, relative to the working directory or absolute. Default: the working directory" })),
  include: Schema.optional(Schema.String.check(Schema.isMinLength(1)).annotate({ description: 'Only search files whose path matches this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}"' })),
  literal: Schema.optional(Schema.Boolean.annotate({ description: "Treat pattern as plain text, not a regular expression. Default false" })),
  caseSensitive: Schema.optional(Schema.Boolean.annotate({ description: "Match case exactly. Default true" })),
  limit: Schema.optional(
    Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({ description: `The most matching lines to return. Default ${Search.DEFAULT_LIMIT}` }),
  ),
}).annotate({ identifier: "GrepTool.Input" })
export type Input = typeof Input.Type

export const Match = Schema.Struct({
  path: Schema.String,
  /** 1-based; 0 when the line was too long to read from ripgrep's output (then `text` is empty). */
  line: Schema.Int,
  /** The line as shown: without its line break, cut after MAX_LINE_LENGTH characters. */
  text: Schema.String,
}).annotate({ identifier: "GrepTool.Match" })
export type Match = typeof Match.Type

/** What `grep` returns: matching lines sorted by path then line, and whether more than `limit` exist. */
export const Output = Schema.Struct({
  matches: Schema.Array(Match),
  truncated: Schema.Boolean,
}).annotate({ identifier: "GrepTool.Output" })
export type Output = typeof Output.Type

/** ripgrep's JSON text: UTF-8 as `text`, anything else as base64 `bytes`. */
type Data = { readonly text: string } | { readonly bytes: string }

interface MatchMessage {
  readonly type: string
  readonly data: { readonly path: Data; readonly lines: Data; readonly line_number: number | null }
}

const decode = (data: Data) => ("text" in data ? data.text : Buffer.from(data.bytes, "base64").toString("utf8"))

/**
 * A path ripgrep could only give as bytes that are not UTF-8: its decoded name (with U+FFFD) names
 * no file, so no rule, hard-link check or listing could judge it. Its lines are left out.
 */
const unnamed = (data: Data) => "bytes" in data && !Buffer.from(data.bytes, "base64").equals(Buffer.from(decode(data), "utf8"))

/** The UTF-16 index after `count` code points, or undefined when `text` has no more than `count`. */
const cutIndex = (text: string, count: number): number | undefined => {
  if (text.length <= count) return undefined
  const cursor = { index: 0 }
  for (let seen = 0; seen < count && cursor.index < text.length; seen += 1) cursor.index += (text.codePointAt(cursor.index) as number) > 0xffff ? 2 : 1
  return cursor.index < text.length ? cursor.index : undefined
}

/** A matching line as shown: line break removed, cut after MAX_LINE_LENGTH characters. */
export const clip = (line: string): string => {
  const text = line.endsWith("\n") ? line.slice(0, line.endsWith("\r\n") ? -2 : -1) : line
  const cut = cutIndex(text, MAX_LINE_LENGTH)
  return cut === undefined ? text : `${text.slice(0, cut)}${Messages.lineTruncated}`
}

const MATCH_PREFIX = '{"type":"match"'

/** The match a `--json` record carries, or undefined for begin/end/context/summary records. */
const toMatch = (record: string): Match | undefined => {
  // ripgrep writes the tag first; the prefix test skips parsing every other record.
  if (!record.startsWith(MATCH_PREFIX) && record.startsWith('{"type":')) return undefined
  const message = JSON.parse(record) as MatchMessage
  if (message.type !== "match" || unnamed(message.data.path)) return undefined
  return { path: decode(message.data.path), line: message.data.line_number ?? 0, text: clip(decode(message.data.lines)) }
}

/** The path in the head of an oversized `--json` match record (it comes first), as a JSON value. */
const PATH_HEAD = /^\{"type":"match","data":\{"path":(\{"(?:text|bytes)":"(?:[^"\\]|\\.)*"\})/

/** A match record too long to parse: its file, with the line unknown (0) and not shown. */
const toLongMatch = (head: string): Match | undefined => {
  const found = PATH_HEAD.exec(head)?.[1]
  const data = found === undefined ? undefined : (JSON.parse(found) as Data)
  return data === undefined || unnamed(data) ? undefined : { path: decode(data), line: 0, text: "" }
}

const byPathThenLine = (a: Match, b: Match) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)

/** The text the model reads. */
export const format = (output: typeof Output.Encoded): string => {
  if (output.matches.length === 0) return Messages.noMatches
  const groups: Array<Array<string>> = []
  output.matches.forEach((match, index) => {
    if (index === 0 || output.matches[index - 1]?.path !== match.path) groups.push([Messages.file(match.path)])
    groups.at(-1)?.push(match.line === 0 ? Messages.longLine : Messages.line(match.line, match.text))
  })
  const text = [Messages.found(output.matches.length), ...groups.map((group) => group.join("\n"))].join("\n\n")
  return Search.withTruncation(text, output.truncated, output.matches.length)
}

const toModelOutput = ({ output }: { readonly output: typeof Output.Encoded }): ReadonlyArray<Tool.Content> => [{ type: "text", text: format(output) }]

/** ripgrep's arguments for one search of `root`; `prefilter` narrows a folder's files by name (GlobPattern). */
export const ripgrepArgs = (input: Pick<Input, "pattern" | "literal" | "caseSensitive">, root: Pick<Search.Root, "path" | "directory">, prefilter: string | undefined): ReadonlyArray<string> => [
  "--json",
  "--line-number",
  "--hidden",
  Ripgrep.EXCLUDE_GIT,
  ...Ripgrep.BASE_ARGS,
  ...(root.directory ? Ripgrep.typeArgs(prefilter) : []),
  ...(input.literal === true ? ["--fixed-strings"] : []),
  input.caseSensitive === false ? "--ignore-case" : "--case-sensitive",
  // Attached with "=", a pattern starting with "-" is never read as a flag.
  `--regexp=${input.pattern}`,
  "--",
  root.path,
]

/**
 * The `grep` tool with FileAccess and Permission captured; `options` choose the binary and timeout.
 * @example const grep = yield* GrepTool.make; yield* registry.register({ [GrepTool.name]: grep })
 */
export const makeWith = (options: Ripgrep.Options = {}): Effect.Effect<Tool.Value<Input, Output>, never, FileAccess.Service | Permission.Service> =>
  Effect.gen(function* () {
    const access = yield* FileAccess.Service
    const permission = yield* Permission.Service
    const ripgrep = Ripgrep.locator(options)
    /** The include glob compiled (a bad one fails before anything is asked), then the search's requests. */
    const prepare = Effect.fnUntraced(function* (input: Input, sessionID: string | undefined) {
      const include = input.include === undefined ? undefined : yield* Search.compile(input.include)
      return { include, ...(yield* Search.prepare({ access, sessionID, action: name, pattern: input.pattern, path: input.path, kind: "auto" })) }
    })
    const execute = Tracing.fn("GrepTool.execute")(function* (input: Input, context: Tool.Context) {
      const { include, target, requests } = yield* prepare(input, context.sessionID)
      const root = yield* Search.approve({ access, permission, context, kind: "auto" }, target, requests)
      const binary = yield* ripgrep.locate.pipe(Effect.mapError(Search.failure))
      const relative = Search.relativeTo(root.path)
      // grep must not show what `read` protects (`read *.env ask`): lines of such files are left
      // out as they stream in, before the limit counts them, and nothing says they were there.
      const readable = yield* permission.allowsEach(context.sessionID, FileAccess.READ_ACTION)
      const cwd = root.directory ? root.path : path.dirname(root.path)
      // A hard-linked file may be another name of one the session may not read: only a rule or
      // approval naming it exactly lets its lines through (as `read` asks for it).
      const links = new Map<string, boolean>()
      const linked = (file: string) => {
        const known = links.get(file)
        if (known !== undefined) return known
        const found = FileAccess.hasLinks(path.resolve(cwd, file))
        links.set(file, found)
        return found
      }
      const visible = (file: string) => readable(file) && (!linked(file) || readable(LocationMutation.resourceOf(access.location, path.resolve(cwd, file)), true))
      // An explicitly named file is searched whatever include says, as ripgrep does.
      const included = (match: Match) => include === undefined || !root.directory || include.test(relative(match.path))
      const shown = (match: Match | undefined) => (match !== undefined && included(match) && visible(match.path) && root.listable(match.path) ? match : undefined)
      const found = yield* Ripgrep.search({
        binary,
        args: ripgrepArgs(input, root, include?.prefilter),
        cwd,
        separator: "\n",
        parse: (record) => shown(toMatch(record)),
        oversized: (head) => shown(toLongMatch(head)),
        limit: input.limit ?? Search.DEFAULT_LIMIT,
        unstartable: ripgrep.forget,
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      }).pipe(Effect.mapError(Search.failure))
      return { matches: [...found.results].sort(byPathThenLine), truncated: found.truncated }
    })
    const requests = (input: Input, context: Tool.RequestContext) => Effect.map(prepare(input, context.sessionID), (prepared) => prepared.requests)
    return Tool.make({ description: DESCRIPTION, input: Input, output: Output, execute, toModelOutput, requests })
  })

/** The `grep` tool with the default binary lookup and timeout. */
export const make = makeWith()
