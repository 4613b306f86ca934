/**
 * All or nothing: a patch of five files whose third fails while being applied leaves the tree
 * byte for byte (and mode for mode) as it was. The failure is forced from the permission answer,
 * after planning: a folder appears where the third file goes (the rename fails, also as root), or,
 * when not root, the third file's folder becomes read-only (its temp file cannot be created).
 */
import { chmod, lstat, mkdir, readFile, readdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import type { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const globalConfig = (body: unknown) => {
  const file = Config.ConfigValidate.file("/global/toolgate.json", "global", body)
  if (file instanceof Error) throw file
  return Config.merge([file])
}

const askEdits = globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })

const withTool = <A, E>(body: (tool: Tool.AnyTool, harness: { root: string; work: string }) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(ApplyPatchTool.make, (tool) => body(tool, harness) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root, askEdits)))
  })

/** Every entry under `root`: its kind, mode and (for files) bytes. */
const snapshot = async (root: string): Promise<Readonly<Record<string, string>>> => {
  const entries: Record<string, string> = {}
  const walk = async (folder: string): Promise<void> => {
    for (const name of (await readdir(folder)).sort()) {
      const full = path.join(folder, name)
      const info = await lstat(full)
      const mode = (info.mode & 0o7777).toString(8)
      entries[path.relative(root, full)] = info.isDirectory() ? `dir ${mode}` : `file ${mode} ${(await readFile(full)).toString("base64")}`
      if (info.isDirectory()) await walk(full)
    }
  }
  await walk(root)
  return entries
}

const FIVE_FILES = [
  "*** Begin Patch",
  "*** Update File: a.txt",
  "@@",
  "-alpha",
  "+ALPHA",
  "*** Add File: new/deep/b.txt",
  "+bravo",
  "*** Add File: c/third.txt",
  "+charlie",
  "*** Update File: d.txt",
  "*** Move to: e/moved.txt",
  "@@",
  "-delta",
  "+DELTA",
  "*** Delete File: f.txt",
  "*** End Patch",
].join("\n")

const setUp = (work: string) =>
  Effect.promise(async () => {
    await writeFile(path.join(work, "a.txt"), "alpha\r\nkeep\r\n")
    await chmod(path.join(work, "a.txt"), 0o640)
    await mkdir(path.join(work, "c"))
    await writeFile(path.join(work, "c", "other.txt"), "unrelated\n")
    await writeFile(path.join(work, "d.txt"), "delta\n")
    await chmod(path.join(work, "d.txt"), 0o755)
    await writeFile(path.join(work, "f.txt"), "foxtrot\n")
  })

describe("ApplyPatchTool transactions", () => {
  it.live("undoes the first two files when the third cannot be renamed into place", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* setUp(work)
        const before: { tree?: Readonly<Record<string, string>> } = {}
        const sabotage = () =>
          Effect.promise(async () => {
            await mkdir(path.join(work, "c", "third.txt"))
            before.tree = await snapshot(work)
            return "once" as const
          })
        const { result, asked } = yield* settle(tool, { patchText: FIVE_FILES }, sabotage)
        expect(asked.map((request) => request.action)).toEqual(["edit"])
        expect(textOf(result)).toBe("Could not apply the patch: changing c/third.txt failed (EISDIR). No files were changed.")
        expect(textOf(result).endsWith("No files were changed.")).toBe(true)
        expect(yield* Effect.promise(() => snapshot(work))).toEqual(before.tree)
      })))

  it.live.skipIf(process.getuid?.() === 0)("undoes everything when the third file's folder is read-only (skipped as root: root ignores folder permissions; the test above forces the failure another way)", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* setUp(work)
        const before: { tree?: Readonly<Record<string, string>> } = {}
        const sabotage = () =>
          Effect.promise(async () => {
            await chmod(path.join(work, "c"), 0o555)
            before.tree = await snapshot(work)
            return "once" as const
          })
        const { result } = yield* settle(tool, { patchText: FIVE_FILES }, sabotage)
        const after = yield* Effect.promise(() => snapshot(work))
        yield* Effect.promise(() => chmod(path.join(work, "c"), 0o755))
        expect(textOf(result)).toBe("Could not apply the patch: changing c/third.txt failed (EACCES). No files were changed.")
        expect(after).toEqual(before.tree)
      })))

  it.live("applies the same five files when nothing fails", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* setUp(work)
        const { result } = yield* settle(tool, { patchText: FIVE_FILES })
        expect(textOf(result).split("\n\n")[0]).toBe("Success. Updated the following files:\nA new/deep/b.txt\nA c/third.txt\nM a.txt\nM e/moved.txt\nD f.txt")
        const tree = yield* Effect.promise(() => snapshot(work))
        expect(Object.keys(tree).filter((name) => !name.startsWith(".git"))).toEqual(["a.txt", "c", "c/other.txt", "c/third.txt", "e", "e/moved.txt", "new", "new/deep", "new/deep/b.txt"])
        expect(tree["a.txt"]).toBe(`file 640 ${Buffer.from("ALPHA\r\nkeep\r\n").toString("base64")}`)
        expect(tree["e/moved.txt"]).toBe(`file 755 ${Buffer.from("DELTA\n").toString("base64")}`)
      })))
})
