import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { CallCommand } from "../../src/cli/command/call.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Lookup } from "../../src/cli/lookup.js"
import { Location } from "../../src/location/location.js"
import { ToolOutputPath } from "../../src/location/tool-output-path.js"
import { Project } from "../../src/project.js"
import { ToolOutputPreview } from "../../src/tool-output-preview.js"
import { BashRun } from "../../src/tool/builtin/bash/run.js"
import { ToolOutputStore } from "../../src/tool-output-store.js"
import { Tool } from "../../src/tool/tool.js"
import { makeEcho } from "../lib/echo.js"
import { madeLine, madeSession, promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"
import { jsonError } from "../lib/json.js"

const echo = makeEcho()

describe("toolgate call", () => {
  it.live("prints the model-visible text of a call and exits 0", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const result = yield* promise(() => runCli(["call", "echo", '{"text":"hello"}'], { root, tools: { echo } }))
      expect(result).toEqual({ code: ExitCode.SUCCESS, stdout: "hello\n", stderr: madeLine(result.stderr) })
    }))

  it.live("names the session it made on stderr, and a call continuing it says nothing more", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const first = yield* promise(() => runCli(["call", "echo", '{"text":"one"}'], { root, tools: { echo } }))
      const id = madeSession(first.stderr)
      expect(id).toMatch(/^ses_/)
      expect(first.stderr).toBe(`${CallCommand.Messages.newSession(id)}\n`)
      expect(CallCommand.Messages.newSession("ses_a")).toBe("New session ses_a (continue it with --session ses_a)")
      const next = yield* promise(() => runCli(["call", "echo", '{"text":"two"}', "--session", id], { root, tools: { echo } }))
      expect(next).toEqual({ code: ExitCode.SUCCESS, stdout: "two\n", stderr: "" })
    }))

  it.live("reads the input from standard input when no argument is given", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const result = yield* promise(() => runCli(["call", "echo"], { root, stdin: '{"text":"piped"}', tools: { echo } }))
      expect(result.stdout).toBe("piped\n")
    }))

  it.live("prints the whole outcome with --json", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const ok = yield* promise(() => runCli(["call", "echo", '{"text":"x"}', "--json"], { root, tools: { echo } }))
      const session = (JSON.parse(ok.stdout) as { session: string }).session
      expect(session).toMatch(/^ses_/)
      expect(JSON.parse(ok.stdout)).toEqual({ content: [{ type: "text", text: "x" }], structured: "x", outputPaths: [], session })
      expect(ok.stderr).toBe("")
      const failed = yield* promise(() => runCli(["call", "nope", "{}", "--json", "--session", session], { root, tools: { echo } }))
      const unknown = Lookup.Messages.unknown("tool", "nope", "build", [])
      expect(failed.code).toBe(ExitCode.USAGE)
      expect(JSON.parse(failed.stdout)).toEqual({ content: [], structured: null, outputPaths: [], error: unknown })
      expect(failed.stderr).toBe(`${unknown}\n`)
    }))

  it.live("rejects invalid JSON input with exit 2 and the parser's message", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      for (const [argv, stdin] of [[["call", "echo", "{text:"]], [["call", "echo"], "[1,"]] as const) {
        const result = yield* promise(() => runCli(argv, { root, tools: { echo }, ...(stdin === undefined ? {} : { stdin }) }))
        expect(result).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${CallCommand.Messages.invalidJson(jsonError(argv[2] ?? stdin ?? ""))}\n` })
      }
    }))

  it.live("exits 1 with the failure on one line when the tool fails", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const result = yield* promise(() => runCli(["call", "echo", '{"text":1}'], { root, tools: { echo } }))
      expect(result).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${madeLine(result.stderr)}${Tool.Messages.invalidInput('Expected string at ["text"]')}\n` })
    }))

  it.live("exits 2 for a missing tool name, an unknown flag or a bad --on-ask", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      expect(yield* promise(() => runCli(["call"], { root }))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${CallCommand.Messages.missingTool}\n` })
      expect((yield* promise(() => runCli(["call", "echo", "--frobnicate"], { root }))).code).toBe(ExitCode.USAGE)
      expect(yield* promise(() => runCli(["call", "echo", "{}", "--on-ask", "maybe"], { root }))).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `${CallCommand.Messages.invalidOnAsk("maybe")}\n`,
      })
    }))

  it.live("runs in the Location of --dir and exits 2 when it is not a directory", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const missing = path.join(root, "missing")
      const result = yield* promise(() => runCli(["call", "echo", "{}", "--dir", missing], { root, tools: { echo } }))
      expect(result).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Location.Messages.notDirectory(missing, "ENOENT")}\n` })
      const file = path.join(root, "file")
      yield* promise(() => writeFile(file, ""))
      const notDir = yield* promise(() => runCli(["call", "echo", "{}", "--dir", file], { root, tools: { echo } }))
      expect(notDir.stderr).toBe(`${Location.Messages.notDirectory(file, "ENOTDIR")}\n`)
    }))

  it.live("reads the project config of --dir and refuses to start on a bad one", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const project = path.join(root, "project")
      yield* promise(() => mkdir(project))
      yield* promise(() => writeFile(path.join(project, "toolgate.json"), '{ "tools": { "echo": false } }'))
      const hidden = yield* promise(() => runCli(["call", "echo", '{"text":"x"}', "--dir", project], { root, tools: { echo } }))
      // Switched off, the tool is not in the catalog: to the CLI it is a name that names nothing.
      expect(hidden).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Lookup.Messages.unknown("tool", "echo", "build", [])}\n` })
      yield* promise(() => writeFile(path.join(project, "toolgate.json"), '{ "toolz": {} }'))
      const bad = yield* promise(() => runCli(["call", "echo", '{"text":"x"}', "--dir", project], { root, tools: { echo } }))
      expect(bad).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `Unknown config key "toolz" in ${path.join(project, "toolgate.json")} (did you mean "tools"?)\n`,
      })
    }))

  it.live("adds --config (relative to the working directory) after the project file", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* promise(() => writeFile(path.join(root, "toolgate.json"), '{ "tools": { "echo": false } }'))
      yield* promise(() => writeFile(path.join(root, "extra.json"), '{ "tools": { "echo": true } }'))
      const hidden = yield* promise(() => runCli(["call", "echo", '{"text":"x"}'], { root, tools: { echo } }))
      expect(hidden.code).toBe(ExitCode.USAGE)
      const shown = yield* promise(() => runCli(["call", "echo", '{"text":"x"}', "--config", "extra.json"], { root, tools: { echo } }))
      expect(shown).toEqual({ code: ExitCode.SUCCESS, stdout: "x\n", stderr: madeLine(shown.stderr) })
    }))

  it.live("bounds a large result and saves it in the session's folder under the data directory", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const big = Array.from({ length: ToolOutputStore.MAX_LINES * 2 }, (_, i) => `row ${i}`).join("\n")
      const result = yield* promise(() => runCli(["call", "echo", JSON.stringify({ text: big }), "--json", "--session", "ses_big"], { root, tools: { echo } }))
      const parsed = JSON.parse(result.stdout) as { content: Array<{ text: string }>; outputPaths: string[] }
      const [file] = parsed.outputPaths
      expect(path.relative(path.join(root, "data", "tool-output"), file as string).split(path.sep)).toEqual([Project.idOf(root), ToolOutputPath.sessionKey("ses_big"), path.basename(file as string)])
      expect(yield* promise(() => readFile(file as string, "utf8"))).toBe(big)
      expect(parsed.content[0]?.text).toBe(ToolOutputPreview.preview(big, file as string, { maxLines: ToolOutputStore.MAX_LINES, maxBytes: ToolOutputStore.MAX_BYTES }))
    }))

  it.live("passes session, message and agent to the tool's context", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const whoami = Tool.make({
        description: "Reports its call context.",
        input: Schema.Struct({}),
        output: Schema.String,
        execute: (_, context) => Effect.succeed(`${context.sessionID} ${context.assistantMessageID} ${context.agent} ${context.toolCallID.slice(0, 5)}`),
      })
      const given = yield* promise(() => runCli(["call", "whoami", "{}", "--session", "ses_given", "--message", "msg_given", "--agent", "plan"], { root, tools: { whoami } }))
      expect(given.stdout).toBe("ses_given msg_given plan call_\n")
      const fresh = yield* promise(() => runCli(["call", "whoami", "{}"], { root, tools: { whoami } }))
      expect(fresh.stdout).toMatch(/^ses_\w+ msg_\w+ build call_\n$/)
    }))
})

describe("toolgate call --json", () => {
  it.live("puts errors that happen before the call in the JSON as well", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const failed = (error: string) => ({ content: [], structured: null, outputPaths: [], error })
      const invalid = yield* promise(() => runCli(["call", "echo", "{oops", "--json"], { root, tools: { echo } }))
      expect(invalid.code).toBe(ExitCode.USAGE)
      expect(JSON.parse(invalid.stdout)).toEqual(failed(CallCommand.Messages.invalidJson(jsonError("{oops"))))
      const missing = path.join(root, "missing")
      const dir = yield* promise(() => runCli(["call", "echo", "{}", "--json", "--dir", missing], { root, tools: { echo } }))
      expect(JSON.parse(dir.stdout)).toEqual(failed(Location.Messages.notDirectory(missing, "ENOENT")))
      expect(dir.stderr).toBe(`${Location.Messages.notDirectory(missing, "ENOENT")}\n`)
    }))

  it.live("always has a structured key, null when the tool's output encodes to nothing", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const quiet = Tool.make({ description: "Says nothing.", input: Schema.Struct({}), output: Schema.Void, execute: () => Effect.void })
      const result = yield* promise(() => runCli(["call", "quiet", "{}", "--json"], { root, tools: { quiet } }))
      expect(JSON.parse(result.stdout)).toEqual({ content: [{ type: "text", text: "null" }], structured: null, outputPaths: [], session: expect.stringMatching(/^ses_/) })
    }))
})

describe("toolgate call inside a tool call", () => {
  it.live("refuses to answer asks itself (prompt, once, always), so an agent cannot approve its own requests; reject and deny still run", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* Effect.promise(() => writeFile(path.join(root, "a.txt"), "a\n"))
      const marked = { TOOLGATE_TOOL_CALL: "call_outer" }
      for (const mode of ["once", "always", "prompt"]) {
        const result = yield* Effect.promise(() => runCli(["call", "read", '{"path":"a.txt"}', "--on-ask", mode], { root, env: marked }))
        expect(result).toEqual({ code: ExitCode.REFUSED, stdout: "", stderr: `${CallCommand.Messages.answersInsideToolCall(mode)}\n` })
      }
      const rejected = yield* Effect.promise(() => runCli(["call", "read", '{"path":"a.txt"}', "--on-ask", "reject"], { root, env: marked }))
      expect(rejected.code).toBe(ExitCode.SUCCESS)
    }))
})

describe("toolgate call --json of a command", () => {
  it.live("gives the exit status of a bash command as exitCode, 0 included; the call itself succeeds", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const text = (code: number) => `out\n\n${BashRun.Messages.exited(code)}`
      for (const code of [3, 0]) {
        const result = yield* promise(() => runCli(["call", "bash", JSON.stringify({ command: `echo out; exit ${code}` }), "--json", "--session", "ses_exit"], { root }))
        expect([result.code, result.stderr]).toEqual([ExitCode.SUCCESS, ""])
        expect(JSON.parse(result.stdout)).toEqual({
          content: [{ type: "text", text: text(code) }],
          structured: { exit: code, timedOut: false, truncated: false, output: text(code) },
          outputPaths: [],
          exitCode: code,
          session: "ses_exit",
        })
      }
    }))

  it.live("gives no exitCode for a tool that runs no process", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const result = yield* promise(() => runCli(["call", "echo", '{"text":"x"}', "--json"], { root, tools: { echo } }))
      expect(Object.keys(JSON.parse(result.stdout))).toEqual(["content", "structured", "outputPaths", "session"])
    }))
})
