/**
 * Names that name nothing (cli/lookup.ts): ids by a unique prefix, the one message form with
 * "did you mean", and the commands that now refuse an agent, tool, session or approval id that
 * does not exist instead of acting on nothing.
 */
import { realpath } from "node:fs/promises"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApprovalsCommand } from "../../src/cli/command/approvals.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Lookup } from "../../src/cli/lookup.js"
import type { Approvals } from "../../src/permission/approvals.js"
import { promise, runCli } from "../lib/cli.js"
import { ASK_BASH, project, shell } from "../lib/shell-tool.js"

const IDS = ["psv_0193a4c2b1f0", "psv_0193a4c2b1f1", "psv_0200", "psv_02001", "psv_0300ab"]

describe("Lookup.resolve", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly given: string; readonly expected: string | Lookup.Error }> = [
    { name: "an exact id, even one that starts another", given: "psv_0200", expected: "psv_0200" },
    { name: "a prefix only one id starts with", given: "psv_03", expected: "psv_0300ab" },
    { name: "a prefix several ids start with", given: "psv_01", expected: new Lookup.AmbiguousError({ kind: "approval", prefix: "psv_01", within: "/w", count: 2 }) },
    { name: "a name no id starts with", given: "psv_04", expected: new Lookup.UnknownError({ kind: "approval", name: "psv_04", within: "/w", known: IDS }) },
    { name: "the empty name", given: "", expected: new Lookup.UnknownError({ kind: "approval", name: "", within: "/w", known: IDS }) },
  ]
  for (const c of cases)
    it(`resolves ${c.name}`, () => {
      expect(Lookup.resolve("approval", c.given, "/w", IDS)).toEqual(c.expected)
    })
})

describe("Lookup.Messages", () => {
  it("says what is unknown, where, what is near, and what lists the names", () => {
    expect(Lookup.Messages.unknown("tool", "raed", "plan", ["read", "write"])).toBe('Unknown tool "raed" for agent plan. Did you mean read? Run toolgate tools --agent plan to list them.')
    expect(Lookup.Messages.unknown("agent", "biuld", "/src/app", ["build", "plan"])).toBe('Unknown agent "biuld" in /src/app. Did you mean build? Run toolgate config to list them.')
    expect(Lookup.Messages.unknown("session", "ses_x", "/src/app", [])).toBe('Unknown session "ses_x" in /src/app. Run toolgate session list to list them.')
    expect(Lookup.Messages.unknown("approval", "psv_0300a", "/src/app", IDS)).toBe('Unknown approval "psv_0300a" in /src/app. Did you mean psv_0300ab? Run toolgate approvals list to list them.')
    expect(Lookup.Messages.ambiguous("approval", "psv_01", "/src/app", 2)).toBe('Ambiguous approval "psv_01" in /src/app: 2 approvals start with it. Give more of the id.')
    expect(Lookup.Messages.unknown("tool", "a\u001b[2Jb", "build", [])).toBe('Unknown tool "a\\u001b[2Jb" for agent build. Run toolgate tools --agent build to list them.')
  })
})

/** A repository asking before every command, with the fake shell tool. */
const setup = Effect.gen(function* () {
  const made = yield* project(ASK_BASH)
  const root = yield* promise(() => realpath(made.root))
  const dir = `${root}/repo`
  const cli = (argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", dir], { root, extra: shell }))
  return { root, dir, cli }
})

describe("toolgate and names that name nothing", () => {
  it.live("refuses an --agent that does not exist in tools, call, permission eval and audit, suggesting the near one", () =>
    Effect.gen(function* () {
      const { dir, cli } = yield* setup
      const refused = { code: ExitCode.USAGE, stdout: "", stderr: `${Lookup.Messages.unknown("agent", "biuld", dir, ["build", "plan"])}\n` }
      expect(yield* cli(["tools", "--agent", "biuld"])).toEqual(refused)
      expect(yield* cli(["call", "shell", '{"command":"ls"}', "--agent", "biuld"])).toEqual(refused)
      expect(yield* cli(["permission", "eval", "bash", "ls", "--agent", "biuld"])).toEqual(refused)
      expect(yield* cli(["permission", "audit", "--agent", "biuld"])).toEqual(refused)
    }))

  it.live("refuses a tool the agent does not have before calling, suggesting the near one", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      expect(yield* cli(["call", "shel", '{"command":"ls"}', "--agent", "plan"])).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: 'Unknown tool "shel" for agent plan. Did you mean shell? Run toolgate tools --agent plan to list them.\n',
      })
    }))

  it.live("refuses a session the Location does not know in every session command", () =>
    Effect.gen(function* () {
      const { dir, cli } = yield* setup
      const refused = { code: ExitCode.USAGE, stdout: "", stderr: `${Lookup.Messages.unknown("session", "ses_nope", dir, [])}\n` }
      for (const argv of [["diff", "ses_nope"], ["revert", "ses_nope", "msg_1"], ["revert", "ses_nope", "msg_1", "--dry-run"], ["unrevert", "ses_nope"], ["end", "ses_nope"]])
        expect(yield* cli(["session", ...argv])).toEqual(refused)
    }))

  it.live("revokes an approval by a prefix only its id starts with", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      for (const command of ["git status", "npm test"]) yield* cli(["call", "shell", JSON.stringify({ command }), "--on-ask", "always"])
      const [first, second] = JSON.parse((yield* cli(["approvals", "list", "--json"])).stdout) as [Approvals.Approval, Approvals.Approval]
      const prefix = first.id.slice(0, [...first.id].findIndex((char, index) => char !== second.id[index]) + 1)
      expect(yield* cli(["approvals", "revoke", prefix])).toEqual({ code: ExitCode.SUCCESS, stdout: `${ApprovalsCommand.Messages.revoked(first)}\n`, stderr: "" })
      expect(JSON.parse((yield* cli(["approvals", "list", "--json"])).stdout)).toEqual([second])
    }))
})
