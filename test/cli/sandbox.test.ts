/**
 * `--sandbox` on the CLI (issue 20): a bad mode is a usage error naming the three; a sandboxed
 * command's changes in the Location are snapshotted and reverted like any other; the prompt
 * says the command runs sandboxed; the same flag works from a config's `bash.sandbox`.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SessionCommand } from "../../src/cli/command/session.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { AskView } from "../../src/cli/ask-view.js"
import { SandboxMode } from "../../src/sandbox/mode.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const SESSION = "ses_sandboxed"

const project = Effect.gen(function* () {
  const root = yield* tmpdir
  const dir = path.join(root, "repo")
  yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
  yield* promise(() => writeFile(path.join(dir, "a.txt"), "one\n"))
  // curl asks, so the prompt shows.
  yield* promise(() => mkdir(path.join(root, "config"), { recursive: true }))
  yield* promise(() => writeFile(path.join(root, "config", "toolgate.json"), JSON.stringify({ permission: [{ action: "bash", resource: "curl *", effect: "ask" }] })))
  const cli = (argv: ReadonlyArray<string>, options: { readonly answers?: string[]; readonly tty?: boolean } = {}) =>
    promise(() => runCli([...argv, "--dir", dir], { root, env: { TOOLGATE_CONFIG_DIR: path.join(root, "config") }, ...options }))
  return { root, dir, cli }
})

describe("toolgate --sandbox", () => {
  it.live("refuses a mode that does not exist, naming the three", () =>
    Effect.gen(function* () {
      const { cli } = yield* project
      expect(yield* cli(["call", "bash", JSON.stringify({ command: "true" }), "--sandbox", "strict"])).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${SandboxMode.Messages.invalidFlag("strict")}\n` })
    }))

  it.live("a sandboxed command's changes in the Location revert like any other's", () =>
    Effect.gen(function* () {
      const { dir, cli } = yield* project
      const ran = yield* cli(["call", "bash", JSON.stringify({ command: "echo two > a.txt && echo new > b.txt && rm -f c.txt" }), "--sandbox", "workspace-write", "--session", SESSION, "--message", "msg_1", "--on-ask", "once"])
      expect(ran.code, ran.stderr).toBe(ExitCode.SUCCESS)
      expect(yield* promise(() => readFile(path.join(dir, "a.txt"), "utf8"))).toBe("two\n")
      const reverted = yield* cli(["session", "revert", SESSION, "msg_1"])
      expect(reverted.stdout.split("\n")[0]).toBe(SessionCommand.Messages.reverted(SESSION, "msg_1"))
      expect(yield* promise(() => readFile(path.join(dir, "a.txt"), "utf8"))).toBe("one\n")
      expect(existsSync(path.join(dir, "b.txt"))).toBe(false)
    }))

  it.live("the prompt says the command runs sandboxed, and where it may write", () =>
    Effect.gen(function* () {
      const { dir, cli } = yield* project
      const asked = yield* cli(["call", "bash", JSON.stringify({ command: "curl example.com" }), "--sandbox", "workspace-write"], { tty: true, answers: ["r"] })
      expect(asked.stderr).toContain(AskView.Messages.sandbox(SandboxMode.Messages.shown("workspace-write", dir, false)).trim())
      expect(asked.code).toBe(ExitCode.DECLINED)
    }))
})
