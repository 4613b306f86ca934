/**
 * Saved tool output is not a shared folder (issue 12): a session of project `a` spills a secret
 * through a real bash call; each later `toolgate call` is a new process, as an agent makes them.
 */
import { mkdir, readdir, readFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AskView } from "../../src/cli/ask-view.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { OnAsk } from "../../src/cli/on-ask.js"
import { ToolOutputPath } from "../../src/location/tool-output-path.js"
import { Permission } from "../../src/permission/permission.js"
import { Project } from "../../src/project.js"
import { GlobTool } from "../../src/tool/builtin/glob.js"
import { GrepTool } from "../../src/tool/builtin/grep.js"
import { ReadTool } from "../../src/tool/builtin/read.js"
import { ToolOutputStore } from "../../src/tool-output-store.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const SECRET = "TOKEN=hunter2"
/** Over the line limit, so the whole output is saved; the command's own text never holds the secret. */
const SPILL = `seq 1 ${ToolOutputStore.MAX_LINES + 1000} && printf 'TOKEN=%s%s\\n' hun ter2`
const SECRET_LINE = ToolOutputStore.MAX_LINES + 1001

interface Options {
  readonly onAsk?: string
  readonly tty?: boolean
  readonly answers?: string[]
}

/** Projects `a` and `b` (each a repository) under one root, and `a`'s session `ses_a` after spilling the secret. */
const spilled = Effect.gen(function* () {
  const root = yield* tmpdir
  for (const name of ["a", "b"]) yield* promise(() => mkdir(path.join(root, name, ".git"), { recursive: true }))
  const call = (dir: string, session: string, tool: string, input: unknown, options: Options = {}) =>
    promise(() =>
      runCli(["call", tool, JSON.stringify(input), "--dir", dir, "--session", session, ...(options.onAsk === undefined ? [] : ["--on-ask", options.onAsk])], {
        root,
        ...(options.tty === undefined ? {} : { tty: options.tty }),
        ...(options.answers === undefined ? {} : { answers: options.answers }),
      }),
    )
  const a = path.join(root, "a")
  const b = path.join(root, "b")
  const spill = yield* call(a, "ses_a", "bash", { command: SPILL }, { onAsk: "reject" })
  expect(spill.code).toBe(ExitCode.SUCCESS)
  const output = path.join(root, "data", "tool-output")
  const folder = path.join(output, Project.idOf(a), ToolOutputPath.sessionKey("ses_a"))
  const [file, ...others] = yield* promise(() => readdir(folder))
  expect(others).toEqual([])
  return { root, a, b, output, folder, file: path.join(folder, file as string), call }
})

const declined = { code: ExitCode.DECLINED, stdout: "", stderr: `${Permission.Messages.declined("external_directory")}\n` }
const refused = (file: string) => ({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${ToolOutputPath.Messages.readOnly(file)}\n` })
const found = (file: string) => `${GrepTool.format({ matches: [{ path: file, line: SECRET_LINE, text: SECRET }], truncated: false })}\n`
const secretPage = (file: string) =>
  `${[ReadTool.Messages.fileHeader(file, SECRET_LINE, SECRET_LINE), ReadTool.Messages.line(SECRET_LINE, SECRET), ReadTool.Messages.more(SECRET_LINE + 1)].join("\n")}\n`

describe("saved tool output", () => {
  it.live("is kept in the session's own folder, which that session reads, greps and globs without an ask", () =>
    Effect.gen(function* () {
      const { a, folder, file, call } = yield* spilled
      expect(path.basename(file).startsWith(ToolOutputStore.FILE_PREFIX)).toBe(true)
      // No --on-ask: without a terminal any ask would be rejected.
      expect(yield* call(a, "ses_a", "read", { path: file, offset: SECRET_LINE, limit: 1 })).toEqual({ code: ExitCode.SUCCESS, stdout: secretPage(file), stderr: "" })
      expect(yield* call(a, "ses_a", "grep", { pattern: SECRET, path: folder })).toEqual({ code: ExitCode.SUCCESS, stdout: found(file), stderr: "" })
      expect(yield* call(a, "ses_a", "glob", { pattern: "*", path: folder })).toEqual({ code: ExitCode.SUCCESS, stdout: `${file}\n`, stderr: "" })
    }))

  it.live("asks another project's session before it reads or searches there, for that one folder", () =>
    Effect.gen(function* () {
      const { b, output, folder, file, call } = yield* spilled
      expect(yield* call(b, "ses_b", "read", { path: file })).toEqual(declined)
      expect(yield* call(b, "ses_b", "grep", { pattern: SECRET, path: output })).toEqual(declined)
      expect(yield* call(b, "ses_b", "glob", { pattern: "**", path: folder })).toEqual(declined)
      const prompted = yield* call(b, "ses_b", "read", { path: file }, { tty: true, answers: ["r"] })
      expect(prompted.stderr).toBe(
        [
          `Permission requested: external_directory ${folder}/*`,
          AskView.Messages.purpose(`read ${file}`),
          '  Why: external_directory "*" ask (from built-in agent build)',
          `  [s]ession would ${Permission.Messages.saveAllows("external_directory", `${folder}/*`, "session")}`,
          `  [a]lways would ${Permission.Messages.saveAllows("external_directory", `${folder}/*`, "project")}`,
          `${OnAsk.Messages.question}${OnAsk.Messages.feedback}${Permission.Messages.declined("external_directory")}`,
          "",
        ].join("\n"),
      )
      // An ask, not a refusal: a person may let it through.
      expect(yield* call(b, "ses_b", "read", { path: file, offset: SECRET_LINE, limit: 1 }, { onAsk: "once" })).toEqual({ code: ExitCode.SUCCESS, stdout: secretPage(file), stderr: "" })
    }))

  it.live("asks another session of the same project too", () =>
    Effect.gen(function* () {
      const { a, folder, file, call } = yield* spilled
      expect(yield* call(a, "ses_a2", "read", { path: file })).toEqual(declined)
      expect(yield* call(a, "ses_a2", "grep", { pattern: SECRET, path: folder })).toEqual(declined)
    }))

  it.live("is left out of a search above it, even when the search folder was approved", () =>
    Effect.gen(function* () {
      const { root, a, b, file, call } = yield* spilled
      const data = path.join(root, "data")
      expect(yield* call(b, "ses_b", "grep", { pattern: SECRET, path: data }, { onAsk: "once" })).toEqual({ code: ExitCode.SUCCESS, stdout: `${GrepTool.Messages.noMatches}\n`, stderr: "" })
      expect(yield* call(b, "ses_b", "glob", { pattern: "**/tool_*", path: data }, { onAsk: "once" })).toEqual({ code: ExitCode.SUCCESS, stdout: `${GlobTool.Messages.noFiles}\n`, stderr: "" })
      expect(yield* call(a, "ses_a", "grep", { pattern: SECRET, path: data }, { onAsk: "once" })).toEqual({ code: ExitCode.SUCCESS, stdout: found(file), stderr: "" })
    }))

  it.live("asks for another session's output even when the data directory is inside the Location", () =>
    Effect.gen(function* () {
      const { root, file, call } = yield* spilled
      expect(yield* call(root, "ses_home", "read", { path: path.relative(root, file) })).toEqual(declined)
      expect(yield* call(root, "ses_home", "grep", { pattern: SECRET })).toEqual({ code: ExitCode.SUCCESS, stdout: `${GrepTool.Messages.noMatches}\n`, stderr: "" })
    }))

  it.live("is written by no tool, whatever the session and the answer, before anything is asked", () =>
    Effect.gen(function* () {
      const { a, b, output, folder, file, call } = yield* spilled
      const before = yield* promise(() => readFile(file, "utf8"))
      const added = path.join(folder, "added.txt")
      const attempts: ReadonlyArray<readonly [string, unknown, string]> = [
        ["write", { path: added, content: "x" }, added],
        ["write", { path: path.join(output, "top.txt"), content: "x" }, path.join(output, "top.txt")],
        ["edit", { path: file, oldString: SECRET, newString: "TOKEN=gone" }, file],
        ["apply_patch", { patchText: `*** Begin Patch\n*** Add File: ${added}\n+x\n*** End Patch` }, added],
        ["apply_patch", { patchText: `*** Begin Patch\n*** Delete File: ${file}\n*** End Patch` }, file],
        ["bash", { command: `echo x > ${added}` }, added],
        ["bash", { command: `cd ${folder} && echo x >> ${path.basename(file)}` }, file],
      ]
      for (const [tool, input, target] of attempts) {
        for (const [dir, session] of [[a, "ses_a"], [b, "ses_b"]] as const) {
          expect(yield* call(dir, session, tool, input)).toEqual(refused(target))
          expect(yield* call(dir, session, tool, input, { onAsk: "always" })).toEqual(refused(target))
        }
      }
      expect(yield* promise(() => readdir(folder))).toEqual([path.basename(file)])
      expect(yield* promise(() => readdir(output))).toEqual([Project.idOf(a)])
      expect(yield* promise(() => readFile(file, "utf8"))).toBe(before)
    }))
})
