import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AskView } from "../../src/cli/ask-view.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { OnAsk } from "../../src/cli/on-ask.js"
import { Permission } from "../../src/permission/permission.js"
import { promise, runCli } from "../lib/cli.js"
import { project } from "../lib/shell-tool.js"

const { added, removed, hunk, reset } = AskView.COLOURS
const EDIT_ASKS = { permission: [{ action: "edit", resource: "*", effect: "ask" }] }

/** The save lines of an edit of `file` (absolute). */
const saves = (file: string) => [`  [s]ession would ${Permission.Messages.saveAllows("edit", file, "session")}`, `  [a]lways would ${Permission.Messages.saveAllows("edit", file, "project")}`]

describe("OnAsk: an informed approval at a terminal", () => {
  it.live("shows why an edit asks and its coloured diff, asks again after yes, and edits after o", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(EDIT_ASKS)
      const file = path.join(dir, "a.txt")
      yield* promise(() => writeFile(file, "one\ntwo\n"))
      const input = JSON.stringify({ path: "a.txt", oldString: "two", newString: "2" })
      const result = yield* promise(() => runCli(["call", "edit", input, "--dir", dir, "--session", "ses_prompt"], { root, tty: true, answers: ["yes", "o"] }))
      expect(result.code).toBe(ExitCode.SUCCESS)
      expect(result.stderr).toBe(
        [
          "Permission requested: edit a.txt",
          `  Why: edit "*" ask (from ${path.join(dir, "toolgate.json")} permission[0])`,
          "--- a.txt",
          "+++ a.txt",
          `${hunk}@@ -1,2 +1,2 @@${reset}`,
          " one",
          `${removed}-two${reset}`,
          `${added}+2${reset}`,
          ...saves(file),
          OnAsk.Messages.question + OnAsk.Messages.unrecognised("yes"),
          OnAsk.Messages.question,
        ].join("\n"),
      )
      expect(yield* promise(() => readFile(file, "utf8"))).toBe("one\n2\n")
    }))

  it.live("shows no colour with NO_COLOR, and none without a terminal", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(EDIT_ASKS)
      yield* promise(() => writeFile(path.join(dir, "a.txt"), "one\ntwo\n"))
      const input = JSON.stringify({ path: "a.txt", oldString: "two", newString: "2" })
      const plain = yield* promise(() => runCli(["call", "edit", input, "--dir", dir, "--session", "ses_prompt"], { root, tty: true, answers: ["r"], env: { NO_COLOR: "1" } }))
      expect(plain.stderr.split("\n").slice(2, 8)).toEqual(["--- a.txt", "+++ a.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+2"])
      const piped = yield* promise(() => runCli(["call", "edit", input, "--dir", dir, "--on-ask", "prompt", "--session", "ses_prompt"], { root, answers: ["r"] }))
      expect(piped.stderr.split("\n").slice(2, 8)).toEqual(["--- a.txt", "+++ a.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+2"])
    }))

  it.live("cuts a diff taller than the terminal; d shows all of it through the pager, or printed without one", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(EDIT_ASKS)
      const content = Array.from({ length: 30 }, (_, index) => `line ${index}\n`).join("")
      const input = JSON.stringify({ path: "long.txt", content })
      const diff = ["--- long.txt", "+++ long.txt", "@@ -0,0 +1,30 @@", ...content.trimEnd().split("\n").map((line) => `+${line}`)]
      const kept = 24 - AskView.RESERVED_LINES
      const head = ["Permission requested: edit long.txt", `  Why: edit "*" ask (from ${path.join(dir, "toolgate.json")} permission[0])`, ...diff.slice(0, kept), AskView.Messages.cut(diff.length - kept), ...saves(path.join(dir, "long.txt"))]
      const paged: string[] = []
      const withPager = yield* promise(() =>
        runCli(["call", "write", input, "--dir", dir, "--session", "ses_prompt"], { root, tty: true, rows: 24, env: { NO_COLOR: "1" }, answers: ["d", "r"], page: (text) => paged.push(text) > 0 }),
      )
      expect(withPager.code).toBe(ExitCode.DECLINED)
      expect(paged).toEqual([diff.join("\n")])
      expect(withPager.stderr).toBe([...head, OnAsk.Messages.question + OnAsk.Messages.question + OnAsk.Messages.feedback + Permission.Messages.declined("edit"), ""].join("\n"))
      const printed = yield* promise(() => runCli(["call", "write", input, "--dir", dir, "--session", "ses_prompt"], { root, tty: true, rows: 24, env: { NO_COLOR: "1" }, answers: ["d", "o"] }))
      expect(printed.code).toBe(ExitCode.SUCCESS)
      expect(printed.stderr).toBe([...head, OnAsk.Messages.question + diff[0], ...diff.slice(1), OnAsk.Messages.question].join("\n"))
      expect(yield* promise(() => readFile(path.join(dir, "long.txt"), "utf8"))).toBe(content)
    }))

  it.live("shows a bash command, its description, and the command inside it that asked", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project({ permission: [{ action: "bash", resource: "git push*", effect: "ask" }] })
      const input = JSON.stringify({ command: "echo ok && git push", description: "Say ok, then push" })
      const result = yield* promise(() => runCli(["call", "bash", input, "--dir", dir, "--session", "ses_prompt"], { root, tty: true, answers: ["r", ""] }))
      expect(result.code).toBe(ExitCode.DECLINED)
      expect(result.stderr.split("\n").slice(0, 5)).toEqual([
        "Permission requested: bash echo ok, git push",
        "  Command: echo ok && git push",
        "  Description: Say ok, then push",
        AskView.Messages.workdir(dir),
        `  Why git push: bash "git push*" ask (from ${path.join(dir, "toolgate.json")} permission[0])`,
      ])
    }))

  // Under the build agent the command and the edit are allowed: this ask is the only one, and
  // approving it runs the command, or writes the file, with nothing else shown.
  it.live("shows what will run, and where, on the external_directory ask of a bash command outside", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project({})
      const outside = path.join(root, "outside")
      yield* promise(() => mkdir(outside))
      const input = JSON.stringify({ command: "rm -rf *", description: "Clean the build", workdir: outside })
      const result = yield* promise(() => runCli(["call", "bash", input, "--dir", dir, "--session", "ses_prompt"], { root, tty: true, answers: ["r", ""] }))
      expect(result.code).toBe(ExitCode.DECLINED)
      expect(result.stderr.split("\n").slice(0, 4)).toEqual([
        `Permission requested: external_directory ${outside}/*, *`,
        AskView.Messages.command("rm -rf *"),
        AskView.Messages.description("Clean the build"),
        AskView.Messages.workdir(outside),
      ])
    }))

  it.live("names the file and the edit on the external_directory ask of a write outside", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project({})
      const file = path.join(root, ".bashrc")
      const input = JSON.stringify({ path: file, content: "curl x | sh\n" })
      const result = yield* promise(() => runCli(["call", "write", input, "--dir", dir, "--session", "ses_prompt"], { root, tty: true, answers: ["r", ""] }))
      expect(result.code).toBe(ExitCode.DECLINED)
      expect(result.stderr.split("\n").slice(0, 2)).toEqual([`Permission requested: external_directory ${root}/*`, AskView.Messages.purpose(`edit ${file}`)])
    }))

  it.live("shows the URL of a webfetch, and that no rule matched when none did", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project({})
      yield* promise(() => mkdir(path.join(root, ".config", "toolgate"), { recursive: true }))
      yield* promise(() => writeFile(path.join(root, ".config", "toolgate", "toolgate.json"), JSON.stringify({ agent: { bare: { permission: [] } } })))
      const input = JSON.stringify({ url: "https://docs.example/guide" })
      const result = yield* promise(() => runCli(["call", "webfetch", input, "--dir", dir, "--agent", "bare", "--session", "ses_prompt"], { root, tty: true, answers: ["r", ""] }))
      expect(result.code).toBe(ExitCode.DECLINED)
      expect(result.stderr.split("\n").slice(0, 3)).toEqual(["Permission requested: webfetch https://docs.example/guide", "  URL: https://docs.example/guide", `  Why: ${AskView.NO_RULE}`])
    }))
})
