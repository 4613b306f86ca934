/**
 * The built-in tools of a Location, registered in its registry for the Location's lifetime.
 * `write`, `edit` and `apply_patch` are filtered in the catalog by the `edit` action, like every
 * tool that changes files; the catalog offers a model either `apply_patch` or `edit` + `write`. Each tool asks the permission gate itself; registering grants nothing.
 */
export * as Builtins from "./builtins.js"

import { Effect, Layer } from "effect"
import { ApplyPatchTool } from "./builtin/apply-patch.js"
import { BashTool } from "./builtin/bash.js"
import { EditTool } from "./builtin/edit.js"
import { GlobTool } from "./builtin/glob.js"
import { GrepTool } from "./builtin/grep.js"
import { QuestionTool } from "./builtin/question.js"
import { ReadTool } from "./builtin/read.js"
import { SkillTool } from "./builtin/skill.js"
import { TodoWriteTool } from "./builtin/todowrite.js"
import { WebFetchTool } from "./builtin/webfetch.js"
import { WebSearchTool } from "./builtin/websearch.js"
import { WriteTool } from "./builtin/write.js"
import { ToolRegistry } from "./registry.js"
import { Tool } from "./tool.js"

export const EDIT_ACTION = "edit"

/**
 * The permission action of every built-in, also of those a Location may leave unregistered
 * (`skill` without skills, `websearch` without a provider key): the audit knows them all.
 */
export const ACTIONS: ReadonlyArray<string> = [
  ReadTool.name,
  EDIT_ACTION,
  BashTool.name,
  GlobTool.name,
  GrepTool.name,
  QuestionTool.name,
  SkillTool.name,
  TodoWriteTool.name,
  WebFetchTool.name,
  WebSearchTool.name,
]

export const layer = Layer.effectDiscard(
  Effect.gen(function* () {
    const tools = yield* ToolRegistry.Tools
    yield* tools.register({
      [ReadTool.name]: yield* ReadTool.make,
      [WriteTool.name]: Tool.withPermission(yield* WriteTool.make, EDIT_ACTION),
      [EditTool.name]: Tool.withPermission(yield* EditTool.make, EDIT_ACTION),
      [ApplyPatchTool.name]: Tool.withPermission(yield* ApplyPatchTool.make, EDIT_ACTION),
      [BashTool.name]: yield* BashTool.make,
      [GlobTool.name]: yield* GlobTool.make,
      [GrepTool.name]: yield* GrepTool.make,
      [QuestionTool.name]: yield* QuestionTool.make,
      ...((yield* SkillTool.offered) ? { [SkillTool.name]: yield* SkillTool.make } : {}),
      [TodoWriteTool.name]: yield* TodoWriteTool.make,
      [WebFetchTool.name]: yield* WebFetchTool.make,
      ...(yield* WebSearchTool.registration),
    })
  }),
)
