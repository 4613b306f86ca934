import { mkdir, readFile, readdir, realpath, stat, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { Effect, Layer } from "effect"
import { Config } from "../src/config.js"
import { ToolOutputPath } from "../src/location/tool-output-path.js"
import { ToolOutputPreview } from "../src/tool-output-preview.js"
import { ToolOutputStore } from "../src/tool-output-store.js"
import type { Tool } from "../src/tool/tool.js"
import { tmpdir } from "./lib/tmp.js"

const PROJECT = "prj_test"
const SESSION = "ses_1"

const storeLayer = (directory: string, config: Partial<Config.Info> = {}) =>
  ToolOutputStore.layer({ directory, projectID: PROJECT }).pipe(Layer.provide(Config.layerOf(config)))

const withStore = <A, E>(body: (store: ToolOutputStore.Interface, dir: string) => Effect.Effect<A, E>, config: Partial<Config.Info> = {}) =>
  Effect.gen(function* () {
    const dir = path.join(yield* tmpdir, "tool-output")
    return yield* Effect.flatMap(ToolOutputStore.Service, (store) => body(store, dir)).pipe(Effect.provide(storeLayer(dir, config)))
  })

const text = (value: string): Tool.Content => ({ type: "text", text: value })
const result = (content: ReadonlyArray<Tool.Content>, structured: unknown = null): Tool.Settled => ({ content, structured, outputPaths: [] })
const bound = (store: ToolOutputStore.Interface, settled: Tool.Settled) => store.bound({ sessionID: SESSION, toolCallID: "call_1", result: settled })
const many = (count: number) => Array.from({ length: count }, (_, i) => `line ${i}`).join("\n")
const image: Tool.Content = { type: "file", mime: "image/png", data: Buffer.from("not really a png").toString("base64"), name: "a.png" }

describe("ToolOutputStore", () => {
  it.live("saves each session's output in a folder of its own that only the user can read", () =>
    withStore((store, dir) => Effect.gen(function* () {
      const mine = yield* store.write(SESSION, "mine")
      const theirs = yield* store.write("ses_2", "theirs")
      expect(path.dirname(theirs)).toBe(path.join(dir, PROJECT, ToolOutputPath.sessionKey("ses_2")))
      expect((yield* Effect.promise(() => stat(mine))).mode & 0o777).toBe(ToolOutputStore.FILE_MODE)
      expect((yield* Effect.promise(() => stat(path.dirname(mine)))).mode & 0o777).toBe(ToolOutputPath.FOLDER_MODE)
      expect([store.place(SESSION, mine), store.place(SESSION, theirs), store.place(SESSION, path.dirname(dir)), store.place(SESSION, "/etc/hosts")]).toEqual(["own", "other", "above", "outside"])
      expect([store.holds(mine), store.holds(dir), store.holds(path.dirname(dir))]).toEqual([true, true, false])
    })))

  it.live("places paths by their real form when the data directory is reached through a link", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* Effect.promise(async () => {
        await mkdir(path.join(root, "real"))
        await symlink(path.join(root, "real"), path.join(root, "link"))
      })
      const store = yield* Effect.provide(ToolOutputStore.Service, storeLayer(path.join(root, "link", "tool-output")))
      const file = yield* store.write(SESSION, "through a link")
      const real = yield* Effect.promise(() => realpath(file))
      expect(real.startsWith(path.join(root, "real"))).toBe(true)
      expect([store.place(SESSION, real), store.place("ses_2", real), store.holds(real)]).toEqual(["own", "other", true])
    }))

  it.live("returns output within both limits unchanged, without writing anything", () =>
    withStore((store, dir) => Effect.gen(function* () {
      const settled = result([text(many(ToolOutputStore.MAX_LINES))])
      expect(yield* bound(store, settled)).toBe(settled)
      expect(yield* Effect.promise(() => readdir(dir).catch(() => []))).toEqual([])
    })))

  it.live("saves the full text and gives the model a preview with its path", () =>
    withStore((store, dir) => Effect.gen(function* () {
      const full = many(ToolOutputStore.MAX_LINES + 1)
      const bounded = yield* bound(store, result([text(full), image]))
      const [file] = bounded.outputPaths
      expect(path.dirname(file as string)).toBe(path.join(dir, PROJECT, ToolOutputPath.sessionKey(SESSION)))
      expect(store.folder(SESSION)).toBe(path.dirname(file as string))
      expect(path.basename(file as string)).toMatch(/^tool_/)
      expect(yield* Effect.promise(() => readFile(file as string, "utf8"))).toBe(full)
      expect(bounded.content).toEqual([text(ToolOutputPreview.preview(full, file as string, store.limits)), image])
    })))

  it.live("previews a tail-preview result by its last lines, with the shell marker", () =>
    withStore((store) => Effect.gen(function* () {
      const full = many(ToolOutputStore.MAX_LINES + 1)
      const bounded = yield* bound(store, { ...result([text(full)]), preview: "tail" })
      const [file] = bounded.outputPaths
      expect(bounded.content).toEqual([text(ToolOutputPreview.tailPreview(full, file as string, store.limits))])
      expect((bounded.content[0] as { text: string }).text.endsWith(`line ${ToolOutputStore.MAX_LINES}\n\n${ToolOutputPreview.Messages.shellMarker(file as string)}`)).toBe(true)
    })))

  it.live("points at output a tool already saved instead of writing a copy", () =>
    withStore((store, dir) => Effect.gen(function* () {
      const full = many(ToolOutputStore.MAX_LINES + 1)
      const spool = path.join(path.dirname(dir), "shell_1")
      const bounded = yield* bound(store, { ...result([text(full)]), preview: "tail", saved: spool })
      expect(bounded.outputPaths).toEqual([spool])
      expect(bounded.content).toEqual([text(ToolOutputPreview.tailPreview(full, spool, store.limits))])
      // Saved elsewhere means what the model got is not all of it: the marker even when it fits.
      const short = yield* bound(store, { ...result([text("the last lines")]), preview: "tail", saved: spool })
      expect(short.content).toEqual([text(`the last lines\n\n${ToolOutputPreview.Messages.shellMarker(spool)}`)])
      expect(yield* Effect.promise(() => readdir(dir).catch(() => []))).toEqual([])
    })))

  it.live("joins several text parts with a line break before measuring and saving", () =>
    withStore((store) => Effect.gen(function* () {
      const bounded = yield* bound(store, result([text("a".repeat(30_000)), text("b".repeat(30_000))]))
      expect(yield* Effect.promise(() => readFile(bounded.outputPaths[0] as string, "utf8"))).toBe(`${"a".repeat(30_000)}\n${"b".repeat(30_000)}`)
    })))

  it.live("measures the structured output as pretty JSON when there is no text", () =>
    withStore((store) => Effect.gen(function* () {
      const structured = { items: Array.from({ length: 3_000 }, (_, i) => i) }
      const bounded = yield* bound(store, result([image], structured))
      const saved = yield* Effect.promise(() => readFile(bounded.outputPaths[0] as string, "utf8"))
      expect(saved).toBe(JSON.stringify(structured, null, 2))
      expect(bounded.content[1]).toEqual(image)
    })))

  it.live("honours the configured limits", () =>
    withStore((store) => Effect.gen(function* () {
      expect(store.limits).toEqual({ maxLines: 10, maxBytes: 1_000 })
      expect((yield* bound(store, result([text(many(10))]))).outputPaths).toEqual([])
      expect((yield* bound(store, result([text(many(11))]))).outputPaths).toHaveLength(1)
    }), { tool_output: { max_lines: 10, max_bytes: 1_000 } }))

  it.live("fails instead of returning a lossy success when the directory is a regular file", () =>
    Effect.gen(function* () {
      const dir = path.join(yield* tmpdir, "tool-output")
      yield* Effect.promise(() => writeFile(dir, "in the way"))
      const error = yield* Effect.flatMap(ToolOutputStore.Service, (store) => bound(store, result([text(many(5_000))]))).pipe(
        Effect.provide(storeLayer(dir)),
        Effect.flip,
      )
      expect(error).toBeInstanceOf(ToolOutputStore.StorageError)
      const storage = error as ToolOutputStore.StorageError
      expect(path.dirname(storage.path)).toBe(path.join(dir, PROJECT, ToolOutputPath.sessionKey(SESSION)))
      expect(["EEXIST", "ENOTDIR"]).toContain(storage.detail)
      expect(error.message).toBe(ToolOutputStore.Messages.storage(storage.path, storage.detail))
    }))

  it.live("refuses text that cannot be written as UTF-8 without loss", () =>
    withStore((store) => Effect.gen(function* () {
      const error = yield* bound(store, result([text(`${many(3_000)}\ud800`)])).pipe(Effect.flip)
      expect(error.message).toBe(ToolOutputStore.Messages.storage((error as ToolOutputStore.StorageError).path, ToolOutputStore.Messages.notEncodable))
    })))

  it.live("fails with StorageError when structured output cannot be written as JSON", () =>
    withStore((store, dir) => Effect.gen(function* () {
      const cyclic: Record<string, unknown> = {}
      cyclic.self = cyclic
      const error = yield* bound(store, result([image], cyclic)).pipe(Effect.flip)
      expect(error).toBeInstanceOf(ToolOutputStore.StorageError)
      expect(error.message.startsWith(ToolOutputStore.Messages.storage(dir, `${ToolOutputStore.Messages.notSerialisable}: `))).toBe(true)
    })))

  it.live("caps a media part at MAX_INLINE_MEDIA_BYTES and never measures media", () =>
    withStore((store) => Effect.gen(function* () {
      const fits: Tool.Content = { type: "file", mime: "image/png", data: Buffer.alloc(ToolOutputStore.MAX_INLINE_MEDIA_BYTES).toString("base64") }
      expect((yield* bound(store, result([text("ok"), fits]))).outputPaths).toEqual([])
      const big: Tool.Content = { type: "file", mime: "image/png", data: Buffer.alloc(ToolOutputStore.MAX_INLINE_MEDIA_BYTES + 1).toString("base64") }
      const error = yield* bound(store, result([text("ok"), big])).pipe(Effect.flip)
      expect(error).toEqual(new ToolOutputStore.MediaLimitError({ mime: "image/png", bytes: ToolOutputStore.MAX_INLINE_MEDIA_BYTES + 1, limit: ToolOutputStore.MAX_INLINE_MEDIA_BYTES }))
      expect(error.message).toBe(ToolOutputStore.Messages.mediaLimit("image/png", ToolOutputStore.MAX_INLINE_MEDIA_BYTES + 1, ToolOutputStore.MAX_INLINE_MEDIA_BYTES))
    })))

  it.live("for random text and limits the preview fits and the saved file is byte-identical", () =>
    withStore((_, dir) => Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.string({ unit: "grapheme", maxLength: 2_000 }),
          fc.integer({ min: 1, max: 60 }),
          fc.integer({ min: 1, max: 600 }),
          async (input, maxLines, maxBytes) => {
            const layer = storeLayer(dir, { tool_output: { max_lines: maxLines, max_bytes: maxBytes } })
            const bounded = await Effect.runPromise(Effect.flatMap(ToolOutputStore.Service, (store) => bound(store, result([text(input)]))).pipe(Effect.provide(layer)))
            const [preview] = bounded.content
            const shown = preview?.type === "text" ? preview.text : ""
            expect(ToolOutputPreview.byteLength(shown)).toBeLessThanOrEqual(maxBytes)
            expect(ToolOutputPreview.lineCount(shown)).toBeLessThanOrEqual(maxLines)
            const [file] = bounded.outputPaths
            if (file === undefined) expect(shown).toBe(input)
            else expect((await readFile(file)).equals(Buffer.from(input, "utf8"))).toBe(true)
          },
        ),
        { numRuns: 150 },
      ),
    )))
})
