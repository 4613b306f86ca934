/**
 * The model-facing definitions of every built-in tool, snapshotted, so any change of
 * model-facing copy or schema shows up in review.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApplyPatchTool } from "../../src/tool/builtin/apply-patch.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { ReadTool } from "../../src/tool/builtin/read.js"
import { WriteTool } from "../../src/tool/builtin/write.js"
import { ToolJsonSchema } from "../../src/tool/json-schema.js"
import { Tool } from "../../src/tool/tool.js"
import { harnessLayer, makeHarness } from "../lib/file-tools.js"

describe("Built-in tool definitions", () => {
  it.live("match the reviewed snapshot, and every input field is described", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      const tools = yield* Effect.all({ [ApplyPatchTool.name]: ApplyPatchTool.make, [EditTool.name]: EditTool.make, [ReadTool.name]: ReadTool.make, [WriteTool.name]: WriteTool.make }).pipe(Effect.provide(harnessLayer(harness.root)))
      const definitions = Object.entries(tools).map(([name, tool]) => Tool.definition(name, tool))
      for (const definition of definitions) {
        expect(ToolJsonSchema.undescribed(definition.inputSchema)).toEqual([])
        expect(Tool.validate(definition.name, (tools as Record<string, Tool.AnyTool>)[definition.name] as Tool.AnyTool)).toBeUndefined()
      }
      expect(definitions).toMatchSnapshot()
    }))
})
