import { readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BashOutputBuffer } from "../../../../src/tool/builtin/bash/output-buffer.js"
import { tmpdir } from "../../../lib/tmp.js"

const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const bytes = (text: string) => Buffer.from(text, "utf8")

describe("BashOutputBuffer", () => {
  it.live("keeps everything in memory up to the limit and writes no file", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_1")
      const sink = BashOutputBuffer.make({ spoolPath, limit: 10 })
      for (const chunk of ["01234", "", "56789"]) sink.write(bytes(chunk))
      expect(yield* sink.finish).toEqual({ text: "0123456789", bytes: 10, truncated: false })
      expect(yield* exists(spoolPath)).toBe(false)
    }))

  it.live("past the limit, spools every byte from the first and keeps the tail", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "missing", "folder", "shell_1")
      const sink = BashOutputBuffer.make({ spoolPath, limit: 10 })
      for (const chunk of ["0123", "4567", "89ab", "cdefghij", "k"]) sink.write(bytes(chunk))
      expect(yield* sink.finish).toEqual({ text: "bcdefghijk", bytes: 21, truncated: true, outputPath: spoolPath })
      expect(yield* Effect.promise(() => readFile(spoolPath, "utf8"))).toBe("0123456789abcdefghijk")
      expect((yield* Effect.promise(() => stat(spoolPath))).mode & 0o777).toBe(BashOutputBuffer.SPOOL_MODE)
    }))

  it.live("starts the tail on a character boundary", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const sink = BashOutputBuffer.make({ spoolPath: path.join(dir, "shell_1"), limit: 5 })
      // "é" is two bytes; the tail of five bytes would start with its second one.
      sink.write(bytes("abcé1234"))
      expect(yield* sink.finish).toMatchObject({ text: "1234", truncated: true })
    }))

  it.live("pauses the producer while the spool lags and releases it again", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const calls: Array<boolean> = []
      const sink = BashOutputBuffer.make({ spoolPath: path.join(dir, "shell_1"), limit: 1024, onPressure: (paused) => calls.push(paused) })
      const chunk = Buffer.alloc(64 * 1024, 0x61)
      const count = Math.ceil((2 * BashOutputBuffer.SPOOL_BACKLOG) / chunk.length)
      for (let i = 0; i < count; i++) sink.write(chunk)
      expect(calls).toEqual([true])
      const collected = yield* sink.finish
      expect(calls).toEqual([true, false])
      expect(collected.bytes).toBe(count * chunk.length)
      expect((yield* Effect.promise(() => stat(path.join(dir, "shell_1")))).size).toBe(count * chunk.length)
    }))

  it.live("a spool that cannot be created reports SpoolError and keeps the tail", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      yield* Effect.promise(() => writeFile(path.join(dir, "file"), ""))
      const spoolPath = path.join(dir, "file", "shell_1")
      const sink = BashOutputBuffer.make({ spoolPath, limit: 4 })
      sink.write(bytes("abcdef"))
      const collected = yield* sink.finish
      expect(collected).toMatchObject({ text: "cdef", bytes: 6, truncated: true })
      expect(collected.outputPath).toBeUndefined()
      expect(collected.spoolError).toBeInstanceOf(BashOutputBuffer.SpoolError)
      expect(collected.spoolError?.path).toBe(spoolPath)
      expect(collected.spoolError?.message).toBe(BashOutputBuffer.Messages.spool(spoolPath, collected.spoolError?.detail ?? ""))
    }))

  it.live("abort removes the spool file", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_1")
      const sink = BashOutputBuffer.make({ spoolPath, limit: 4 })
      sink.write(bytes("abcdef"))
      yield* sink.abort
      expect(yield* exists(spoolPath)).toBe(false)
    }))

  it.live("past the spool cap, stops spooling, removes the file, reports the cap and keeps the tail", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_1")
      const sink = BashOutputBuffer.make({ spoolPath, limit: 4, spoolCap: 10 })
      for (const chunk of ["abcdef", "ghij"]) sink.write(bytes(chunk))
      // Ten bytes fit the cap: the write queue ends with a complete file.
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
      expect(yield* Effect.promise(() => readFile(spoolPath, "utf8"))).toBe("abcdefghij")
      sink.write(bytes("k"))
      const collected = yield* sink.finish
      expect(collected).toMatchObject({ text: "hijk", bytes: 11, truncated: true })
      expect(collected.outputPath).toBeUndefined()
      expect(collected.spoolError).toBeInstanceOf(BashOutputBuffer.SpoolError)
      expect(collected.spoolError?.detail).toBe(BashOutputBuffer.Messages.capped(10))
      expect(collected.spoolError?.message).toBe(`Could not save the full command output to ${spoolPath}: the output is larger than the 10-byte limit`)
      expect(yield* exists(spoolPath)).toBe(false)
    }))

  it.live("an output of exactly the spool cap is saved", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_1")
      const sink = BashOutputBuffer.make({ spoolPath, limit: 4, spoolCap: 10 })
      for (const chunk of ["abcdef", "ghij"]) sink.write(bytes(chunk))
      expect(yield* sink.finish).toEqual({ text: "ghij", bytes: 10, truncated: true, outputPath: spoolPath })
      expect(yield* Effect.promise(() => readFile(spoolPath, "utf8"))).toBe("abcdefghij")
    }))

  it.live("an output past the cap on the first spooled chunk writes no file", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_1")
      const sink = BashOutputBuffer.make({ spoolPath, limit: 4, spoolCap: 5 })
      sink.write(bytes("abcdef"))
      sink.write(bytes("g"))
      const collected = yield* sink.finish
      expect(collected).toMatchObject({ text: "defg", bytes: 7, truncated: true })
      expect(collected.spoolError?.detail).toBe(BashOutputBuffer.Messages.capped(5))
      expect(yield* exists(spoolPath)).toBe(false)
    }))

  it("caps the spool file at 1 GiB by default", () => expect(BashOutputBuffer.SPOOL_CAP).toBe(1024 ** 3))

  it("characterStart skips at most three continuation bytes", () => {
    expect(BashOutputBuffer.characterStart(Buffer.from([0x41]))).toBe(0)
    expect(BashOutputBuffer.characterStart(Buffer.from([0x80, 0x41]))).toBe(1)
    expect(BashOutputBuffer.characterStart(Buffer.from([0x80, 0x80, 0x80, 0x41]))).toBe(3)
    expect(BashOutputBuffer.characterStart(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x41]))).toBe(0)
    expect(BashOutputBuffer.characterStart(Buffer.alloc(0))).toBe(0)
  })
})
