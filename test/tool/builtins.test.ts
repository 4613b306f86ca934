/**
 * The model-facing catalog of every built-in tool, snapshotted through the real runtime and CLI:
 * all twelve without a model, and what a default model and a gpt-5 model see (apply_patch
 * instead of edit and write). Any change of model-facing copy or schema shows up in review.
 */
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ToolJsonSchema } from "../../src/tool/json-schema.js"
import type { Tool } from "../../src/tool/tool.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const BUILTINS = ["apply_patch", "bash", "edit", "glob", "grep", "question", "read", "skill", "todowrite", "webfetch", "websearch", "write"]

describe("Built-in tool catalog", () => {
  it.live("lists all twelve built-ins, every input field described, and matches the reviewed snapshot", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const work = path.join(root, "work")
      // One skill, so that `skill` is offered; a search key, so that `websearch` is.
      yield* promise(async () => {
        await mkdir(path.join(work, ".agents", "skills", "release"), { recursive: true })
        await writeFile(path.join(work, ".agents", "skills", "release", "SKILL.md"), "---\nname: release\ndescription: Cut a release\n---\nSteps.\n")
      })
      const catalog = (...flags: ReadonlyArray<string>) =>
        promise(async () => {
          const listed = await runCli(["tools", "--json", "--dir", work, ...flags], { root, env: { EXA_API_KEY: "test-key" } })
          expect(listed.stderr).toBe("")
          return JSON.parse(listed.stdout) as Tool.Definition[]
        })
      const all = yield* catalog()
      expect(all.map((definition) => definition.name)).toEqual(BUILTINS)
      for (const definition of all) expect([definition.name, ToolJsonSchema.undescribed(definition.inputSchema)]).toEqual([definition.name, []])
      const sonnet = yield* catalog("--model", "anthropic/claude-sonnet-4")
      const gpt = yield* catalog("--model", "openai/gpt-5")
      expect(sonnet.map((definition) => definition.name)).toEqual(BUILTINS.filter((name) => name !== "apply_patch"))
      expect(gpt.map((definition) => definition.name)).toEqual(BUILTINS.filter((name) => name !== "edit" && name !== "write"))
      // The skill's folder differs per run; the snapshot keeps the rest of its description.
      const stable = (definitions: ReadonlyArray<Tool.Definition>) => definitions.map((definition) => ({ ...definition, description: definition.description.replaceAll(work, "<work>") }))
      expect({ default: stable(sonnet), "gpt-5": stable(gpt) }).toMatchSnapshot()
    }))
})
