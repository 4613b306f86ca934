import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../src/cli/exit-code.js"
import { ToolsCommand } from "../../src/cli/command/tools.js"
import { Tool } from "../../src/tool/tool.js"
import { makeEcho } from "../lib/echo.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

describe("toolgate tools", () => {
  it.live("says so when the catalog is empty", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      expect(yield* promise(() => runCli(["tools"], { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: `${ToolsCommand.Messages.empty("build")}\n`, stderr: "" })
      expect(yield* promise(() => runCli(["tools", "--json", "--agent", "review"], { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: "[]\n", stderr: "" })
    }))

  it.live("lists names with the first line of their description, or full definitions with --json", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const tools = { zeta: makeEcho(), alpha: makeEcho() }
      const listed = yield* promise(() => runCli(["tools"], { root, tools }))
      expect(listed.stdout).toBe("alpha: Echo the text back.\nzeta: Echo the text back.\n")
      const json = yield* promise(() => runCli(["tools", "--json"], { root, tools }))
      expect(JSON.parse(json.stdout)).toEqual([Tool.definition("alpha", tools.alpha), Tool.definition("zeta", tools.zeta)])
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
