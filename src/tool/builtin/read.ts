/**
 * The `read` tool (06): resolve the path, ask `external_directory` then `read`, and only then
 * open the target. Text files are shown one page at a time, streamed from the start (ReadLines);
 * a page holds at most `limit` (≤ MAX_READ_LINES) lines, and a line joins it only while the
 * UTF-8 bytes of every shown `<n>: <text>` line plus one newline each stay ≤ MAX_READ_BYTES, so
 * the header and the continue line are not counted; a page always holds at least one line.
 * Directories page the same way (ReadDirectory); images and PDFs (by magic bytes) become file
 * parts through `toModelOutput` (ReadMedia). Characters of MAX_LINE_LENGTH are code points.
 * `requests` (what is asked, before anything is opened) is the first step of `execute` too.
 */
export * as ReadTool from "./read.js"

import type { FileHandle } from "node:fs/promises"
import path from "node:path"
import { Effect, Schema } from "effect"
import { LocationMutation } from "../../location/mutation.js"
import { Permission } from "../../permission/permission.js"
import { Tool } from "../tool.js"
import { FileAccess } from "./file-access.js"
import { ReadDirectory } from "./read/directory.js"
import { ReadFile } from "./read/file.js"
import { ReadLines } from "./read/lines.js"
import { ReadMedia } from "./read/media.js"
import { Tracing } from "../../tracing.js"

export const name = "read"

export const MAX_READ_LINES = 2_000
export const MAX_READ_BYTES = 50 * 1024
/** Characters (code points) shown of one line. */
export const MAX_LINE_LENGTH = 2_000
export const MAX_MEDIA_BYTES = 20 * 1024 * 1024
export const BINARY_SNIFF_BYTES = 8 * 1024
/** The smallest chunk a text read uses, however small the file. */
export const MIN_CHUNK_BYTES = 4 * 1024
/** Bytes kept of one line while scanning: enough for MAX_LINE_LENGTH 4-byte characters and one more. */
export const MAX_KEPT_LINE_BYTES = 4 * MAX_LINE_LENGTH + 4
export const MAX_IMAGE_DIMENSION = 2_000
export const MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024

export const DESCRIPTION = `Reads a file or lists a directory.

- path: the file or directory, relative to the working directory or absolute (paths outside the working directory need approval).
- Text files are returned one page at a time: up to ${MAX_READ_LINES} lines and ${MAX_READ_BYTES / 1024} KiB per page, each line as "<line number>: <text>". When more of the file remains, the last line of the output says which offset to continue reading from.
- offset is the 1-based line (or directory entry) to start at; limit is how many lines (or entries) to return, at most ${MAX_READ_LINES}.
- Lines longer than ${MAX_LINE_LENGTH} characters are cut.
- Images (PNG, JPEG, GIF, WebP) are returned as images, scaled to fit ${MAX_IMAGE_DIMENSION}×${MAX_IMAGE_DIMENSION}; PDFs are returned as files (up to ${MAX_MEDIA_BYTES / 1024 / 1024} MiB).
- A directory is listed one entry per line, subdirectories first with a trailing "/", paged like a file.
- Binary files cannot be read.`

export const Messages = {
  fileHeader: (resource: string, first: number, last: number) => `Read file ${resource}, lines ${first}-${last}`,
  emptyFile: (resource: string) => `Read file ${resource}, 0 lines`,
  directoryHeader: (resource: string, first: number, last: number) => `Read directory ${resource}, entries ${first}-${last}`,
  emptyDirectory: (resource: string) => `Read directory ${resource}, 0 entries`,
  line: (number: number, text: string) => `${number}: ${text}`,
  lineTruncated: `... (line truncated to ${MAX_LINE_LENGTH} chars)`,
  more: (next: number) => `[Output truncated. Continue reading with offset: ${next}]`,
  outOfRange: (offset: number, total: number) => `Offset ${offset} is out of range for this file (${total} lines)`,
  directoryOutOfRange: (offset: number, total: number) => `Offset ${offset} is out of range for this directory (${total} entries)`,
  binary: (resource: string) => `Cannot read binary file: ${resource}`,
  imageRead: "Image read successfully",
  pdfRead: "PDF read successfully",
  undecodable: (resource: string) => `Image could not be decoded: ${resource}`,
  /** The whole answer for an image that cannot be decoded: the call succeeds, without the image. */
  imageLeftOut: (resource: string) => `Image could not be decoded: ${resource}\nThe image was left out of this result.`,
  imageTooLarge: (resource: string) =>
    `Image is too large to send even as a JPEG at the lowest quality (over ${MAX_IMAGE_BASE64_BYTES} bytes of base64): ${resource}`,
  mediaTooLarge: (resource: string, bytes: number) =>
    `File is too large to read as an image or PDF (${bytes} bytes, limit ${MAX_MEDIA_BYTES} bytes): ${resource}`,
  notFound: (resource: string) => `File not found: ${resource}`,
  suggestions: (resource: string, paths: ReadonlyArray<string>) => `File not found: ${resource}\n\nDid you mean one of these?\n${paths.join("\n")}`,
  notAFile: (resource: string) => `Path is not a file: ${resource}`,
  unreadable: (resource: string, detail: string) => `Could not read ${resource}: ${detail}`,
} as const

export const Input = Schema.Struct({
  path: Schema.String.annotate({ description: "The file or directory to read, relative to the working directory or absolute" }),
  offset: Schema.optional(
    Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({ description: "The 1-based line (or directory entry) to start from; 0 means 1. Default 1" }),
  ),
  limit: Schema.optional(
    Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({ description: `How many lines (or entries) to return; default and maximum ${MAX_READ_LINES}` }),
  ),
}).annotate({ identifier: "ReadTool.Input" })
export type Input = typeof Input.Type

const Page = <K extends "text" | "directory">(kind: K) =>
  Schema.Struct({ kind: Schema.Literal(kind), path: Schema.String, content: Schema.String, next: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))) })
const Media = <K extends "image" | "pdf">(kind: K) =>
  Schema.Struct({ kind: Schema.Literal(kind), path: Schema.String, mime: Schema.String, name: Schema.String, data: Schema.String })

/** What `read` returns; `content` is the page exactly as the model reads it, `next` the offset to continue from. */
export const Output = Schema.Union([Page("text"), Page("directory"), Media("image"), Media("pdf")]).annotate({ identifier: "ReadTool.Output" })
export type Output = typeof Output.Type

/** The UTF-16 index after `count` code points, or undefined when `text` has no more than `count`. */
const cutIndex = (text: string, count: number): number | undefined => {
  if (text.length <= count) return undefined
  const cursor = { index: 0 }
  for (let seen = 0; seen < count; seen += 1) cursor.index += (text.codePointAt(cursor.index) as number) > 0xffff ? 2 : 1
  return cursor.index < text.length ? cursor.index : undefined
}

/** One numbered line as shown, cut after MAX_LINE_LENGTH characters. */
export const formatLine = (number: number, text: string): string => {
  const cut = cutIndex(text, MAX_LINE_LENGTH)
  return Messages.line(number, cut === undefined ? text : `${text.slice(0, cut)}${Messages.lineTruncated}`)
}

/** A page as the model reads it: header, lines, and the continue line when more remains. */
const pageText = (header: string, lines: ReadonlyArray<string>, next: number | undefined) =>
  [header, ...lines, ...(next === undefined ? [] : [Messages.more(next)])].join("\n")

const withNext = <A extends object>(value: A, next: number | undefined) => (next === undefined ? value : { ...value, next })

interface Request {
  readonly offset: number
  readonly limit: number
}

/** An I/O error on an approved target, as the model reads it. */
const ioFailure = (target: LocationMutation.Target) => (cause: unknown) => {
  const code = (cause as NodeJS.ErrnoException).code
  if (code === "ELOOP") return new Tool.Failure({ message: LocationMutation.Messages.changed(target.input) })
  if (code === "EACCES" || code === "EPERM") return new Tool.Failure({ message: LocationMutation.Messages.not_accessible(target.resource) })
  return new Tool.Failure({ message: Messages.unreadable(target.resource, code ?? String(cause)) })
}

const fail = (message: string) => Effect.fail(new Tool.Failure({ message }))

/** `File not found`, with up to three similar names from the same directory. */
const notFound = Effect.fnUntraced(function* (target: LocationMutation.Target) {
  const names = yield* Effect.promise(() => ReadDirectory.similar(path.dirname(target.real), path.basename(target.real)))
  const join = (entry: string) =>
    target.type === "external" ? path.join(path.dirname(target.resource), entry) : path.posix.join(path.posix.dirname(target.resource), entry)
  if (names.length === 0) return yield* fail(Messages.notFound(target.resource))
  return yield* fail(Messages.suggestions(target.resource, names.map(join)))
})

const listDirectory = Effect.fnUntraced(function* (target: LocationMutation.Target, request: Request) {
  const entries = yield* Effect.tryPromise({ try: () => ReadDirectory.entries(target.real), catch: ioFailure(target) })
  if (entries.length === 0 && request.offset === 1) return { kind: "directory" as const, path: target.resource, content: Messages.emptyDirectory(target.resource) }
  if (request.offset > entries.length) return yield* fail(Messages.directoryOutOfRange(request.offset, entries.length))
  const rest = entries.slice(request.offset - 1)
  const count = ReadDirectory.fit(rest, request.limit, MAX_READ_BYTES)
  const last = request.offset + count - 1
  const next = last < entries.length ? last + 1 : undefined
  const content = pageText(Messages.directoryHeader(target.resource, request.offset, last), rest.slice(0, count), next)
  return withNext({ kind: "directory" as const, path: target.resource, content }, next)
})

/** How `read` pages a text file (the line page's limits and format). */
const PAGE = { maxBytes: MAX_READ_BYTES, sniffBytes: BINARY_SNIFF_BYTES, keptLineBytes: MAX_KEPT_LINE_BYTES, format: formatLine } as const

/** A scanned page as the tool's output, or why there is none (binary, past the end). */
const pageOutput = (target: LocationMutation.Target, request: Request, page: ReadLines.Page) => {
  if (page.type === "binary") return fail(Messages.binary(target.resource))
  if (page.type === "out_of_range") return fail(Messages.outOfRange(request.offset, page.total))
  const header =
    page.lines.length === 0 ? Messages.emptyFile(target.resource) : Messages.fileHeader(target.resource, page.first, page.first + page.lines.length - 1)
  return Effect.succeed(withNext({ kind: "text" as const, path: target.resource, content: pageText(header, page.lines, page.next) }, page.next))
}

const readText = Effect.fnUntraced(function* (target: LocationMutation.Target, handle: FileHandle, size: number, request: Request) {
  // Chunks no larger than the file (plus the byte that shows its end): two 1 MiB buffers per read
  // of a small file made the garbage collector run every few calls of a busy server.
  const chunkBytes = Math.min(ReadLines.CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, size + 1))
  const page = yield* Effect.tryPromise({
    try: (signal) => ReadLines.page(handle, { ...request, ...PAGE, chunkBytes, signal }),
    catch: ioFailure(target),
  })
  return yield* pageOutput(target, request, page)
})

const readMedia = Effect.fnUntraced(function* (target: LocationMutation.Target, size: number, kind: ReadMedia.Kind, read: Effect.Effect<Buffer, Tool.Failure>) {
  if (size > MAX_MEDIA_BYTES) return yield* fail(Messages.mediaTooLarge(target.resource, size))
  const bytes = yield* read
  const file = { path: target.resource, name: path.basename(target.real) }
  if (kind === "pdf") return { kind: "pdf" as const, ...file, mime: "application/pdf", data: bytes.toString("base64") }
  const image = yield* Effect.promise(() => ReadMedia.normalise(bytes, { maxDimension: MAX_IMAGE_DIMENSION, maxBase64Bytes: MAX_IMAGE_BASE64_BYTES }))
  if (image.type === "undecodable") return { kind: "text" as const, path: target.resource, content: Messages.imageLeftOut(target.resource) }
  if (image.type === "too_large") return yield* fail(Messages.imageTooLarge(target.resource))
  return { kind: "image" as const, ...file, mime: image.mime, data: image.data }
})

const readFile = Effect.fnUntraced(function* (target: LocationMutation.Target, handle: FileHandle, size: number, request: Request) {
  const head = yield* Effect.tryPromise({ try: () => ReadFile.readAll(handle, Math.min(size, ReadMedia.MAGIC_BYTES)), catch: ioFailure(target) })
  const kind = ReadMedia.detect(head)
  if (kind !== undefined) return yield* readMedia(target, size, kind, Effect.tryPromise({ try: () => ReadFile.readAll(handle, size), catch: ioFailure(target) }))
  return yield* readText(target, handle, size, request)
})

/** A small file's whole bytes, read in one pass: media or a page of its lines. */
const readBytes = Effect.fnUntraced(function* (target: LocationMutation.Target, bytes: Buffer, request: Request): Effect.fn.Return<Output, Tool.Failure> {
  const kind = ReadMedia.detect(bytes.subarray(0, ReadMedia.MAGIC_BYTES))
  if (kind !== undefined) return yield* readMedia(target, bytes.length, kind, Effect.succeed(bytes))
  return yield* pageOutput(target, request, ReadLines.pageOf(bytes, { ...request, ...PAGE }))
})

/** What a target that is not a readable file is: missing, moved, a directory, something else. */
const notAFileOutput = (target: LocationMutation.Target, request: Request, found: Exclude<ReadFile.Opened, { readonly type: "file" }>): Effect.Effect<Output, Tool.Failure> => {
  if (found.type === "missing") return notFound(target)
  if (found.type === "moved") return fail(LocationMutation.Messages.changed(target.input))
  if (found.type === "other") return fail(Messages.notAFile(target.resource))
  return listDirectory(target, request)
}

/** A file too large for one pass (or empty by its size, like /proc's): open once, then page or send as media. */
const readOpened = (target: LocationMutation.Target, request: Request, asked: ReadonlySet<string>): Effect.Effect<Output, Tool.Failure> =>
  Effect.acquireUseRelease(
    Effect.tryPromise({ try: () => ReadFile.open(target.real), catch: ioFailure(target) }),
    (opened): Effect.Effect<Output, Tool.Failure> => {
      if (opened.type !== "file") return notAFileOutput(target, request, opened)
      // A name added to the file after approval was not judged: ask again by retrying.
      if (!FileAccess.stillJudged(asked, target.real, opened.links)) return fail(LocationMutation.Messages.changed(target.input))
      return readFile(target, opened.handle, opened.size, request)
    },
    (opened) => (opened.type === "file" ? Effect.promise(() => opened.handle.close()) : Effect.void),
  )

/**
 * Everything after approval. A small file is opened, checked and read in one synchronous pass
 * (`ReadFile.readSmall`, the same flags and checks as `ReadFile.open`): a thread-pool round trip
 * per step cost more than the read of a small file itself.
 */
const readTarget = (target: LocationMutation.Target, request: Request, asked: ReadonlySet<string>): Effect.Effect<Output, Tool.Failure> =>
  Effect.flatMap(Effect.try({ try: () => ReadFile.readSmall(target.real), catch: ioFailure(target) }), (small): Effect.Effect<Output, Tool.Failure> => {
    if (small.type === "large" || (small.type === "file" && small.bytes.length === 0)) return readOpened(target, request, asked)
    if (small.type !== "file") return notAFileOutput(target, request, small)
    if (!FileAccess.stillJudged(asked, target.real, small.links)) return fail(LocationMutation.Messages.changed(target.input))
    return readBytes(target, small.bytes, request)
  })

const toModelOutput = ({ output }: { readonly output: typeof Output.Encoded }): ReadonlyArray<Tool.Content> => {
  if (output.kind === "text" || output.kind === "directory") return [{ type: "text", text: output.content }]
  const text = output.kind === "image" ? Messages.imageRead : Messages.pdfRead
  return [{ type: "text", text }, { type: "file", mime: output.mime, data: output.data, name: output.name }]
}

/**
 * The `read` tool, with FileAccess captured.
 * @example const read = yield* ReadTool.make; yield* registry.register({ [ReadTool.name]: read })
 */
export const make: Effect.Effect<Tool.Value<Input, Output>, never, FileAccess.Service | Permission.Service> = Effect.gen(function* () {
  const access = yield* FileAccess.Service
  const permission = yield* Permission.Service
  /** The target and what is asked before opening it: `external_directory` when outside, then `read`. */
  const plan = Effect.fnUntraced(function* (input: Input, sessionID: string | undefined) {
    const target = yield* access.resolve(input.path, "auto")
    const reads = FileAccess.reads([target])
    return { target, linked: reads.linked, requests: [...access.externals(sessionID, [target], FileAccess.READ_ACTION), ...reads.requests] }
  })
  const execute = Tracing.fn("ReadTool.execute")(function* (input: Input, context: Tool.Context) {
    const { target, linked, requests } = yield* plan(input, context.sessionID)
    yield* Tool.askAll(permission, context, requests)
    // Resolve again after the (possibly long) approval: a parent swapped for a link is refused.
    const current = yield* access.recheck(target, "auto")
    return yield* readTarget(current, { offset: Math.max(1, input.offset ?? 1), limit: Math.min(MAX_READ_LINES, input.limit ?? MAX_READ_LINES) }, linked)
  })
  const requests = (input: Input, context: Tool.RequestContext) => Effect.map(plan(input, context.sessionID), (planned) => planned.requests)
  return Tool.make({ description: DESCRIPTION, input: Input, output: Output, execute, toModelOutput, requests })
})
