/**
 * Codex's apply_patch scenarios (test/fixture/codex-apply-patch): copy `input/` into the
 * Location, apply `patch.txt`, and compare the whole tree (files byte for byte, and the set of
 * folders, `.git` excluded) with `expected/`. 015 expects the unchanged input: all or nothing.
 */
import { existsSync, readdirSync } from "node:fs"
import { cp, readFile, readdir } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import { harnessLayer, makeHarness, settle } from "../../lib/file-tools.js"

const SCENARIOS = fileURLToPath(new URL("../../fixture/codex-apply-patch/scenarios", import.meta.url))
/** The one scenario where this tool's all-or-nothing rule differs from Codex. */
const ALL_OR_NOTHING = "015_"

interface Tree {
  readonly files: Readonly<Record<string, string>>
  readonly folders: ReadonlyArray<string>
}

/** Every file (as base64) and folder under `root`, `.git` at the top excluded; empty when absent. */
const treeOf = async (root: string): Promise<Tree> => {
  const files: Record<string, string> = {}
  const folders: string[] = []
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(path.join(root, folder), { withFileTypes: true })) {
      const relative = folder === "" ? entry.name : `${folder}/${entry.name}`
      if (relative === ".git") continue
      if (entry.isDirectory()) {
        folders.push(relative)
        await walk(relative)
      } else files[relative] = (await readFile(path.join(root, relative))).toString("base64")
    }
  }
  if (existsSync(root)) await walk("")
  return { files, folders: folders.sort() }
}

const scenarios = readdirSync(SCENARIOS).sort()

describe("ApplyPatchTool conformance with Codex's scenarios", () => {
  it("has all 25 scenarios", () => {
    expect(scenarios.length).toBe(25)
  })

  for (const scenario of scenarios) {
    it.live(scenario, () =>
      Effect.gen(function* () {
        const folder = path.join(SCENARIOS, scenario)
        const harness = yield* makeHarness
        const input = path.join(folder, "input")
        if (existsSync(input)) yield* Effect.promise(() => cp(input, harness.work, { recursive: true }))
        const patchText = yield* Effect.promise(() => readFile(path.join(folder, "patch.txt"), "utf8"))
        yield* Effect.flatMap(ApplyPatchTool.make, (tool) => settle(tool, { patchText })).pipe(Effect.provide(harnessLayer(harness.root)))
        const expected = scenario.startsWith(ALL_OR_NOTHING) ? input : path.join(folder, "expected")
        expect(yield* Effect.promise(() => treeOf(harness.work))).toEqual(yield* Effect.promise(() => treeOf(expected)))
      }),
    )
  }
})
