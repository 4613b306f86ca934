/**
 * `write`: create or overwrite a whole file. The path is resolved and `external_directory` asked
 * (when outside) before anything on disk is touched; then, under the file's lock and after
 * resolving again, the old file is read and `edit` asked with the diff (the person sees what will
 * change), the path resolved once more, missing parent folders created and the content written
 * atomically with the old file's mode. A byte-order mark survives: the result has exactly one
 * when the old file or the new content had one.
 */
export * as WriteTool from "./write.js"

import { Effect, Schema } from "effect"
import { FileMutation } from "../../location/file-mutation.js"
import { LocationMutation } from "../../location/mutation.js"
import { Permission } from "../../permission/permission.js"
import type { PermissionShown } from "../../permission/shown.js"
import { History } from "../../snapshot/history.js"
import { Tool } from "../tool.js"
import { FileDiff } from "./diff.js"
import { FileAccess } from "./file-access.js"
import { ReadFile } from "./read/file.js"

export const name = "write"
/** The permission action of a write: the one every file change asks. */
export const EDIT_ACTION = "edit"
export const BOM = "\uFEFF"

export const DESCRIPTION = [
  "Creates a file, or replaces a file's whole content, with the given text.",
  "Missing parent folders are created. The write is atomic: the file is either entirely old or entirely new, and it keeps its permissions.",
  "Prefer edit for changing part of an existing file. Paths are relative to the working directory; a path outside it needs the person's approval.",
].join("\n")

export const Messages = {
  created: (resource: string) => `Created file successfully: ${resource}`,
  wrote: (resource: string) => `Wrote file successfully: ${resource}`,
  isDirectory: (resource: string) => `Path is a directory, not a file: ${resource}`,
  notFile: (resource: string) => `Path is not a file: ${resource}`,
  unreadable: (resource: string, detail: string) => `Could not read the existing file ${resource}: ${detail}`,
} as const

export const Input = Schema.Struct({
  path: Schema.String.annotate({ description: "The file to write: relative to the working directory, or absolute" }),
  content: Schema.String.annotate({ description: "The complete new content of the file" }),
})

export const Output = Schema.Struct({
  operation: Schema.Literals(["create", "overwrite"]),
  path: Schema.String,
  diff: Schema.String,
})

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

/**
 * The old content, or undefined when there is no file yet. Opened the way read opens (no link
 * followed, no FIFO waited on, the descriptor checked to be the approved file), so writing over a
 * FIFO, a device or a swapped-in link is refused instead of hanging or reading without end.
 */
const previous = (target: LocationMutation.Target) =>
  Effect.acquireUseRelease(
    Effect.tryPromise({ try: () => ReadFile.open(target.real), catch: (error) => new Tool.Failure({ message: Messages.unreadable(target.resource, code(error)) }) }),
    (opened): Effect.Effect<string | undefined, Tool.Failure> => {
      if (opened.type === "missing") return Effect.succeed(undefined)
      if (opened.type === "directory") return Effect.fail(new Tool.Failure({ message: Messages.isDirectory(target.resource) }))
      if (opened.type === "moved") return Effect.fail(new Tool.Failure({ message: LocationMutation.Messages.changed(target.input) }))
      if (opened.type === "other") return Effect.fail(new Tool.Failure({ message: Messages.notFile(target.resource) }))
      return Effect.tryPromise({
        try: async () => (await ReadFile.readAll(opened.handle, opened.size)).toString("utf8"),
        catch: (error) => new Tool.Failure({ message: Messages.unreadable(target.resource, code(error)) }),
      })
    },
    (opened) => (opened.type === "file" ? Effect.promise(() => opened.handle.close()) : Effect.void),
  )

/** Exactly one BOM when either side had one; none otherwise. */
export const withBom = (old: string | undefined, content: string): string => {
  const bare = content.startsWith(BOM) ? content.slice(BOM.length) : content
  return old?.startsWith(BOM) === true || content.startsWith(BOM) ? `${BOM}${bare}` : bare
}

export const make = Effect.gen(function* () {
  const access = yield* FileAccess.Service
  const permission = yield* Permission.Service
  const files = yield* FileMutation.Service
  const history = yield* History.Service
  /** The target and what is asked: `external_directory` when outside (`before`), then `edit`, asked with the diff. */
  const plan = Effect.fnUntraced(function* (input: string, sessionID: string | undefined) {
    const target = yield* access.resolveWrite(input, "file")
    return { target, before: access.externals(sessionID, [target], EDIT_ACTION), edit: FileAccess.actionRequest(EDIT_ACTION, [target]) }
  })

  /** Under the lock: read the old file, ask `edit` with the diff, resolve again, write. */
  const replace = Effect.fnUntraced(function* (target: LocationMutation.Target, edit: Tool.PermissionRequest, content: string, context: Tool.Context) {
    const current = yield* access.recheck(target, "file")
    // What is there (a directory, a FIFO) is told only once edit is granted.
    const old = yield* previous(current).pipe(Effect.tapError(() => Tool.ask(permission, context, edit)))
    const next = withBom(old, content)
    // Old lines are shown (to the person asked and to the model) only where the session may read
    // them; judged before the write, which gives a hard-linked path a name of its own.
    const visible = old === undefined || (yield* access.mayRead(context, current))
    const diff = visible ? FileDiff.unified(current.resource, old ?? "", next) : FileAccess.Messages.withheld(current.resource)
    yield* Tool.ask(permission, context, { ...edit, metadata: { diff } satisfies PermissionShown.Shown })
    // The path may have been swapped while the request awaited an answer.
    const approved = yield* access.recheck(current, "file")
    yield* history.record(
      { sessionID: context.sessionID, messageID: context.assistantMessageID, paths: [approved.real] },
      FileMutation.writeAtomic(approved.real, next, { parents: true }).pipe(Effect.mapError((error) => new Tool.Failure({ message: FileMutation.Messages.write(approved.resource, error.detail) }))),
    )
    return { operation: old === undefined ? "create" : "overwrite", path: approved.resource, diff } as const
  })

  return Tool.make({
    description: DESCRIPTION,
    input: Input,
    output: Output,
    requests: ({ path: input }, context) => Effect.map(plan(input, context.sessionID), (planned) => [...planned.before, planned.edit]),
    execute: ({ path: input, content }, context) =>
      Effect.gen(function* () {
        const { target, before, edit } = yield* plan(input, context.sessionID)
        yield* Tool.askAll(permission, context, before)
        return yield* files.withLock([target.real], replace(target, edit, content, context))
      }),
    toModelOutput: ({ output }) => [
      { type: "text", text: [output.operation === "create" ? Messages.created(output.path) : Messages.wrote(output.path), output.diff].filter((part) => part !== "").join("\n\n") },
    ],
  })
})
