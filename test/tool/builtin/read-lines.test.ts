import { open, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { ReadLines } from "../../../src/tool/builtin/read/lines.js"
import { ReadFile } from "../../../src/tool/builtin/read/file.js"
import { ReadTool } from "../../../src/tool/builtin/read.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"
import { tmpdir } from "../../lib/tmp.js"

type Options = Omit<ReadLines.Request, "format" | "signal">

const format = (number: number, text: string) => `${number}|${text}`

/** The page rules read off the whole file at once: the specification the streaming scan must match. */
const reference = (bytes: Buffer, options: Options): ReadLines.Page => {
  if (bytes.subarray(0, options.sniffBytes).includes(0)) return { type: "binary" }
  const segments = bytes.length === 0 ? [] : splitLines(bytes)
  if (options.offset > segments.length && !(segments.length === 0 && options.offset === 1)) return { type: "out_of_range", total: segments.length }
  const lines: string[] = []
  const budget = { bytes: 0 }
  for (let index = options.offset - 1; index < segments.length; index += 1) {
    if (lines.length === options.limit) return { type: "page", first: options.offset, lines, next: index + 1 }
    const segment = segments[index] as Buffer
    if (segment.includes(0)) return { type: "binary" }
    const kept = segment.subarray(0, options.keptLineBytes)
    const whole = kept.length === segment.length && kept.at(-1) === 0x0d ? kept.subarray(0, -1) : kept
    const formatted = format(index + 1, whole.toString("utf8"))
    const size = Buffer.byteLength(formatted) + 1
    if (lines.length > 0 && budget.bytes + size > options.maxBytes) return { type: "page", first: options.offset, lines, next: index + 1 }
    lines.push(formatted)
    budget.bytes += size
  }
  return { type: "page", first: options.offset, lines, next: undefined }
}

/** Lines split on `\n`; a final `\n` ends the last line and adds none. */
const splitLines = (bytes: Buffer): Buffer[] => {
  const parts: Buffer[] = []
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start)
    const end = newline === -1 ? bytes.length : newline
    parts.push(bytes.subarray(start, end))
    start = end + 1
  }
  return parts
}

const pageOf = (file: string, bytes: Buffer, options: Options) =>
  Effect.promise(async () => {
    await writeFile(file, bytes)
    const handle = await open(file, "r")
    try {
      return await ReadLines.page(handle, { ...options, format })
    } finally {
      await handle.close()
    }
  })

const content = fc
  .array(fc.constantFrom("a", "bc", "é", "😀", "\r", "\n", "\n", "\r\n", "\0", "      "), { maxLength: 60 })
  .map((pieces) => Buffer.from(pieces.join(""), "utf8"))

const options: fc.Arbitrary<Options> = fc.record({
  offset: fc.integer({ min: 1, max: 12 }),
  limit: fc.integer({ min: 1, max: 8 }),
  maxBytes: fc.integer({ min: 1, max: 60 }),
  sniffBytes: fc.integer({ min: 0, max: 16 }),
  keptLineBytes: fc.integer({ min: 1, max: 12 }),
  chunkBytes: fc.integer({ min: 1, max: 9 }),
})

describe("ReadLines.page", () => {
  it.live("matches the whole-file reading of the page rules, whatever the chunk size", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "sample.txt")
      const samples = fc.sample(fc.tuple(content, options), { numRuns: 400, seed: 20_260_601 })
      for (const [bytes, request] of samples) {
        expect({ bytes: bytes.toString("utf8"), request, page: yield* pageOf(file, bytes, request) }).toEqual({
          bytes: bytes.toString("utf8"),
          request,
          page: reference(bytes, request),
        })
      }
    }))

  it("reads a page from bytes already in memory exactly as from the file (ReadLines.pageOf)", () => {
    const samples = fc.sample(fc.tuple(content, options), { numRuns: 400, seed: 20_261_202 })
    for (const [bytes, request] of samples)
      expect({ bytes: bytes.toString("utf8"), request, page: ReadLines.pageOf(bytes, { ...request, format }) }).toEqual({
        bytes: bytes.toString("utf8"),
        request,
        page: reference(bytes, request),
      })
  })

  it.live("stops scanning when its signal is aborted (interruption)", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "long.txt")
      yield* Effect.promise(() => writeFile(file, "line\n".repeat(100_000)))
      const outcome = yield* Effect.promise(async () => {
        const handle = await open(file, "r")
        const request = { offset: 90_000, limit: 1, maxBytes: 100, sniffBytes: 0, keptLineBytes: 8, chunkBytes: 64, format, signal: AbortSignal.abort() }
        return ReadLines.page(handle, request).then(
          () => "finished",
          (error: Error) => error.name,
        ).finally(() => handle.close())
      })
      expect(outcome).toBe("AbortError")
    }))
})

const withTool = <A, E>(body: (tool: Effect.Success<typeof ReadTool.make>, work: string) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(ReadTool.make, (tool) => body(tool, harness.work) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root)))
  })

describe("ReadTool across chunk boundaries", () => {
  it.live("keeps a CRLF and a multi-byte character split by a chunk boundary whole", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const filler = "f".repeat(ReadLines.CHUNK_BYTES - 1)
      const text = `${filler}\r\né😀\r\n${"g".repeat(ReadLines.CHUNK_BYTES - 3)}😀x\n`
      yield* Effect.promise(() => writeFile(path.join(work, "edge.txt"), text))
      const { result } = yield* settle(tool, { path: "edge.txt", offset: 2 })
      expect(textOf(result)).toBe(
        [
          ReadTool.Messages.fileHeader("edge.txt", 2, 3),
          "2: é😀",
          `3: ${"g".repeat(ReadTool.MAX_LINE_LENGTH)}${ReadTool.Messages.lineTruncated}`,
        ].join("\n"),
      )
    })))

  it.live("scans past a line of several chunks, keeping only what it shows, and finds a NUL late in it", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const huge = "h".repeat(3 * ReadLines.CHUNK_BYTES)
      yield* Effect.promise(() => writeFile(path.join(work, "huge.txt"), `first\n${huge}\nlast\n`))
      yield* Effect.promise(() => writeFile(path.join(work, "late-nul.txt"), `first\n${huge}\0\nlast\n`))
      const { result } = yield* settle(tool, { path: "huge.txt" })
      expect(textOf(result)).toBe(
        [ReadTool.Messages.fileHeader("huge.txt", 1, 3), "1: first", `2: ${"h".repeat(ReadTool.MAX_LINE_LENGTH)}${ReadTool.Messages.lineTruncated}`, "3: last"].join("\n"),
      )
      expect(textOf((yield* settle(tool, { path: "huge.txt", offset: 3 })).result)).toBe(`${ReadTool.Messages.fileHeader("huge.txt", 3, 3)}\n3: last`)
      expect(textOf((yield* settle(tool, { path: "late-nul.txt", limit: 1 })).result)).toBe(`${ReadTool.Messages.fileHeader("late-nul.txt", 1, 1)}\n1: first\n${ReadTool.Messages.more(2)}`)
      expect(textOf((yield* settle(tool, { path: "late-nul.txt" })).result)).toBe(ReadTool.Messages.binary("late-nul.txt"))
    })))

  it.live("reads a file the same in one pass (up to ReadFile.SMALL_FILE_BYTES) as streamed (over it)", () =>
    withTool((tool, work) => Effect.gen(function* () {
      // Two files whose first 2 000 lines are the same: one just fits in one pass, one does not.
      const lines = Array.from({ length: 2_100 }, (_, index) => `line ${index} é\r`).join("\n")
      const small = `${lines}\n${"s".repeat(ReadFile.SMALL_FILE_BYTES - Buffer.byteLength(lines) - 2)}\n`
      const large = `${lines}\n${"s".repeat(ReadFile.SMALL_FILE_BYTES - Buffer.byteLength(lines) + 10)}\n`
      yield* Effect.promise(() => writeFile(path.join(work, "one-pass.txt"), small))
      yield* Effect.promise(() => writeFile(path.join(work, "streamed.txt"), large))
      expect(Buffer.byteLength(small)).toBeLessThanOrEqual(ReadFile.SMALL_FILE_BYTES)
      expect(Buffer.byteLength(large)).toBeGreaterThan(ReadFile.SMALL_FILE_BYTES)
      for (const request of [{}, { offset: 1_990, limit: 20 }, { offset: 2_101 }]) {
        const onePass = textOf((yield* settle(tool, { path: "one-pass.txt", ...request })).result)
        const streamed = textOf((yield* settle(tool, { path: "streamed.txt", ...request })).result)
        expect(onePass.replaceAll("one-pass.txt", "F")).toBe(streamed.replaceAll("streamed.txt", "F"))
      }
    })))

  it.live("reads a file whose size says empty to its end (a /proc file) by streaming it", () =>
    withTool((tool) => Effect.gen(function* () {
      const { result } = yield* settle(tool, { path: "/proc/self/status", limit: 1 })
      expect(textOf(result)).toMatch(/^1: Name:\t/m)
    })))
})
