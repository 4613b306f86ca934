/**
 * Path resolution for every file-touching tool, before it reads, asks or writes. A path becomes
 * an internal target (inside the Location, with its Location-relative resource), an external one
 * (outside, to be approved as `external_directory` first), or an error. Containment is decided on
 * real paths and is separator-aware: symlinks are followed at every depth, including the final
 * component and a dangling link, and a new file is resolved through its deepest existing ancestor.
 * Invariant: nothing here writes; `recheck` repeats the resolution right before a write.
 */
export * as LocationMutation from "./mutation.js"

import { statSync } from "node:fs"
import path from "node:path"
import { Effect, Schema } from "effect"
import { Project } from "../project.js"
import { RealForm } from "./real-form.js"

export const MAX_LINK_HOPS = RealForm.MAX_LINK_HOPS

export const REASONS = ["invalid_path", "unpaired_surrogate", "relative_escape", "location_escape", "non_directory_ancestor", "too_many_links", "too_long", "not_accessible", "changed"] as const
export type Reason = (typeof REASONS)[number]

/** A UTF-16 surrogate without its other half: JSON can carry one, a file name cannot. */
const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export const Messages = {
  invalid_path: () => "Invalid path: contains a NUL byte",
  unpaired_surrogate: (input: string) => `Invalid path: ${JSON.stringify(input)} holds an unpaired UTF-16 surrogate, which no file name has (names are read as UTF-8)`,
  relative_escape: (input: string) => `Path escapes the working directory: ${input}`,
  location_escape: (input: string) => `Path resolves outside the working directory through a symbolic link: ${input}`,
  non_directory_ancestor: (input: string) => `Path goes through a file that is not a directory: ${input}`,
  too_many_links: (input: string) => `Path has too many levels of symbolic links: ${input}`,
  too_long: (input: string) => `Path is too long for the file system (${input.length} characters)`,
  not_accessible: (input: string) => `Path cannot be accessed (permission denied by the file system): ${input}`,
  changed: (input: string) => `Path ${input} changed while the request was awaiting approval (it now resolves elsewhere). Retry.`,
} as const

export class PathError extends Schema.TaggedError<PathError>()("LocationMutation.PathError", {
  reason: Schema.Literals(REASONS),
  path: Schema.String,
}) {
  override get message() {
    return Messages[this.reason](this.path)
  }
}

/**
 * What the target is: a file, a directory, whatever it turns out to be (`auto`, for read), or the
 * entry itself (`entry`: a link in the last component is not followed, for deleting or moving
 * the link as rm and mv do; a link pointing outside is then an internal target).
 */
export type Kind = "file" | "directory" | "auto" | "entry"

export interface ExternalDirectory {
  /** The folder to approve: the target itself for a directory, else its parent. */
  readonly directory: string
  /** `<directory>/*`: the permission resource. */
  readonly resource: string
  /** `<nearest repository root>/*` (else `<directory>/*`): what "always" saves. */
  readonly save: string
}

export type Target =
  | { readonly type: "internal"; readonly input: string; readonly real: string; readonly resource: string }
  | { readonly type: "external"; readonly input: string; readonly real: string; readonly resource: string; readonly externalDirectory: ExternalDirectory }

export interface Location {
  /** The real path of the Location. */
  readonly directory: string
  readonly caseInsensitive: boolean
}

export interface Options {
  readonly kind: Kind
  readonly home: string
}

/** Whether `child` is `root` or inside it, on separators (`/work/app-evil` is not in `/work/app`). */
export const contains = (root: string, child: string, caseInsensitive = false): boolean => {
  const [a, b] = caseInsensitive ? [root.toLowerCase(), child.toLowerCase()] : [root, child]
  if (a === b) return true
  return b.startsWith(a.endsWith(path.sep) ? a : `${a}${path.sep}`)
}

/** The real form of `absolute`'s folder joined with its own name: the last component is not followed. */
const entryForm = (absolute: string): string | Reason => {
  const parent = path.dirname(absolute)
  if (parent === absolute) return RealForm.of(absolute)
  const realParent = RealForm.of(parent)
  return REASONS.includes(realParent as Reason) ? realParent : path.join(realParent, path.basename(absolute))
}

/** Whether `real` is a directory now; anything unreadable is not. */
const isDirectoryAt = (real: string) => {
  try {
    return statSync(real, { throwIfNoEntry: false })?.isDirectory() === true
  } catch {
    return false
  }
}

const stripNewlines = (input: string) => input.replace(/[\r\n]+$/, "")

const expandHome = (input: string, home: string) => (input === "~" ? home : input.startsWith("~/") ? path.join(home, input.slice(2)) : input)

/** `<folder>/*`, and `/*` for the root folder itself (not `//*`). */
export const folderPattern = (folder: string): string => `${folder.endsWith(path.sep) ? folder.slice(0, -1) : folder}/*`

const toResource = (root: string, real: string) => path.relative(root, real).split(path.sep).join("/") || "."

/** How permissions name a real path: Location-relative (with `/`) inside, absolute outside. */
export const resourceOf = (location: Location, real: string): string =>
  contains(location.directory, real, location.caseInsensitive) ? toResource(location.directory, real) : real

/** Resolves a tool's path against the Location; see the module docblock. */
export const resolve = (location: Location, raw: string, options: Options): Effect.Effect<Target, PathError> =>
  Effect.gen(function* () {
    const input = stripNewlines(raw)
    if (input.includes("\0")) return yield* new PathError({ reason: "invalid_path", path: input })
    // Node would write it as U+FFFD, another name than the one given, and than a snapshot's (byte-path.ts).
    if (UNPAIRED.test(input)) return yield* new PathError({ reason: "unpaired_surrogate", path: input })
    const expanded = expandHome(input, options.home)
    const absolute = path.resolve(location.directory, expanded)
    const lexicallyInside = contains(location.directory, absolute, location.caseInsensitive)
    if (!path.isAbsolute(expanded) && !lexicallyInside) return yield* new PathError({ reason: "relative_escape", path: input })
    const real = yield* Effect.sync(() => (options.kind === "entry" ? entryForm(absolute) : RealForm.of(absolute)))
    if (REASONS.includes(real as Reason)) return yield* new PathError({ reason: real as Reason, path: input })
    if (contains(location.directory, real, location.caseInsensitive)) {
      return { type: "internal", input, real, resource: toResource(location.directory, real) } satisfies Target
    }
    if (lexicallyInside) return yield* new PathError({ reason: "location_escape", path: input })
    const isDirectory = options.kind === "directory" || (options.kind === "auto" && (yield* Effect.sync(() => isDirectoryAt(real))))
    // A directory target approves itself (reading /home/u/proj2 must not approve all of /home/u).
    const directory = isDirectory ? real : path.dirname(real)
    const root = Project.repositoryRoot(directory) ?? directory
    return {
      type: "external",
      input,
      real,
      resource: real,
      externalDirectory: { directory, resource: folderPattern(directory), save: folderPattern(root) },
    } satisfies Target
  })

/** Resolves again right before a write; a target that now resolves elsewhere is refused. */
export const recheck = (location: Location, target: Target, options: Options): Effect.Effect<Target, PathError> =>
  Effect.flatMap(resolve(location, target.input, options), (again) =>
    again.real === target.real && again.type === target.type ? Effect.succeed(again) : Effect.fail(new PathError({ reason: "changed", path: target.input })),
  )
