/**
 * The one place where output is cut for the model. Tools return everything; `bound` measures
 * the text parts (or, without text, the structured output as pretty JSON), and when either
 * limit is passed writes the full text to the session's own folder,
 * `<data dir>/tool-output/<project id>/<session key>/tool_<id>` (0600, ToolOutputPath), and hands
 * the model a preview with that path. Media parts are never measured, cut or written, only capped.
 * Invariant: a bound that cannot save the full text fails the call (StorageError); it never
 * returns a lossy success. The text is written in chunks, so a 200 MB result costs one copy.
 * Expired files are deleted by the process's retention job (tool-output-retention.ts).
 */
export * as ToolOutputStore from "./tool-output-store.js"

import { type FileHandle, unlink } from "node:fs/promises"
import path from "node:path"
import { Context, Effect, Layer, Schema } from "effect"
import { Config } from "./config.js"
import { ToolOutputPath } from "./location/tool-output-path.js"
import { Project } from "./project.js"
import { Id } from "./storage/id.js"
import { ToolOutputPreview } from "./tool-output-preview.js"
import { Tool } from "./tool/tool.js"
import { Tracing } from "./tracing.js"

export const MAX_LINES = 2_000
export const MAX_BYTES = 50 * 1024
export const MAX_INLINE_MEDIA_BYTES = 5 * 1024 * 1024
export const FILE_PREFIX = "tool_"
/** UTF-16 units encoded per write, so writing never holds a second full copy of the text. */
export const WRITE_CHUNK_UNITS = 1 << 20
/** Mode of a saved output: it may hold secrets, so only the user can read it. */
export const FILE_MODE = 0o600

export const Messages = {
  mediaLimit: (mime: string, bytes: number, limit: number) =>
    `Tool output part of type ${mime} is ${bytes} bytes, over the limit of ${limit} bytes`,
  storage: (file: string, detail: string) => `Could not save the full tool output to ${file}: ${detail}`,
  notEncodable: "the text contains unpaired UTF-16 surrogates and cannot be written as UTF-8 without loss",
  notSerialisable: "the structured output cannot be written as JSON",
} as const

export class MediaLimitError extends Schema.TaggedError<MediaLimitError>()("ToolOutputStore.MediaLimitError", {
  mime: Schema.String,
  bytes: Schema.Number,
  limit: Schema.Number,
}) {
  override get message() {
    return Messages.mediaLimit(this.mime, this.bytes, this.limit)
  }
}

export class StorageError extends Schema.TaggedError<StorageError>()("ToolOutputStore.StorageError", {
  path: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.storage(this.path, this.detail)
  }
}

export type Error = MediaLimitError | StorageError

export interface BoundInput {
  readonly sessionID: string
  readonly toolCallID: string
  readonly result: Tool.Settled
}

export interface Options {
  /** `<data dir>/tool-output`. */
  readonly directory: string
  /** The project whose sessions' output this store keeps: the first folder level. */
  readonly projectID: string
}

export interface Interface {
  /** The managed directory (absolute). */
  readonly directory: string
  readonly limits: ToolOutputPreview.Limits
  /** The folder of one session's saved output (absolute; made on the first save). */
  readonly folder: (sessionID: string) => string
  /** Where a real path lies for a session: its own saved output, another's, above them, or elsewhere. */
  readonly place: (sessionID: string, real: string) => ToolOutputPath.Place
  /** Whether a real path is the managed directory or inside it: where no tool may write. */
  readonly holds: (real: string) => boolean
  readonly bound: (input: BoundInput) => Effect.Effect<Tool.Settled, Error>
  /** Saves text in full under a new `tool_` name in the session's folder and returns its absolute path. */
  readonly write: (sessionID: string, text: string) => Effect.Effect<string, StorageError>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/ToolOutputStore") {}

const isText = (part: Tool.Content): part is Extract<Tool.Content, { type: "text" }> => part.type === "text"

const errorDetail = (cause: unknown) => (cause as NodeJS.ErrnoException).code ?? String(cause)

/** One `write` may write less than asked (a nearly full disk); keep going until all of it is on disk. */
const writeAll = async (handle: FileHandle, bytes: Buffer) => {
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
    if (bytesWritten === 0) throw Object.assign(new Error("no bytes written"), { code: "EIO" })
    offset += bytesWritten
  }
}

/** Writes `text` to a new file in chunks; the file is removed again if anything fails. */
const writeChunked = async (file: string, text: string) => {
  const handle = await ToolOutputPath.create(file, FILE_MODE)
  try {
    for (let start = 0; start < text.length; ) {
      const end = Math.min(text.length, start + WRITE_CHUNK_UNITS)
      // Never split a surrogate pair across two chunks.
      const cut = end < text.length && text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff ? end - 1 : end
      await writeAll(handle, Buffer.from(text.slice(start, cut), "utf8"))
      start = cut
    }
    await handle.close()
  } catch (cause) {
    await handle.close().catch(() => undefined)
    await unlink(file).catch(() => undefined)
    throw cause
  }
}

/** The text the limits apply to: the text parts, or the structured output when there are none. */
const measured = (result: Tool.Settled): string | globalThis.Error => {
  const texts = result.content.filter(isText).map((part) => part.text)
  if (texts.length === 1) return texts[0] as string
  if (texts.length > 1) return texts.join("\n")
  return Tool.prettyJson(result.structured)
}

export const layer = (options: Options) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const config = yield* Config.Service
      const directory = path.resolve(options.directory)
      // Targets are compared in real form; the folder may not exist yet.
      const real = yield* Effect.sync(() => ToolOutputPath.realForm(directory))
      const folder = (sessionID: string) => ToolOutputPath.folder(directory, options.projectID, sessionID)
      const place = (sessionID: string, target: string) => ToolOutputPath.place(real, ToolOutputPath.folder(real, options.projectID, sessionID), target)
      const holds = (target: string) => ToolOutputPath.holds(real, target)
      const limits: ToolOutputPreview.Limits = {
        maxLines: config.tool_output.max_lines ?? MAX_LINES,
        maxBytes: config.tool_output.max_bytes ?? MAX_BYTES,
      }

      const write = Tracing.fn("ToolOutputStore.write")(function* (sessionID: string, text: string) {
        const file = path.join(folder(sessionID), Id.create("tool"))
        if (!text.isWellFormed()) return yield* new StorageError({ path: file, detail: Messages.notEncodable })
        yield* Effect.tryPromise({
          try: () => writeChunked(file, text),
          catch: (cause) => new StorageError({ path: file, detail: errorDetail(cause) }),
        })
        return file
      })

      // Untraced: it runs on every call inside the `ToolRegistry.settle` span, and a traced
      // function captures a stack per call (docs/benchmarks.md); saving text has its own span.
      const bound = Effect.fnUntracedEager(function* (input: BoundInput) {
        const media = input.result.content.filter((part) => part.type === "file")
        for (const part of media) {
          const bytes = Buffer.byteLength(part.data, "base64")
          if (bytes > MAX_INLINE_MEDIA_BYTES) return yield* new MediaLimitError({ mime: part.mime, bytes, limit: MAX_INLINE_MEDIA_BYTES })
        }
        const text = measured(input.result)
        if (text instanceof globalThis.Error) return yield* new StorageError({ path: directory, detail: `${Messages.notSerialisable}: ${text.message}` })
        // Text a tool saved elsewhere in full is incomplete here: it always gets the marker.
        if (input.result.saved === undefined && ToolOutputPreview.fits(text, limits)) return input.result
        // A tool that saved its full output itself (bash's spool) is pointed at, not copied.
        const file = input.result.saved ?? (yield* write(input.sessionID, text))
        const cut = input.result.preview === "tail" ? ToolOutputPreview.tailPreview : ToolOutputPreview.preview
        const preview: Tool.Content = { type: "text", text: cut(text, file, limits) }
        const bounded: Tool.Settled = { ...input.result, content: [preview, ...media], outputPaths: [...input.result.outputPaths, file] }
        return bounded
      })

      return Service.of({ directory, limits, folder, place, holds, bound, write })
    }),
  )

/** `layer` for the Location's project. */
export const projectLayer = (options: Pick<Options, "directory">) =>
  Layer.unwrap(Effect.map(Project.Service, (project) => layer({ ...options, projectID: project.id })))
