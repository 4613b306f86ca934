/**
 * What `glob` and `grep` share (07): the order before ripgrep runs — resolve the search path
 * (05), ask `external_directory` for an external one, ask the tool's own action with the pattern
 * as the resource (saving `*`, 04), resolve again, and only then look at the disk — plus the
 * truncation line and the search-path errors. `prepare` lists the asks (the tools' `requests`)
 * and `approve` asks them. Paths shown are real absolute paths, as ripgrep prints them for an
 * absolute root; a root above saved tool output does not list other sessions' files in it
 * (`Root.listable`).
 */
export * as Search from "./search.js"

import { stat } from "node:fs/promises"
import path from "node:path"
import { Effect } from "effect"
import { LocationMutation } from "../../../location/mutation.js"
import type { Permission } from "../../../permission/permission.js"
import { Tool } from "../../tool.js"
import { FileAccess } from "../file-access.js"
import { GlobPattern } from "./glob-pattern.js"
import type { Ripgrep } from "./ripgrep.js"

export const DEFAULT_LIMIT = 100
/** What "always" saves for a search: every pattern (04). */
export const SAVE: ReadonlyArray<string> = ["*"]

export const Messages = {
  truncated: (count: number) => `(Results are truncated: showing first ${count} results. Consider using a more specific path or pattern.)`,
  notFound: (path: string) => `Search path does not exist: ${path}`,
  notDirectory: (path: string) => `Search path is not a directory: ${path}`,
  /** A FIFO, socket or device named as grep's path: ripgrep would wait on it, or read it without end. */
  notFile: (path: string) => `Search path is not a file or a directory: ${path}`,
  unreadable: (path: string, detail: string) => `Search path cannot be read: ${path} (${detail})`,
  insideGit: (path: string) => `Search path is inside .git, which searches leave out: ${path}`,
} as const

/** An approved place to search. */
export interface Root {
  /** Real absolute path. */
  readonly path: string
  readonly directory: boolean
  /** Whether a file found there may be listed: not other sessions' saved output below an approved root above it. */
  readonly listable: (file: string) => boolean
}

/** What decides a search's requests: where, and the pattern asked. */
export interface PrepareRequest {
  readonly access: FileAccess.Interface
  /** The session searching, when there is one: its own saved tool output is not external. */
  readonly sessionID: string | undefined
  readonly action: string
  readonly pattern: string
  /** The tool's `path`; the Location when absent. */
  readonly path: string | undefined
  /** `directory` for glob; `auto` lets grep search one file too. */
  readonly kind: "directory" | "auto"
}

/** What asking a prepared search's requests needs. */
export interface ApproveRequest {
  readonly access: FileAccess.Interface
  readonly permission: Permission.Interface
  readonly context: Tool.Context
  readonly kind: PrepareRequest["kind"]
}

const fail = (message: string) => Effect.fail(new Tool.Failure({ message }))

/** Checks the approved root on disk. */
const inspect = (real: string, kind: PrepareRequest["kind"]): Effect.Effect<Omit<Root, "listable">, Tool.Failure> =>
  Effect.flatMap(
    Effect.promise(() => stat(real).then((info) => ({ directory: info.isDirectory(), file: info.isFile() }), (error: NodeJS.ErrnoException) => error.code ?? String(error))),
    (info) => {
      if (info === "ENOENT" || info === "ENOTDIR") return fail(Messages.notFound(real))
      if (info === "EACCES" || info === "EPERM") return fail(LocationMutation.Messages.not_accessible(real))
      if (typeof info === "string") return fail(Messages.unreadable(real, info))
      if (kind === "directory" && !info.directory) return fail(Messages.notDirectory(real))
      // ripgrep searches a named file whatever it is: a FIFO held the call until the timeout.
      if (!info.directory && !info.file) return fail(Messages.notFile(real))
      return Effect.succeed({ path: real, directory: info.directory })
    },
  )

/**
 * The resolved search root and what a search asks before looking at it: `external_directory`
 * for an external root, then the tool's action on the pattern. The tools' `requests` are this.
 * @example const { requests } = yield* Search.prepare({ access, action: "glob", pattern, path: input.path, kind: "directory" })
 */
export const prepare = Effect.fnUntraced(function* (request: PrepareRequest) {
  const target = yield* request.access.resolve(request.path ?? ".", request.kind)
  // `.git` is excluded from every search (07), also when it is named as the root.
  const segments = target.type === "internal" ? target.resource.split("/") : target.real.split(path.sep)
  if (segments.includes(".git")) return yield* fail(Messages.insideGit(target.real))
  const requests: ReadonlyArray<Tool.PermissionRequest> = [...request.access.externals(request.sessionID, [target], request.action), { action: request.action, resources: [request.pattern], save: SAVE }]
  return { target, requests }
})

/**
 * Asks a prepared search's requests and checks the root; nothing on disk is looked at before
 * every approval.
 * @example const root = yield* Search.approve({ access, permission, context, kind: "directory" }, target, requests)
 */
export const approve = Effect.fnUntraced(function* (request: ApproveRequest, target: LocationMutation.Target, requests: ReadonlyArray<Tool.PermissionRequest>) {
  yield* Tool.askAll(request.permission, request.context, requests)
  // Resolve again after the (possibly long) approval: a parent swapped for a link is refused.
  const current = yield* request.access.recheck(target, request.kind)
  const root = yield* inspect(current.real, request.kind)
  return { ...root, listable: yield* request.access.listable(request.context, root.path) } satisfies Root
})

/** A pattern compiled, or the Failure the model reads. */
export const compile = (pattern: string): Effect.Effect<GlobPattern.Pattern, Tool.Failure> => {
  const compiled = GlobPattern.compile(pattern)
  return compiled instanceof GlobPattern.InvalidError ? fail(compiled.message) : Effect.succeed(compiled)
}

/** The path of `absolute` relative to `root`, with `/` separators as ripgrep prints them. */
export const relativeTo = (root: string) => {
  const prefix = root.endsWith("/") ? root.length : root.length + 1
  return (absolute: string) => absolute.slice(prefix)
}

/** Whether a relative path has a segment starting with a dot. */
export const isHidden = (relative: string) => relative.startsWith(".") || relative.includes("/.")

/** The ripgrep errors as the model reads them. */
export const failure = (error: Ripgrep.Error) => new Tool.Failure({ message: error.message })

/** The text, then a blank line and the truncation line when more results exist. */
export const withTruncation = (text: string, truncated: boolean, count: number) => (truncated ? `${text}\n\n${Messages.truncated(count)}` : text)
