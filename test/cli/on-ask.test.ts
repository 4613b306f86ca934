import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApprovalsCommand } from "../../src/cli/command/approvals.js"
import { SessionCommand } from "../../src/cli/command/session.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Lookup } from "../../src/cli/lookup.js"
import { OnAsk } from "../../src/cli/on-ask.js"
import type { Approvals } from "../../src/permission/approvals.js"
import { Permission } from "../../src/permission/permission.js"
import { Session } from "../../src/session.js"
import { madeLine, promise, runCli } from "../lib/cli.js"
import { ASK_BASH, project, shell } from "../lib/shell-tool.js"

/** What the prompt shows for `bash <command>` before its question, under ASK_BASH in `dir`. */
const shown = (command: string, dir: string) =>
  [
    `Permission requested: bash ${command}`,
    `  Why: bash "*" ask (from ${path.join(dir, "toolgate.json")} permission[0])`,
    `  [s]ession would ${Permission.Messages.saveAllows("bash", `${command.split(" ")[0]} *`, "session")}`,
    `  [a]lways would ${Permission.Messages.saveAllows("bash", `${command.split(" ")[0]} *`, "project")}`,
  ].join("\n")

describe("OnAsk at a terminal", () => {
  it.live("offers once, session, always for the project and reject, saying what each always allows", () =>
    Effect.gen(function* () {
      expect(OnAsk.Messages.question).toBe("Allow? [o]nce, [s]ession, [a]lways (project), [r]eject: ")
      const { root, dir } = yield* project(ASK_BASH)
      const result = yield* promise(() => runCli(["call", "shell", '{"command":"git push"}', "--dir", dir], { root, extra: shell, tty: true, answers: ["o"] }))
      expect(result).toEqual({ code: ExitCode.SUCCESS, stdout: "ran git push\n", stderr: `${madeLine(result.stderr)}${shown("git push", dir)}\n${OnAsk.Messages.question}` })
      expect(shown("git push", dir).split("\n").slice(2)).toEqual([
        "  [s]ession would allow bash on anything matching git * for the rest of this session",
        "  [a]lways would always allow bash on anything matching git * in this project",
      ])
    }))

  it.live("asks again after an answer it does not recognise, instead of rejecting", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const result = yield* promise(() => runCli(["call", "shell", '{"command":"git push"}', "--dir", dir], { root, extra: shell, tty: true, answers: ["yes", "", "O"] }))
      expect(result.code).toBe(ExitCode.SUCCESS)
      expect(result.stderr).toBe(
        [
          madeLine(result.stderr),
          `${shown("git push", dir)}\n${OnAsk.Messages.question}`,
          `${OnAsk.Messages.unrecognised("yes")}\n${OnAsk.Messages.question}`,
          `${OnAsk.Messages.unrecognised("")}\n${OnAsk.Messages.question}`,
        ].join(""),
      )
      expect(OnAsk.Messages.unrecognised("yes")).toBe('Not an answer: "yes". Type o for once, s for this session, a for always in this project, or r to reject.')
      // The end of input is still a reject, even after an answer it did not recognise.
      const ended = yield* promise(() => runCli(["call", "shell", '{"command":"make"}', "--dir", dir], { root, extra: shell, tty: true, answers: ["maybe"] }))
      expect(ended.code).toBe(ExitCode.DECLINED)
    }))

  it.live("keeps [s]ession approvals to the session, lists them with their scope, and drops them when the session ends", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const call = (command: string, options: { readonly session?: string; readonly answers?: string[] } = {}) =>
        promise(() =>
          runCli(["call", "shell", JSON.stringify({ command }), "--dir", dir, ...(options.session === undefined ? [] : ["--session", options.session])], {
            root,
            extra: shell,
            ...(options.answers === undefined ? {} : { tty: true, answers: options.answers }),
          }),
        )
      expect((yield* call("git status", { session: "ses_cli", answers: ["s"] })).stdout).toBe("ran git status\n")
      // The same session asks no more; any other session still asks (and without a terminal, rejects).
      expect(yield* call("git log", { session: "ses_cli" })).toEqual({ code: ExitCode.SUCCESS, stdout: "ran git log\n", stderr: "" })
      expect((yield* call("git log")).code).toBe(ExitCode.DECLINED)
      const listed = yield* promise(() => runCli(["approvals", "list", "--dir", dir, "--json"], { root }))
      const [approval] = JSON.parse(listed.stdout) as [Approvals.Approval]
      expect(approval).toMatchObject({ scope: "session", sessionID: "ses_cli", action: "bash", resource: "git *" })
      expect((yield* promise(() => runCli(["approvals", "list", "--dir", dir], { root }))).stdout).toBe(`${ApprovalsCommand.Messages.line(approval)}\n`)
      expect(ApprovalsCommand.Messages.line(approval)).toBe(`${approval.id}  session ses_cli  bash  git *  ${new Date(approval.createdAt).toISOString()}`)

      expect(yield* promise(() => runCli(["session", "end", "ses_cli", "--dir", dir], { root }))).toEqual({
        code: ExitCode.SUCCESS,
        stdout: `${SessionCommand.Messages.ended("ses_cli")}\n`,
        stderr: "",
      })
      expect((yield* promise(() => runCli(["approvals", "list", "--dir", dir], { root }))).stdout).toBe(`${ApprovalsCommand.Messages.none(dir)}\n`)
      expect(yield* call("git log", { session: "ses_cli" })).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Session.Messages.ended("ses_cli")}\n` })
      expect(yield* promise(() => runCli(["session", "end", "ses_nope", "--dir", dir], { root }))).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `${Lookup.Messages.unknown("session", "ses_nope", dir, [])}\n`,
      })
    }))

  it.live("saves [a]lways for the project, so a new session does not ask", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      expect((yield* promise(() => runCli(["call", "shell", '{"command":"npm test"}', "--dir", dir], { root, extra: shell, tty: true, answers: ["a"] }))).code).toBe(ExitCode.SUCCESS)
      const build = yield* promise(() => runCli(["call", "shell", '{"command":"npm run build"}', "--dir", dir], { root, extra: shell }))
      expect(build).toEqual({ code: ExitCode.SUCCESS, stdout: "ran npm run build\n", stderr: madeLine(build.stderr) })
      const listed = JSON.parse((yield* promise(() => runCli(["approvals", "list", "--dir", dir, "--json"], { root }))).stdout) as Approvals.Approval[]
      expect(listed.map(({ scope, resource }) => ({ scope, resource }))).toEqual([{ scope: "project", resource: "npm *" }])
    }))
})
