import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../src/cli/exit-code.js"
import { ToolsCommand } from "../../src/cli/command/tools.js"
import { ApplyPatchTool } from "../../src/tool/builtin/apply-patch.js"
import { BashTool } from "../../src/tool/builtin/bash.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { GlobTool } from "../../src/tool/builtin/glob.js"
import { GrepTool } from "../../src/tool/builtin/grep.js"
import { QuestionTool } from "../../src/tool/builtin/question.js"
import { ReadTool } from "../../src/tool/builtin/read.js"
import { TodoWriteTool } from "../../src/tool/builtin/todowrite.js"
import { WebFetchTool } from "../../src/tool/builtin/webfetch.js"
import { WriteTool } from "../../src/tool/builtin/write.js"
import { Tool } from "../../src/tool/tool.js"
import { makeEcho } from "../lib/echo.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

describe("toolgate tools", () => {
  it.live("says so when the catalog is empty (an agent denied every tool)", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const config = path.join(root, ".config", "toolgate", "toolgate.json")
      yield* promise(() => mkdir(path.dirname(config), { recursive: true }))
      yield* promise(() => writeFile(config, JSON.stringify({ agent: { review: { permission: [{ action: "*", resource: "*", effect: "deny" }] } } })))
      expect(yield* promise(() => runCli(["tools", "--agent", "review"], { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: `${ToolsCommand.Messages.empty("review")}\n`, stderr: "" })
      expect(yield* promise(() => runCli(["tools", "--json", "--agent", "review"], { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: "[]\n", stderr: "" })
    }))

  it.live("lists names with the first line of their description, or full definitions with --json", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const tools = { zeta: makeEcho(), alpha: makeEcho() }
      const listed = yield* promise(() => runCli(["tools"], { root, tools }))
      const first = (description: string) => description.split("\n")[0]
      expect(listed.stdout).toBe(
        [
          "alpha: Echo the text back.",
          `apply_patch: ${first(ApplyPatchTool.DESCRIPTION)}`,
          `bash: ${first(BashTool.DESCRIPTION)}`,
          `edit: ${first(EditTool.DESCRIPTION)}`,
          `glob: ${first(GlobTool.DESCRIPTION)}`,
          `grep: ${first(GrepTool.DESCRIPTION)}`,
          `question: ${first(QuestionTool.DESCRIPTION)}`,
          `read: ${first(ReadTool.DESCRIPTION)}`,
          `todowrite: ${first(TodoWriteTool.DESCRIPTION)}`,
          `webfetch: ${first(WebFetchTool.DESCRIPTION)}`,
          `write: ${first(WriteTool.DESCRIPTION)}`,
          "zeta: Echo the text back.",
          "",
        ].join("\n"),
      )
      const json = yield* promise(() => runCli(["tools", "--json"], { root, tools }))
      const definitions = JSON.parse(json.stdout) as Tool.Definition[]
      expect(definitions.map((definition) => definition.name)).toEqual(["alpha", "apply_patch", "bash", "edit", "glob", "grep", "question", "read", "todowrite", "webfetch", "write", "zeta"])
      expect(definitions[0]).toEqual(Tool.definition("alpha", tools.alpha))
      const gpt = yield* promise(() => runCli(["tools", "--model", "openai/gpt-5"], { root, tools }))
      expect(gpt.stdout.split("\n").map((line) => line.split(":")[0])).toEqual(["alpha", "apply_patch", "bash", "glob", "grep", "question", "read", "todowrite", "webfetch", "zeta", ""])
    }))
})

describe("ExitCode", () => {
  it("is one enum: 0 success, 1 tool failed, 2 usage, 3 blocked, 4 declined", () => {
    expect([ExitCode.SUCCESS, ExitCode.TOOL_FAILED, ExitCode.USAGE, ExitCode.BLOCKED, ExitCode.DECLINED]).toEqual([0, 1, 2, 3, 4])
  })

  it("maps a configured deny to 3, a person's decline or dismissal to 4, anything else to 1", () => {
    expect(ExitCode.forError({ _tag: "Permission.BlockedError" })).toBe(ExitCode.BLOCKED)
    expect(ExitCode.forError({ _tag: "Permission.DeclinedError" })).toBe(ExitCode.DECLINED)
    expect(ExitCode.forError({ _tag: "Question.DismissedError" })).toBe(ExitCode.DECLINED)
    expect(ExitCode.forError(new Tool.Failure({ message: "x" }))).toBe(ExitCode.TOOL_FAILED)
  })
})
