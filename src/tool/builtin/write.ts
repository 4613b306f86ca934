/**
 * `write`: create or overwrite a whole file. The path is resolved and approved (`edit`, after
 * `external_directory` when outside) before anything on disk is touched; then, under the file's
 * lock and after resolving again, missing parent folders are created and the content is written
 * atomically with the old file's mode. A byte-order mark survives: the result has exactly one
 * when the old file or the new content had one.
 */
export * as WriteTool from "./write.js"

import { mkdir, readFile } from "node:fs/promises"
import path from "node:path"
import { Effect, Schema } from "effect"
import { FileMutation } from "../../location/file-mutation.js"
import { Tool } from "../tool.js"
import { FileDiff } from "./diff.js"
import { FileAccess } from "./file-access.js"

export const name = "write"
export const BOM = "\uFEFF"

export const DESCRIPTION = [
  "Create a file, or replace a file's whole content, with the given text.",
  "Missing parent folders are created. The write is atomic: the file is either entirely old or entirely new, and it keeps its permissions.",
  "Prefer edit for changing part of an existing file. Paths are relative to the working directory; a path outside it needs the person's approval.",
].join("\n")

export const Messages = {
  created: (resource: string) => `Created file successfully: ${resource}`,
  wrote: (resource: string) => `Wrote file successfully: ${resource}`,
  isDirectory: (resource: string) => `Path is a directory, not a file: ${resource}`,
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

/** The old content, or undefined when there is no file yet. */
const previous = (real: string, resource: string) =>
  Effect.tryPromise({
    try: () => readFile(real, "utf8").catch((error: unknown) => (code(error) === "ENOENT" ? undefined : Promise.reject(error))),
    catch: (error) => new Tool.Failure({ message: code(error) === "EISDIR" ? Messages.isDirectory(resource) : Messages.unreadable(resource, code(error)) }),
  })

/** Exactly one BOM when either side had one; none otherwise. */
export const withBom = (old: string | undefined, content: string): string => {
  const bare = content.startsWith(BOM) ? content.slice(BOM.length) : content
  return old?.startsWith(BOM) === true || content.startsWith(BOM) ? `${BOM}${bare}` : bare
}

export const make = Effect.gen(function* () {
  const access = yield* FileAccess.Service
  const files = yield* FileMutation.Service
  return Tool.make({
    description: DESCRIPTION,
    input: Input,
    output: Output,
    execute: ({ path: input, content }, context) =>
      Effect.gen(function* () {
        const target = yield* access.resolve(input, "file")
        yield* access.authorize(context, "edit", [target])
        return yield* files.withLock(
          [target.real],
          Effect.gen(function* () {
            const current = yield* access.recheck(target, "file")
            const old = yield* previous(current.real, current.resource)
            const next = withBom(old, content)
            yield* Effect.tryPromise({
              try: () => mkdir(path.dirname(current.real), { recursive: true }),
              catch: (error) => new Tool.Failure({ message: FileMutation.Messages.write(current.resource, code(error)) }),
            })
            yield* FileMutation.writeAtomic(current.real, next).pipe(Effect.mapError((error) => new Tool.Failure({ message: FileMutation.Messages.write(current.resource, error.detail) })))
            return { operation: old === undefined ? "create" : "overwrite", path: current.resource, diff: FileDiff.unified(current.resource, old ?? "", next) } as const
          }),
        )
      }),
    toModelOutput: ({ output }) => [
      { type: "text", text: [output.operation === "create" ? Messages.created(output.path) : Messages.wrote(output.path), output.diff].filter((part) => part !== "").join("\n\n") },
    ],
  })
})
