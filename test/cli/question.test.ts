import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AskView } from "../../src/cli/ask-view.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { OnAsk } from "../../src/cli/on-ask.js"
import { OnQuestion } from "../../src/cli/on-question.js"
import { Question } from "../../src/question.js"
import { QuestionTool } from "../../src/tool/builtin/question.js"
import { madeLine, promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"
import { DATABASE, FEATURES } from "../lib/questions.js"

const INPUT = JSON.stringify({ questions: [DATABASE, FEATURES] })

const call = (root: string, argv: ReadonlyArray<string>, options: { readonly tty?: boolean; readonly answers?: string[] } = {}) =>
  promise(() => runCli(["call", QuestionTool.name, INPUT, ...argv], { root, ...options }))

/** What the prompt shows for a question, up to and including the answer hint. */
const shown = (index: number, info: Question.Info) =>
  [OnQuestion.Messages.heading(index, 2, info), ...info.options.map((option, i) => OnQuestion.Messages.option(i + 1, option))].join("\n") +
  `\n${info.multiple === true ? OnQuestion.Messages.multiple : OnQuestion.Messages.single}`

describe("toolgate call question", () => {
  it.live("dismisses without a terminal by default and exits 4, never hanging", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const result = yield* call(root, [])
      expect(result).toEqual({ code: ExitCode.DECLINED, stdout: "", stderr: `${madeLine(result.stderr)}${Question.Messages.dismissed}\n` })
    }))

  for (const mode of ["reject", "deny", "once", "always"] satisfies ReadonlyArray<OnAsk.Mode>)
    it.live(`dismisses under --on-ask ${mode}, since a question has no automatic answer`, () =>
      Effect.gen(function* () {
        const root = yield* tmpdir
        const result = yield* call(root, ["--on-ask", mode, "--json"], { tty: true, answers: ["1", "1"] })
        expect(result.code).toBe(ExitCode.DECLINED)
        expect(JSON.parse(result.stdout)).toEqual({ content: [], structured: null, outputPaths: [], error: Question.Messages.dismissed, session: expect.stringMatching(/^ses_/) })
      }))

  it.live("prompts at a terminal with headers and numbered options, and takes numbers, labels and free text", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const result = yield* call(root, [], { tty: true, answers: ["sqlite", " 2, a dark mode ,export "] })
      expect(result).toEqual({
        code: ExitCode.SUCCESS,
        stdout: `${QuestionTool.format([DATABASE, FEATURES], [["SQLite"], ["Export", "a dark mode"]])}\n`,
        stderr: madeLine(result.stderr) + shown(0, DATABASE) + shown(1, FEATURES),
      })
      expect(shown(0, DATABASE)).toBe(
        [
          "Question 1 of 2 [Database]: Which database should the service use?",
          "  1. Postgres: Recommended: the team runs it already",
          "  2. SQLite: One file, no server",
          'Answer with a number, a label or your own words (empty skips; "!" dismisses; "! <message>" dismisses and tells the agent why): ',
        ].join("\n"),
      )
      const own = yield* call(root, [], { tty: true, answers: ["MySQL, or MariaDB", ""] })
      expect(own.stdout).toBe(
        `User has answered your questions: "Which database should the service use?"="MySQL, or MariaDB", "Which features ship first?"="Unanswered". You can now continue with the user's answers in mind.\n`,
      )
    }))

  it.live("dismisses with a message on '! <message>', so the call fails with it (exit 1) and the agent continues", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const result = yield* call(root, [], { tty: true, answers: ["1", "! ship nothing yet"] })
      expect(result).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${madeLine(result.stderr)}${shown(0, DATABASE)}${shown(1, FEATURES)}ship nothing yet\n` })
    }))

  it.live("stops with exit 4 on a bare '!' or at the end of input", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      for (const answers of [["!"], ["1"], []]) {
        const result = yield* call(root, [], { tty: true, answers })
        expect(result.code).toBe(ExitCode.DECLINED)
        expect(result.stderr.endsWith(`${Question.Messages.dismissed}\n`)).toBe(true)
      }
    }))

  it.live("asks the permission for question [*] first, through the usual on-ask prompt", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const dir = path.join(root, "repo")
      yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
      yield* promise(() => writeFile(path.join(dir, "toolgate.json"), JSON.stringify({ permission: [{ action: "question", resource: "*", effect: "ask" }] })))
      const result = yield* call(root, ["--dir", dir], { tty: true, answers: ["o", "1", "1,2"] })
      expect(result).toEqual({
        code: ExitCode.SUCCESS,
        stdout: `${QuestionTool.format([DATABASE, FEATURES], [["Postgres"], ["Search", "Export"]])}\n`,
        stderr: `${madeLine(result.stderr)}Permission requested: question *\n  Why: question "*" ask (from ${path.join(dir, "toolgate.json")} permission[0])\n${AskView.Messages.noSave}\n${OnAsk.Messages.question}${shown(0, DATABASE)}${shown(1, FEATURES)}`,
      })
      const declined = yield* call(root, ["--dir", dir])
      expect(declined.code).toBe(ExitCode.DECLINED)
      expect(declined.stderr).toBe(`${madeLine(declined.stderr)}Permission declined by the user: question\n`)
    }))
})
