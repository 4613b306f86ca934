import { open, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ReadTool } from "../../../src/tool/builtin/read.js"
import { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const withTool = <A, E>(body: (tool: Effect.Success<typeof ReadTool.make>, work: string) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(ReadTool.make, (tool) => body(tool, harness.work) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root)))
  })

const put = (file: string, content: string | Buffer) => Effect.promise(() => writeFile(file, content))

/** The page text the model reads for `lines` shown from `first`, with the continue line when `next` is given. */
const page = (resource: string, first: number, lines: ReadonlyArray<string>, next?: number) =>
  [
    ReadTool.Messages.fileHeader(resource, first, first + lines.length - 1),
    ...lines.map((line, index) => ReadTool.Messages.line(first + index, line)),
    ...(next === undefined ? [] : [ReadTool.Messages.more(next)]),
  ].join("\n")

const numbered = (count: number, from = 1) => Array.from({ length: count }, (_, index) => `line ${from + index}`)

describe("ReadTool text pages", () => {
  it.live("has a valid definition with every input field described", () =>
    withTool((tool) => Effect.sync(() => {
      expect(Tool.validate(ReadTool.name, tool)).toBeUndefined()
      const definition = Tool.definition(ReadTool.name, tool)
      expect(definition.description).toBe(ReadTool.DESCRIPTION)
      expect(definition.inputSchema).toMatchObject({ type: "object", required: ["path"] })
    })))

  it.live("shows a small file with numbered lines and structured output", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "a.txt"), "alpha\nbeta\ngamma\n")
      const { result, asked } = yield* settle(tool, { path: "a.txt" })
      const content = "Read file a.txt, lines 1-3\n1: alpha\n2: beta\n3: gamma"
      expect(textOf(result)).toBe(content)
      expect(content).toBe(page("a.txt", 1, ["alpha", "beta", "gamma"]))
      expect(result._tag === "Success" && result.success.structured).toEqual({ kind: "text", path: "a.txt", content })
      expect(asked).toEqual([])
    })))

  it.live("shows CRLF as LF and keeps a lone CR inside a line", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "crlf.txt"), "one\r\ntwo\r\nthree\rfour\r\n")
      const { result } = yield* settle(tool, { path: "crlf.txt" })
      expect(textOf(result)).toBe(page("crlf.txt", 1, ["one", "two", "three\rfour"]))
    })))

  it.live("ends the last line at a trailing newline without adding an empty one", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "with.txt"), "x\ny\n")
      yield* put(path.join(work, "without.txt"), "x\ny")
      yield* put(path.join(work, "blank.txt"), "x\n\n")
      expect(textOf((yield* settle(tool, { path: "with.txt" })).result)).toBe(page("with.txt", 1, ["x", "y"]))
      expect(textOf((yield* settle(tool, { path: "without.txt" })).result)).toBe(page("without.txt", 1, ["x", "y"]))
      expect(textOf((yield* settle(tool, { path: "blank.txt" })).result)).toBe("Read file blank.txt, lines 1-2\n1: x\n2: ")
    })))

  it.live("reads an empty file as 0 lines, and any later offset is out of range", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "empty.txt"), "")
      expect(textOf((yield* settle(tool, { path: "empty.txt" })).result)).toBe(ReadTool.Messages.emptyFile("empty.txt"))
      expect(ReadTool.Messages.emptyFile("empty.txt")).toBe("Read file empty.txt, 0 lines")
      expect(textOf((yield* settle(tool, { path: "empty.txt", offset: 2 })).result)).toBe(ReadTool.Messages.outOfRange(2, 0))
    })))

  it.live("treats offset 0 as 1", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "a.txt"), "alpha\nbeta\n")
      const zero = textOf((yield* settle(tool, { path: "a.txt", offset: 0 })).result)
      expect(zero).toBe(page("a.txt", 1, ["alpha", "beta"]))
      expect(zero).toBe(textOf((yield* settle(tool, { path: "a.txt", offset: 1 })).result))
    })))

  it.live("pages with offset and limit and says where to continue", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "ten.txt"), `${numbered(10).join("\n")}\n`)
      const first = yield* settle(tool, { path: "ten.txt", offset: 3, limit: 4 })
      const content = "Read file ten.txt, lines 3-6\n3: line 3\n4: line 4\n5: line 5\n6: line 6\n[Output truncated. Continue reading with offset: 7]"
      expect(textOf(first.result)).toBe(content)
      expect(first.result._tag === "Success" && first.result.success.structured).toEqual({ kind: "text", path: "ten.txt", content, next: 7 })
      expect(textOf((yield* settle(tool, { path: "ten.txt", offset: 7, limit: 4 })).result)).toBe(page("ten.txt", 7, numbered(4, 7)))
      expect(textOf((yield* settle(tool, { path: "ten.txt", offset: 10, limit: 1 })).result)).toBe(page("ten.txt", 10, ["line 10"]))
    })))

  it.live("caps a page at MAX_READ_LINES lines, whatever the limit", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const count = ReadTool.MAX_READ_LINES + 500
      yield* put(path.join(work, "long.txt"), numbered(count).join("\n"))
      const expected = page("long.txt", 1, numbered(ReadTool.MAX_READ_LINES), ReadTool.MAX_READ_LINES + 1)
      expect(textOf((yield* settle(tool, { path: "long.txt" })).result)).toBe(expected)
      expect(textOf((yield* settle(tool, { path: "long.txt", limit: count })).result)).toBe(expected)
      const rest = textOf((yield* settle(tool, { path: "long.txt", offset: ReadTool.MAX_READ_LINES + 1 })).result)
      expect(rest).toBe(page("long.txt", ReadTool.MAX_READ_LINES + 1, numbered(500, ReadTool.MAX_READ_LINES + 1)))
    })))

  it.live("says how many lines there are when the offset is past the end", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "ten.txt"), `${numbered(10).join("\n")}\n`)
      yield* put(path.join(work, "tail.txt"), numbered(10).join("\n"))
      expect(textOf((yield* settle(tool, { path: "ten.txt", offset: 11 })).result)).toBe("Offset 11 is out of range for this file (10 lines)")
      expect(textOf((yield* settle(tool, { path: "tail.txt", offset: 12 })).result)).toBe(ReadTool.Messages.outOfRange(12, 10))
    })))

  it.live("ends a page early when the next line would pass MAX_READ_BYTES bytes of UTF-8", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const text = "é".repeat(1_000) // 2 000 bytes of UTF-8 in 1 000 characters
      const lines = Array.from({ length: 100 }, () => text)
      yield* put(path.join(work, "wide.txt"), lines.join("\n"))
      const sizes = lines.map((line, index) => Buffer.byteLength(ReadTool.Messages.line(index + 1, line)) + 1)
      const fits = sizes.findIndex((_, index) => sizes.slice(0, index + 1).reduce((a, b) => a + b, 0) > ReadTool.MAX_READ_BYTES)
      expect(fits).toBe(25)
      const first = textOf((yield* settle(tool, { path: "wide.txt" })).result)
      expect(first).toBe(page("wide.txt", 1, lines.slice(0, fits), fits + 1))
      const second = textOf((yield* settle(tool, { path: "wide.txt", offset: fits + 1 })).result)
      expect(second.split("\n")[0]).toBe(ReadTool.Messages.fileHeader("wide.txt", fits + 1, 2 * fits))
    })))

  it.live("cuts a line longer than MAX_LINE_LENGTH characters", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const exact = "b".repeat(ReadTool.MAX_LINE_LENGTH)
      const emoji = "😀".repeat(3_000)
      yield* put(path.join(work, "lines.txt"), `${"a".repeat(5_000)}\n${exact}\n${emoji}\nend\n`)
      const { result } = yield* settle(tool, { path: "lines.txt" })
      expect(textOf(result)).toBe(
        [
          "Read file lines.txt, lines 1-4",
          `1: ${"a".repeat(2_000)}... (line truncated to 2000 chars)`,
          `2: ${exact}`,
          `3: ${"😀".repeat(ReadTool.MAX_LINE_LENGTH)}${ReadTool.Messages.lineTruncated}`,
          "4: end",
        ].join("\n"),
      )
    })))

  it.live("refuses a file with a NUL byte in its first 8 KiB, even past the page", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "bin.dat"), Buffer.concat([Buffer.from("text\nmore\n"), Buffer.from([0]), Buffer.from("\nrest\n")]))
      expect(textOf((yield* settle(tool, { path: "bin.dat" })).result)).toBe("Cannot read binary file: bin.dat")
      expect(textOf((yield* settle(tool, { path: "bin.dat", limit: 1 })).result)).toBe(ReadTool.Messages.binary("bin.dat"))
    })))

  it.live("refuses a page holding a NUL byte after the first 8 KiB, but not a page before it", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const lines = numbered(5_000)
      const text = [...lines.slice(0, 3_999), "bad\0line", ...lines.slice(4_000)].join("\n")
      expect(text.indexOf("\0")).toBeGreaterThan(ReadTool.BINARY_SNIFF_BYTES)
      yield* put(path.join(work, "late.txt"), text)
      expect(textOf((yield* settle(tool, { path: "late.txt", limit: 3 })).result)).toBe(page("late.txt", 1, numbered(3), 4))
      expect(textOf((yield* settle(tool, { path: "late.txt", offset: 3_990, limit: 20 })).result)).toBe(ReadTool.Messages.binary("late.txt"))
      expect(textOf((yield* settle(tool, { path: "late.txt", offset: 4_001, limit: 2 })).result)).toBe(page("late.txt", 4_001, numbered(2, 4_001), 4_003))
    })))

  it.live("streams a page deep inside a 50 MB file", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const count = 500_000
      const line = (n: number) => `line ${n} `.padEnd(99, "x")
      const file = path.join(work, "big.txt")
      yield* Effect.promise(async () => {
        const handle = await open(file, "w")
        for (let start = 1; start <= count; start += 50_000) {
          await handle.write(Array.from({ length: 50_000 }, (_, index) => `${line(start + index)}\n`).join(""))
        }
        await handle.close()
      })
      const deep = textOf((yield* settle(tool, { path: "big.txt", offset: 400_000, limit: 3 })).result)
      expect(deep).toBe(page("big.txt", 400_000, [line(400_000), line(400_001), line(400_002)], 400_003))
      const end = textOf((yield* settle(tool, { path: "big.txt", offset: count - 1 })).result)
      expect(end).toBe(page("big.txt", count - 1, [line(count - 1), line(count)]))
      expect(textOf((yield* settle(tool, { path: "big.txt", offset: count + 1 })).result)).toBe(ReadTool.Messages.outOfRange(count + 1, count))
    })))

  it.live("rejects a negative offset and a zero limit before reading", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "a.txt"), "alpha\n")
      const negative = textOf((yield* settle(tool, { path: "a.txt", offset: -1 })).result)
      const zero = textOf((yield* settle(tool, { path: "a.txt", limit: 0 })).result)
      expect(negative).toBe(Tool.Messages.invalidInput('Expected a value greater than or equal to 0\n  at ["offset"]'))
      expect(zero).toBe(Tool.Messages.invalidInput('Expected a value greater than or equal to 1\n  at ["limit"]'))
    })))
})

describe("ReadTool byte-order mark", () => {
  it.live("does not show a byte-order mark as part of line 1", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      yield* Effect.promise(() => writeFile(path.join(harness.work, "bom.txt"), "\uFEFFhello\nworld\n"))
      const { result } = yield* Effect.flatMap(ReadTool.make, (tool) => settle(tool, { path: "bom.txt" })).pipe(Effect.provide(harnessLayer(harness.root)))
      expect(textOf(result)).toBe("Read file bom.txt, lines 1-2\n1: hello\n2: world")
    }))
})
