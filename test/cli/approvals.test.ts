/**
 * `toolgate approvals clear`: at a terminal it asks first and clears only on y or yes; without
 * one it refuses unless --yes is given, so that no script clears the approvals by accident.
 */
import { realpath } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApprovalsCommand } from "../../src/cli/command/approvals.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { promise, runCli } from "../lib/cli.js"
import { ASK_BASH, project, shell } from "../lib/shell-tool.js"

/** A repository with two saved approvals, `git *` and `npm *`. */
const setup = Effect.gen(function* () {
  const made = yield* project(ASK_BASH)
  const root = yield* promise(() => realpath(made.root))
  const dir = path.join(root, "repo")
  const cli = (argv: ReadonlyArray<string>, options: { readonly tty?: boolean; readonly answers?: string[] } = {}) =>
    promise(() => runCli([...argv, "--dir", dir], { root, extra: shell, ...options }))
  for (const command of ["git status", "npm test"]) yield* cli(["call", "shell", JSON.stringify({ command }), "--on-ask", "always"])
  const count = Effect.map(cli(["approvals", "list", "--json"]), (listed) => (JSON.parse(listed.stdout) as ReadonlyArray<unknown>).length)
  return { dir, cli, count }
})

describe("toolgate approvals clear", () => {
  for (const answer of ["y", "yes", " YES "])
    it.live(`clears at a terminal when the answer is ${JSON.stringify(answer)}`, () =>
      Effect.gen(function* () {
        const { dir, cli, count } = yield* setup
        expect(yield* cli(["approvals", "clear"], { tty: true, answers: [answer] })).toEqual({
          code: ExitCode.SUCCESS,
          stdout: `${ApprovalsCommand.Messages.cleared(2, dir)}\n`,
          stderr: ApprovalsCommand.Messages.confirm(2, dir),
        })
        expect(yield* count).toBe(0)
      }))

  for (const answers of [["n"], [""], ["maybe"], []])
    it.live(`keeps them at a terminal when the answer is ${answers.length === 0 ? "the end of input" : JSON.stringify(answers[0])}`, () =>
      Effect.gen(function* () {
        const { dir, cli, count } = yield* setup
        expect(yield* cli(["approvals", "clear"], { tty: true, answers })).toEqual({
          code: ExitCode.DECLINED,
          stdout: `${ApprovalsCommand.Messages.kept(2, dir)}\n`,
          stderr: ApprovalsCommand.Messages.confirm(2, dir),
        })
        expect(yield* count).toBe(2)
      }))

  it.live("refuses without a terminal unless --yes is given, and --yes skips the question at a terminal", () =>
    Effect.gen(function* () {
      const { dir, cli, count } = yield* setup
      expect(yield* cli(["approvals", "clear"])).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${ApprovalsCommand.Messages.needsYes}\n` })
      expect(yield* count).toBe(2)
      expect(yield* cli(["approvals", "clear", "--yes"], { tty: true, answers: ["n"] })).toEqual({ code: ExitCode.SUCCESS, stdout: `${ApprovalsCommand.Messages.cleared(2, dir)}\n`, stderr: "" })
      expect(yield* cli(["approvals", "clear"], { tty: true })).toEqual({ code: ExitCode.SUCCESS, stdout: `${ApprovalsCommand.Messages.none(dir)}\n`, stderr: "" })
    }))

  it.live("takes --yes only with clear", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      for (const argv of [["approvals", "list", "--yes"], ["approvals", "revoke", "psv_x", "--yes"]])
        expect(yield* cli(argv)).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${ApprovalsCommand.Messages.usage}\n` })
    }))

  it("says what it asks and what it did in full", () => {
    expect(ApprovalsCommand.Messages.confirm(2, "/src/app")).toBe("Remove all 2 saved approvals of /src/app? [y/N] ")
    expect(ApprovalsCommand.Messages.confirm(1, "/src/app")).toBe("Remove all 1 saved approval of /src/app? [y/N] ")
    expect(ApprovalsCommand.Messages.kept(2, "/src/app")).toBe("Kept the 2 saved approvals of /src/app.")
    expect(ApprovalsCommand.Messages.needsYes).toBe(
      "toolgate approvals clear removes every saved approval of the project and there is no terminal to ask at: pass --yes to confirm.",
    )
  })
})
