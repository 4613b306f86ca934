/**
 * Issue 12, item 16: a file written in NFD (as macOS does) is edited and patched by NFC text,
 * and what did not change keeps the file's own bytes (canonical equivalence only, never NFKC).
 */
import { readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import { ApplyPatchSeek } from "../../../src/tool/builtin/apply-patch/seek.js"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import { EditMatch } from "../../../src/tool/builtin/edit/match.js"
import type { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const nfd = (text: string) => text.normalize("NFD")

const withTools = <A, E>(body: (tools: { readonly edit: Tool.AnyTool; readonly patch: Tool.AnyTool }, work: string) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.gen(function* () {
      const edit = yield* EditTool.make
      const patch = yield* ApplyPatchTool.make
      return yield* (body({ edit, patch }, harness.work) as Effect.Effect<A, E, never>)
    }).pipe(Effect.provide(harnessLayer(harness.root)))
  })

describe("canonical equivalence in edit and apply_patch", () => {
  it("edit finds NFC text in an NFD file at the file's own offsets, and nothing else is canonical", () => {
    const file = nfd("café au lait\nnaïve résumé\n")
    const found = EditMatch.find(file, "naïve résumé")
    expect(found?.tier).toBe("canonical")
    expect(found?.ranges.map((range) => file.slice(range.start, range.end))).toEqual([nfd("naïve résumé")])
    // Compatibility forms are not canonical: the ligature ﬁ is not "fi", ① is not "1".
    expect(EditMatch.find("ﬁle ①", "file 1")).toBeUndefined()
  })

  it("apply_patch's seek finds NFC lines in NFD ones, in its last pass", () => {
    expect(ApplyPatchSeek.PASSES.at(-1)).toBe("canonical")
    expect(ApplyPatchSeek.find(["x", nfd("résumé"), "y"], ["résumé"], 0, false)).toBe(1)
  })

  it.live("edit replaces NFC oldString in an NFD file and keeps every other byte as it was", () =>
    withTools(({ edit }, work) =>
      Effect.gen(function* () {
        const file = path.join(work, "notes.txt")
        yield* Effect.promise(() => writeFile(file, nfd("Zoë said:\nnaïve résumé\nEnd — café\n")))
        const { result } = yield* settle(edit, { path: "notes.txt", oldString: "naïve résumé", newString: "plain resume" })
        expect(textOf(result).split("\n")[0]).toBe(EditTool.Messages.edited("notes.txt", 1))
        expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe(`${nfd("Zoë said:\n")}plain resume\n${nfd("End — café\n")}`)
      }),
    ))

  it.live("apply_patch updates an NFD file from an NFC patch; its context lines keep the file's bytes", () =>
    withTools(({ patch }, work) =>
      Effect.gen(function* () {
        const file = path.join(work, "menu.txt")
        yield* Effect.promise(() => writeFile(file, nfd("crème brûlée\nsoupe à l'oignon\npâté\n")))
        const patchText = ["*** Begin Patch", "*** Update File: menu.txt", "@@", " crème brûlée", "-soupe à l'oignon", "+onion soup", " pâté", "*** End Patch"].join("\n")
        const { result } = yield* settle(patch, { patchText })
        expect(result._tag).toBe("Success")
        expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe(`${nfd("crème brûlée\n")}onion soup\n${nfd("pâté\n")}`)
      }),
    ))
})
