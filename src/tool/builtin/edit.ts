/**
 * The `edit` tool: replace `oldString` with `newString` in one existing file (06). Order: input
 * checks → resolve → `external_directory` (external targets, before any I/O) → `read` (every
 * answer depends on the content) → under the file's lock: read, match and diff in memory → assert `edit` with the diff → only then report a failed
 * match (so a denied edit never reveals whether `oldString` matched) → recheck the path and
 * refuse if the content changed while the request awaited approval (compared byte for byte with
 * what was read, which is a content hash without collisions) → atomic write of the file's own
 * bytes with the matches spliced in. The lock spans the approval, so concurrent edits of one
 * file apply one after the other; interruption releases it. `requests` lists `external_directory`,
 * `read` and `edit` as `execute` asks them, the `edit` one without its diff (known only once read).
 */
export * as EditTool from "./edit.js"

import { open } from "node:fs/promises"
import { isUtf8 } from "node:buffer"
import { Effect, Schema } from "effect"
import { FileMutation } from "../../location/file-mutation.js"
import { LocationMutation } from "../../location/mutation.js"
import { Permission } from "../../permission/permission.js"
import type { PermissionShown } from "../../permission/shown.js"
import { History } from "../../snapshot/history.js"
import { Tool } from "../tool.js"
import { EditMatch } from "./edit/match.js"
import { EditPlan } from "./edit/plan.js"
import { FileAccess } from "./file-access.js"
import { ReadFile } from "./read/file.js"
import { Tracing } from "../../tracing.js"

export const name = "edit"

/** Lines of the closest region longer than this are cut, as `read` cuts them. */
export const MAX_LINE_LENGTH = 2_000
/** The file is compared with what was read in chunks of this many bytes before writing. */
export const COMPARE_CHUNK_BYTES = 1024 * 1024

export const DESCRIPTION = [
  "Replaces text in an existing file.",
  "oldString must match the file's current content exactly, including whitespace and indentation; copy it from read output without the line-number prefixes. LF line breaks match a CRLF file.",
  "oldString must occur exactly once unless replaceAll is true; add surrounding lines to make it unique.",
  "When there is no exact match, a match that differs only in typographic quotes, dashes or spaces, or in trailing whitespace, is used.",
  "The file's line endings and byte-order mark are kept. To create a file or replace all of its content, use write.",
].join("\n")

export const Messages = {
  identical: "No changes to apply: oldString and newString are identical.",
  emptyOldString: "oldString must not be empty. Use write to create or overwrite a file.",
  notFound: (path: string) => `File not found: ${path}`,
  directory: (path: string) => `Path is a directory, not a file: ${path}`,
  notFile: (path: string) => `Path is not a file: ${path}`,
  notText: (path: string) => `Cannot edit ${path}: it is not UTF-8 text. Use write to replace it.`,
  unreadable: (path: string, detail: string) => `Could not read ${path}: ${detail}`,
  noMatch: (path: string) => `Could not find oldString in ${path}. It must match exactly, including whitespace and indentation.`,
  /** One line as `read` shows it: `<n>: <text>`, cut after `MAX_LINE_LENGTH` characters (code points). */
  numbered: (line: number, text: string) => `${line}: ${cut(text)}`,
  /**
   * Appended to `noMatch` when a region shares non-trivial lines with oldString:
   * `\n\nThe closest match is at lines <a>-<b>:\n<a>: …\n<b>: …`.
   */
  closest: (region: EditMatch.Region) =>
    `\n\nThe closest match is at lines ${region.first}-${region.first + region.lines.length - 1}:\n${region.lines.map((line, index) => Messages.numbered(region.first + index, line)).join("\n")}`,
  ambiguous: (count: number) =>
    `Found ${count} matches for oldString, but expected exactly one. Add more surrounding context to make oldString unique, or set replaceAll to true to replace every occurrence.`,
  modified: (path: string) => `File ${path} was modified while the edit was awaiting approval. Read it again and retry.`,
  edited: (path: string, count: number) => `Edited ${path} (${count} ${count === 1 ? "replacement" : "replacements"})`,
} as const

export const Input = Schema.Struct({
  path: Schema.String.annotate({ description: "The file to edit: relative to the working directory, or absolute" }),
  oldString: Schema.String.annotate({ description: "The exact text to replace; must not be empty" }),
  newString: Schema.String.annotate({ description: "The text to replace it with; must differ from oldString" }),
  replaceAll: Schema.optional(Schema.Boolean.annotate({ description: "Replace every occurrence of oldString (default false)" })),
}).annotate({ identifier: "EditTool.Input" })
export type Input = typeof Input.Type

export const Output = Schema.Struct({
  path: Schema.String,
  replacements: Schema.Int,
  diff: Schema.String,
}).annotate({ identifier: "EditTool.Output" })
export type Output = typeof Output.Type

const fail = (message: string) => Effect.fail(new Tool.Failure({ message }))

/** A line of the closest region, cut after `MAX_LINE_LENGTH` code points as `read` cuts it. */
const cut = (text: string) => {
  const chars = text.length > MAX_LINE_LENGTH ? Array.from(text) : []
  return chars.length > MAX_LINE_LENGTH ? `${chars.slice(0, MAX_LINE_LENGTH).join("")}... (line truncated to ${MAX_LINE_LENGTH} chars)` : text
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

/**
 * The file's bytes, or the read error the model reads (step 3). Opened the way read opens: no
 * link followed, no FIFO waited on, and the descriptor checked to be the approved file.
 */
const readTarget = (target: LocationMutation.Target, asked: ReadonlySet<string>): Effect.Effect<Buffer, Tool.Failure> =>
  Effect.acquireUseRelease(
    Effect.tryPromise({ try: () => ReadFile.open(target.real), catch: (error) => new Tool.Failure({ message: Messages.unreadable(target.resource, errno(error)) }) }),
    (opened): Effect.Effect<Buffer, Tool.Failure> => {
      if (opened.type === "missing") return fail(Messages.notFound(target.resource))
      if (opened.type === "directory") return fail(Messages.directory(target.resource))
      if (opened.type === "moved") return fail(LocationMutation.Messages.changed(target.input))
      if (opened.type === "other") return fail(Messages.notFile(target.resource))
      if (!FileAccess.stillJudged(asked, target.real, opened.links)) return fail(LocationMutation.Messages.changed(target.input))
      return Effect.tryPromise({
        try: () => ReadFile.readAll(opened.handle, opened.size),
        catch: (error) => new Tool.Failure({ message: Messages.unreadable(target.resource, errno(error)) }),
      })
    },
    (opened) => (opened.type === "file" ? Effect.promise(() => opened.handle.close()) : Effect.void),
  )

/** Whether `file` still holds exactly `bytes`, compared a chunk at a time; false when unreadable. */
const unchanged = (file: string, bytes: Buffer): Effect.Effect<boolean> =>
  Effect.promise(async () => {
    const handle = await open(file, "r").catch(() => undefined)
    if (handle === undefined) return false
    try {
      if ((await handle.stat()).size !== bytes.length) return false
      const chunk = Buffer.allocUnsafe(Math.min(COMPARE_CHUNK_BYTES, bytes.length))
      for (let at = 0; at < bytes.length; ) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, bytes.length - at), at)
        if (bytesRead === 0 || !chunk.subarray(0, bytesRead).equals(bytes.subarray(at, at + bytesRead))) return false
        at += bytesRead
      }
      // Growth after the compared bytes is a change too.
      return (await handle.read(Buffer.alloc(1), 0, 1, bytes.length)).bytesRead === 0
    } catch {
      // A file that can no longer be read cannot be shown unchanged: refuse rather than write.
      return false
    } finally {
      await handle.close()
    }
  })

/**
 * The failure for an outcome that is not an edit, reported only after `read` and `edit` were
 * granted (the closest region quotes the file).
 */
const refusal = (resource: string, outcome: Exclude<EditPlan.Outcome, { _tag: "Edit" }>) =>
  outcome._tag === "Ambiguous" ? Messages.ambiguous(outcome.count) : Messages.noMatch(resource) + (outcome.closest === undefined ? "" : Messages.closest(outcome.closest))

export const make = Effect.gen(function* () {
  const access = yield* FileAccess.Service
  const permission = yield* Permission.Service
  const mutation = yield* FileMutation.Service
  const history = yield* History.Service

  /**
   * The input checks, the target, and its requests: `external_directory` and `read` (`before`,
   * asked first), then `edit`, asked with the diff once the content is read.
   */
  const plan = Effect.fnUntraced(function* (input: Input, sessionID: string | undefined) {
    if (input.oldString === input.newString) return yield* fail(Messages.identical)
    if (input.oldString === "") return yield* fail(Messages.emptyOldString)
    const target = yield* access.resolveWrite(input.path, "file")
    // Every answer below depends on the file's content (a match, a count, a diff): the session
    // must be allowed to read it first, or edit would be an oracle on what `read` protects.
    const reads = FileAccess.reads([target])
    return { target, linked: reads.linked, before: [...access.externals(sessionID, [target], name), ...reads.requests], edit: FileAccess.actionRequest(name, [target]) }
  })

  type Plan = Effect.Success<ReturnType<typeof plan>>

  /** Read, match, ask, verify, write: everything that happens under the file's lock. */
  const apply = Effect.fnUntraced(function* (planned: Plan, input: Input, context: Tool.Context) {
    // Under the lock, resolve again: the path may have changed while waiting for it.
    const target = yield* access.recheck(planned.target, "file")
    const bytes = yield* readTarget(target, planned.linked)
    if (!isUtf8(bytes)) return yield* fail(Messages.notText(target.resource))
    const outcome = EditPlan.make(bytes.toString("utf8"), { oldString: input.oldString, newString: input.newString, replaceAll: input.replaceAll ?? false })
    const diff = outcome._tag === "Edit" ? EditPlan.diff(outcome, target.resource) : ""
    // The recheck kept the real path, so the planned request names this target.
    yield* Tool.ask(permission, context, { ...planned.edit, metadata: { diff } satisfies PermissionShown.Shown })
    if (outcome._tag !== "Edit") return yield* fail(refusal(target.resource, outcome))
    yield* access.recheck(target, "file")
    if (!(yield* unchanged(target.real, bytes))) return yield* fail(Messages.modified(target.resource))
    yield* history.record(
      { sessionID: context.sessionID, messageID: context.assistantMessageID, paths: [target.real] },
      FileMutation.writeAtomic(target.real, EditPlan.bytes(outcome, bytes)).pipe(
        Effect.mapError((error) => new Tool.Failure({ message: FileMutation.Messages.write(target.resource, error.detail) })),
      ),
    )
    return { path: target.resource, replacements: outcome.replacements, diff } satisfies Output
  })

  const execute = Tracing.fn("EditTool.execute")(function* (input: Input, context: Tool.Context) {
    const planned = yield* plan(input, context.sessionID)
    yield* Tool.askAll(permission, context, planned.before)
    return yield* mutation.withLock([planned.target.real], apply(planned, input, context))
  })

  return Tool.make({
    description: DESCRIPTION,
    input: Input,
    output: Output,
    execute,
    requests: (input, context) => Effect.map(plan(input, context.sessionID), (planned) => [...planned.before, planned.edit]),
    toModelOutput: ({ output }) => [{ type: "text", text: `${Messages.edited(output.path, output.replacements)}\n\n${output.diff}` }],
  })
})
