/**
 * The prompt in a real pseudo-terminal: the built executable (`dist/`, made by `npm test` before
 * vitest runs) under util-linux `script`, so stdin and stderr are a TTY as at a person's
 * terminal. Input is typed only after the question it answers appears (synchronised by output,
 * never by time); the child is killed when the test's scope closes, whatever happened.
 */
import { spawn } from "node:child_process"
import type { ChildProcessWithoutNullStreams } from "node:child_process"
import { existsSync } from "node:fs"
import { readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AskView } from "../../src/cli/ask-view.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { OnAsk } from "../../src/cli/on-ask.js"
import { Permission } from "../../src/permission/permission.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { project } from "../lib/shell-tool.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")
const SCRIPT = "/usr/bin/script"

/** What the terminal showed, without colours and carriage returns. */
const plain = (output: string) => output.replace(/\u001b\[[0-9;]*m/g, "").replaceAll("\r", "")

const occurrences = (text: string, part: string) => text.split(part).length - 1

/** The prompts the CLI waits at: the question, and the feedback after a reject. */
const PROMPTS = [OnAsk.Messages.question, OnAsk.Messages.feedback]

/** The session's output and exit code; `answers[i]` is typed once prompts have appeared i + 1 times. */
const session = (child: ChildProcessWithoutNullStreams, answers: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number | null; readonly output: string }>((resolve) => {
    const chunks: string[] = []
    const typed = { count: 0 }
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      chunks.push(chunk)
      const shown = plain(chunks.join(""))
      const asked = PROMPTS.reduce((total, prompt) => total + occurrences(shown, prompt), 0)
      while (typed.count < Math.min(asked, answers.length)) child.stdin.write(`${answers[typed.count++]}\n`)
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => chunks.push(chunk))
    child.on("close", (code) => resolve({ code, output: chunks.join("") }))
  })

/** `toolgate <args>` in a pseudo-terminal, its home and data under `root`; killed with the scope. */
const inTerminal = (root: string, args: ReadonlyArray<string>, extra: Readonly<Record<string, string>> = {}) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      // The arguments reach the command through the environment, so nothing needs shell quoting.
      const env = { PATH: process.env.PATH, HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data"), ...OWN_PROCESS, SHELL: "/bin/sh", TOOLGATE_PTY_NODE: process.execPath, TOOLGATE_PTY_BIN: bin, ...Object.fromEntries(args.map((arg, index) => [`TOOLGATE_PTY_ARG${index}`, arg])), ...extra }
      const command = `exec "$TOOLGATE_PTY_NODE" "$TOOLGATE_PTY_BIN" ${args.map((_, index) => `"$TOOLGATE_PTY_ARG${index}"`).join(" ")}`
      return spawn(SCRIPT, ["-q", "-e", "-c", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] })
    }),
    // Closing the terminal's master side hangs up the CLI inside it too.
    (child) => Effect.sync(() => (child.exitCode === null && child.signalCode === null ? child.kill("SIGKILL") : true)),
  )

describe.skipIf(!existsSync(SCRIPT))("OnAsk in a pseudo-terminal", () => {
  it.live(
    "shows the diff, asks again after yes, and edits after o",
    () =>
      Effect.gen(function* () {
        const { root, dir } = yield* project({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })
        const file = path.join(dir, "a.txt")
        yield* Effect.promise(() => writeFile(file, "one\ntwo\n"))
        const child = yield* inTerminal(root, ["call", "edit", JSON.stringify({ path: "a.txt", oldString: "two", newString: "2" }), "--dir", dir, "--session", "ses_prompt"])
        const { code, output } = yield* Effect.promise(() => session(child, ["yes", "o"]))
        const diff = ["--- a.txt", "+++ a.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+2"]
        expect(plain(output).split("\n")).toEqual([
          "Permission requested: edit a.txt",
          `  Why: edit "*" ask (from ${path.join(dir, "toolgate.json")} permission[0])`,
          ...diff,
          `  [s]ession would ${Permission.Messages.saveAllows("edit", file, "session")}`,
          `  [a]lways would ${Permission.Messages.saveAllows("edit", file, "project")}`,
          // The terminal echoes what was typed after each question.
          `${OnAsk.Messages.question}yes`,
          OnAsk.Messages.unrecognised("yes"),
          `${OnAsk.Messages.question}o`,
          EditTool.Messages.edited("a.txt", 1),
          "",
          ...diff,
          "",
          "",
        ])
        // Coloured, because this is a terminal.
        const { added, removed, hunk, reset } = AskView.COLOURS
        expect(output.replaceAll("\r", "").split("\n").slice(4, 8)).toEqual([`${hunk}@@ -1,2 +1,2 @@${reset}`, " one", `${removed}-two${reset}`, `${added}+2${reset}`])
        expect(code).toBe(ExitCode.SUCCESS)
        expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("one\n2\n")
      }),
    60_000,
  )

  it.live(
    "cuts a long diff and shows all of it through $PAGER after d",
    () =>
      Effect.gen(function* () {
        const { root, dir } = yield* project({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })
        const content = Array.from({ length: AskView.UNSIZED_LINES + 10 }, (_, index) => `line ${index}\n`).join("")
        const child = yield* inTerminal(root, ["call", "write", JSON.stringify({ path: "long.txt", content }), "--dir", dir, "--session", "ses_prompt"], { PAGER: "cat", NO_COLOR: "1" })
        const { code, output } = yield* Effect.promise(() => session(child, ["d", "r", ""]))
        const diff = ["--- long.txt", "+++ long.txt", `@@ -0,0 +1,${AskView.UNSIZED_LINES + 10} @@`, ...content.trimEnd().split("\n").map((line) => `+${line}`)]
        const kept = AskView.UNSIZED_LINES - AskView.RESERVED_LINES
        expect(plain(output).split("\n")).toEqual([
          "Permission requested: edit long.txt",
          `  Why: edit "*" ask (from ${path.join(dir, "toolgate.json")} permission[0])`,
          ...diff.slice(0, kept),
          AskView.Messages.cut(diff.length - kept),
          `  [s]ession would ${Permission.Messages.saveAllows("edit", path.join(dir, "long.txt"), "session")}`,
          `  [a]lways would ${Permission.Messages.saveAllows("edit", path.join(dir, "long.txt"), "project")}`,
          `${OnAsk.Messages.question}d`,
          ...diff,
          `${OnAsk.Messages.question}r`,
          OnAsk.Messages.feedback,
          Permission.Messages.declined("edit"),
          "",
        ])
        expect(code).toBe(ExitCode.DECLINED)
      }),
    60_000,
  )
})
