import { randomBytes } from "node:crypto"
import { open, writeFile } from "node:fs/promises"
import net from "node:net"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import sharp from "sharp"
import { ReadTool } from "../../../src/tool/builtin/read.js"
import type { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const withTool = <A, E>(body: (tool: Effect.Success<typeof ReadTool.make>, work: string) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(ReadTool.make, (tool) => body(tool, harness.work) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root)))
  })

const put = (file: string, content: Buffer) => Effect.promise(() => writeFile(file, content))

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })

/** The single file part of a successful result. */
const filePart = (result: { readonly _tag: string; readonly success?: Tool.Settled }) => {
  const parts = result.success?.content.filter((part) => part.type === "file") ?? []
  expect(parts).toHaveLength(1)
  return parts[0] as Extract<Tool.Content, { type: "file" }>
}

const sizeOf = (data: string) => Effect.promise(() => sharp(Buffer.from(data, "base64")).metadata())

describe("ReadTool images and PDFs", () => {
  it.live("fits a large PNG inside 2000 × 2000 and sends it as a file part", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "wide.png"), yield* Effect.promise(() => solid(3_000, 1_000).png().toBuffer()))
      const { result } = yield* settle(tool, { path: "wide.png" })
      expect(textOf(result)).toBe("Image read successfully")
      const part = filePart(result)
      expect({ mime: part.mime, name: part.name }).toEqual({ mime: "image/png", name: "wide.png" })
      const meta = yield* sizeOf(part.data)
      expect({ format: meta.format, width: meta.width }).toEqual({ format: "png", width: ReadTool.MAX_IMAGE_DIMENSION })
      expect(meta.height).toBeLessThanOrEqual(ReadTool.MAX_IMAGE_DIMENSION)
      expect(result._tag === "Success" && result.success.structured).toEqual({ kind: "image", path: "wide.png", mime: "image/png", name: "wide.png", data: part.data })
    })))

  it.live("detects images by magic bytes, not by extension, and applies the EXIF orientation", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const jpeg = yield* Effect.promise(() => solid(300, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer())
      yield* put(path.join(work, "photo.txt"), jpeg)
      yield* put(path.join(work, "text.png"), Buffer.from("not an image\n"))
      const { result } = yield* settle(tool, { path: "photo.txt" })
      expect(textOf(result)).toBe(ReadTool.Messages.imageRead)
      const meta = yield* sizeOf(filePart(result).data)
      expect({ width: meta.width, height: meta.height }).toEqual({ width: 100, height: 300 })
      expect(textOf((yield* settle(tool, { path: "text.png" })).result)).toBe("Read file text.png, lines 1-1\n1: not an image")
    })))

  it.live("re-encodes as JPEG when the PNG's base64 is over MAX_IMAGE_BASE64_BYTES", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const side = 1_800
      const noise = yield* Effect.promise(() => sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer())
      expect(Math.ceil(noise.length / 3) * 4).toBeGreaterThan(ReadTool.MAX_IMAGE_BASE64_BYTES)
      yield* put(path.join(work, "noise.png"), noise)
      const { result } = yield* settle(tool, { path: "noise.png" })
      const part = filePart(result)
      expect(part.mime).toBe("image/jpeg")
      expect(part.data.length).toBeLessThanOrEqual(ReadTool.MAX_IMAGE_BASE64_BYTES)
      const meta = yield* sizeOf(part.data)
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "jpeg", width: side, height: side })
    })))

  it.live("answers an image with valid magic but garbage with a text that says the image was left out, not a failure", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* put(path.join(work, "broken.png"), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(512)]))
      const { result } = yield* settle(tool, { path: "broken.png" })
      expect(result._tag === "Success" && result.success.content).toEqual([{ type: "text", text: "Image could not be decoded: broken.png\nThe image was left out of this result." }])
      expect(ReadTool.Messages.imageLeftOut("broken.png")).toBe("Image could not be decoded: broken.png\nThe image was left out of this result.")
    })))

  it.live("keeps a JPEG that must be shrunk a JPEG, smaller than the PNG it used to become", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const side = 2_400
      const photo = yield* Effect.promise(() => sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).blur(2).jpeg({ quality: 90 }).toBuffer())
      yield* put(path.join(work, "photo.jpg"), photo)
      const part = filePart((yield* settle(tool, { path: "photo.jpg" })).result)
      expect(part.mime).toBe("image/jpeg")
      const meta = yield* sizeOf(part.data)
      expect({ format: meta.format, width: meta.width }).toEqual({ format: "jpeg", width: ReadTool.MAX_IMAGE_DIMENSION })
      const png = yield* Effect.promise(() => sharp(photo).resize({ width: ReadTool.MAX_IMAGE_DIMENSION }).png().toBuffer())
      expect(Buffer.from(part.data, "base64").length * 2).toBeLessThan(png.length)
    })))

  it.live("says a socket is not a file", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const socket = path.join(work, "s.sock")
      const server = net.createServer()
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => server.listen(socket, resolve))),
        () => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve()))),
      )
      expect(textOf((yield* settle(tool, { path: "s.sock" })).result)).toBe(ReadTool.Messages.notAFile("s.sock"))
    }).pipe(Effect.scoped)))

  it.live("sends a PDF as an application/pdf file part", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const bytes = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n")
      yield* put(path.join(work, "doc.pdf"), bytes)
      const { result } = yield* settle(tool, { path: "doc.pdf" })
      expect(result._tag === "Success" && result.success.content).toEqual([
        { type: "text", text: "PDF read successfully" },
        { type: "file", mime: "application/pdf", data: bytes.toString("base64"), name: "doc.pdf" },
      ])
      expect(result._tag === "Success" && result.success.structured).toEqual({
        kind: "pdf",
        path: "doc.pdf",
        mime: "application/pdf",
        name: "doc.pdf",
        data: bytes.toString("base64"),
      })
    })))

  it.live("refuses a PDF over MAX_MEDIA_BYTES", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const size = ReadTool.MAX_MEDIA_BYTES + 1
      yield* Effect.promise(async () => {
        const handle = await open(path.join(work, "huge.pdf"), "w")
        await handle.write("%PDF-1.7\n")
        await handle.truncate(size)
        await handle.close()
      })
      expect(textOf((yield* settle(tool, { path: "huge.pdf" })).result)).toBe(ReadTool.Messages.mediaTooLarge("huge.pdf", size))
    })))
})
