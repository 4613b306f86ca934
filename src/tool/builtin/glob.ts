/**
 * The `glob` tool (07): files whose path matches a pattern, listed by `rg --files` (`.gitignore`
 * respected, `.git` excluded, hidden files only on request, links not followed) and matched by
 * GlobPattern, never by `rg --glob`, which would beat the ignore rules. ripgrep stops at
 * `limit + 1` files; the page shown is sorted by path, so a complete listing is deterministic
 * while a truncated one is whichever files ripgrep's parallel walk met first.
 */
export * as GlobTool from "./glob.js"

import { Effect, Schema } from "effect"
import { Permission } from "../../permission/permission.js"
import { Tool } from "../tool.js"
import { FileAccess } from "./file-access.js"
import { Ripgrep } from "./search/ripgrep.js"
import { Search } from "./search/search.js"
import { Tracing } from "../../tracing.js"

export const name = "glob"

export const DESCRIPTION = `Finds files by path pattern, fast, in any codebase size.

- pattern: a glob such as "**/*.ts", "*.md" or "src/**/*.test.ts". A pattern without "/" matches file names at any depth; one with "/" is matched against the path relative to the search folder. "*" and "?" stay within one folder name, "**" spans folders, "{a,b}" picks alternatives, "[abc]" and "[!abc]" match one character.
- path: the folder to search, relative to the working directory or absolute (default: the working directory; folders outside it need approval).
- Files ignored by .gitignore (and .ignore) are skipped, .git is never searched, and symbolic links are not followed. Hidden files and folders (names starting with ".") are skipped unless hidden is true.
- Returns absolute paths, one per line, sorted by path; at most limit paths (default ${Search.DEFAULT_LIMIT}), with a note when more exist.`

export const Messages = {
  noFiles: "No files found",
} as const

export const Input = Schema.Struct({
  pattern: Schema.String.check(Schema.isMinLength(1)).annotate({ description: 'The glob to match, e.g. "**/*.ts" or "src/**/*.test.ts"' }),
  path: Schema.optional(Schema.String.annotate({ description: "The folder to search, relative to the working directory or absolute. Default: the working directory" })),
  hidden: Schema.optional(Schema.Boolean.annotate({ description: 'Also list hidden files and folders (names starting with "."). Default false' })),
  limit: Schema.optional(
    Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({ description: `The most paths to return. Default ${Search.DEFAULT_LIMIT}` }),
  ),
}).annotate({ identifier: "GlobTool.Input" })
export type Input = typeof Input.Type

/** What `glob` returns: absolute paths sorted by path, and whether more matched than `limit`. */
export const Output = Schema.Struct({
  files: Schema.Array(Schema.String),
  truncated: Schema.Boolean,
}).annotate({ identifier: "GlobTool.Output" })
export type Output = typeof Output.Type

/** The text the model reads. */
export const format = (output: typeof Output.Encoded): string =>
  output.files.length === 0 ? Messages.noFiles : Search.withTruncation(output.files.join("\n"), output.truncated, output.files.length)

/** ripgrep's arguments for listing `root`: NUL-separated paths, ignore rules kept, the prefilter as a file type. */
export const ripgrepArgs = (root: string, prefilter: string | undefined, hidden: boolean): ReadonlyArray<string> => [
  "--files",
  "--null",
  ...Ripgrep.BASE_ARGS,
  ...(hidden ? ["--hidden", Ripgrep.EXCLUDE_GIT] : []),
  ...Ripgrep.typeArgs(prefilter),
  "--",
  root,
]

const toModelOutput = ({ output }: { readonly output: typeof Output.Encoded }): ReadonlyArray<Tool.Content> => [{ type: "text", text: format(output) }]

/**
 * The `glob` tool with FileAccess and Permission captured; `options` choose the binary and timeout.
 * @example const glob = yield* GlobTool.make; yield* registry.register({ [GlobTool.name]: glob })
 */
export const makeWith = (options: Ripgrep.Options = {}): Effect.Effect<Tool.Value<Input, Output>, never, FileAccess.Service | Permission.Service> =>
  Effect.gen(function* () {
    const access = yield* FileAccess.Service
    const permission = yield* Permission.Service
    const ripgrep = Ripgrep.locator(options)
    /** The pattern compiled (a bad one fails before anything is asked), then the search's requests. */
    const prepare = Effect.fnUntraced(function* (input: Input, sessionID: string | undefined) {
      const pattern = yield* Search.compile(input.pattern)
      return { pattern, ...(yield* Search.prepare({ access, sessionID, action: name, pattern: input.pattern, path: input.path, kind: "directory" })) }
    })
    const execute = Tracing.fn("GlobTool.execute")(function* (input: Input, context: Tool.Context) {
      const { pattern, target, requests } = yield* prepare(input, context.sessionID)
      const root = yield* Search.approve({ access, permission, context, kind: "directory" }, target, requests)
      const binary = yield* ripgrep.locate.pipe(Effect.mapError(Search.failure))
      const relative = Search.relativeTo(root.path)
      const hidden = input.hidden === true
      const parse = (file: string) => {
        const rest = relative(file)
        return (hidden || !Search.isHidden(rest)) && pattern.test(rest) && root.listable(file) ? file : undefined
      }
      const found = yield* Ripgrep.search({
        binary,
        args: ripgrepArgs(root.path, pattern.prefilter, hidden),
        cwd: root.path,
        separator: "\0",
        parse,
        limit: input.limit ?? Search.DEFAULT_LIMIT,
        unstartable: ripgrep.forget,
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      }).pipe(Effect.mapError(Search.failure))
      return { files: [...found.results].sort(), truncated: found.truncated }
    })
    const requests = (input: Input, context: Tool.RequestContext) => Effect.map(prepare(input, context.sessionID), (prepared) => prepared.requests)
    return Tool.make({ description: DESCRIPTION, input: Input, output: Output, execute, toModelOutput, requests })
  })

/** The `glob` tool with the default binary lookup and timeout. */
export const make = makeWith()
