/**
 * `write`: create or overwrite a whole file. The path is resolved and approved (`edit`, after
 * `external_directory` when outside) before anything on disk is touched; then, under the file's
 * lock and after resolving again, missing parent folders are created and the content is written
 * atomically with the old file's mode. A byte-order mark survives: the result has exactly one
 * when the old file or the new content had one.
 */
export * as WriteTool from "./write.js"

import { Effect, Schema } from "effect"
import { FileMutation } from "../../location/file-mutation.js"
import { LocationMutation } from "../../location/mutation.js"
import { Permission } from "../../permission/permission.js"
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
  /** The target and what is asked before touching it: `external_directory` when outside, then `edit`. */
  const plan = Effect.fnUntraced(function* (input: string, sessionID: string | undefined) {
    const target = yield* access.resolveWrite(input, "file")
    return { target, requests: [...access.externals(sessionID, [target]), FileAccess.actionRequest(EDIT_ACTION, [target])] }
  })
  return Tool.make({
    description: DESCRIPTION,
    input: Input,
    output: Output,
    requests: ({ path: input }, context) => Effect.map(plan(input, context.sessionID), (planned) => planned.requests),
    execute: ({ path: input, content }, context) =>
      Effect.gen(function* () {
        const { target, requests } = yield* plan(input, context.sessionID)
        yield* Tool.askAll(permission, context, requests)
        return yield* files.withLock(
          [target.real],
          Effect.gen(function* () {
            const current = yield* access.recheck(target, "file")
            const old = yield* previous(current)
            const next = withBom(old, content)
            // Old lines are shown only to a model that may read them; judged before the write,
            // which gives a hard-linked path a name of its own.
            const visible = old === undefined || (yield* access.mayRead(context, current))
            yield* history.record(
              { sessionID: context.sessionID, messageID: context.assistantMessageID, paths: [current.real] },
              FileMutation.writeAtomic(current.real, next, { parents: true }).pipe(Effect.mapError((error) => new Tool.Failure({ message: FileMutation.Messages.write(current.resource, error.detail) }))),
            )
            const diff = visible ? FileDiff.unified(current.resource, old ?? "", next) : FileAccess.Messages.withheld(current.resource)
            return { operation: old === undefined ? "create" : "overwrite", path: current.resource, diff } as const
          }),
        )
      }),
    toModelOutput: ({ output }) => [
      { type: "text", text: [output.operation === "create" ? Messages.created(output.path) : Messages.wrote(output.path), output.diff].filter((part) => part !== "").join("\n\n") },
    ],
  })
})
