import { mkdir, readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SessionCommand } from "../../src/cli/command/session.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { History } from "../../src/snapshot/history.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

describe("toolgate session", () => {
  it.live("replays a session's steps by hand, shows its diff, reverts to before a message and unreverts", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const dir = path.join(root, "repo")
      yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
      yield* promise(() => writeFile(path.join(dir, "a.txt"), "one\n"))
      const call = (message: string, tool: string, input: unknown) =>
        promise(() => runCli(["call", tool, JSON.stringify(input), "--dir", dir, "--session", "ses_manual", "--message", message], { root }))
      expect((yield* call("msg_1", "edit", { path: "a.txt", oldString: "one", newString: "two" })).code).toBe(ExitCode.SUCCESS)
      expect((yield* call("msg_2", "write", { path: "b.txt", content: "new\n" })).code).toBe(ExitCode.SUCCESS)

      const diff = yield* promise(() => runCli(["session", "diff", "ses_manual", "--dir", dir], { root }))
      expect(diff.stdout.split("\n").slice(0, 2)).toEqual(["M a.txt (+1 -1)", "A b.txt (+1 -0)"])

      const reverted = yield* promise(() => runCli(["session", "revert", "ses_manual", "msg_2", "--dir", dir], { root }))
      expect(reverted).toEqual({ code: ExitCode.SUCCESS, stdout: `${SessionCommand.Messages.reverted("ses_manual", "msg_2", 1)}\n  b.txt\n`, stderr: "" })
      expect(yield* promise(() => stat(path.join(dir, "b.txt")).then(() => true, () => false))).toBe(false)
      expect(yield* promise(() => readFile(path.join(dir, "a.txt"), "utf8"))).toBe("two\n")

      const unreverted = yield* promise(() => runCli(["session", "unrevert", "ses_manual", "--dir", dir], { root }))
      expect(unreverted.stdout).toBe(`${SessionCommand.Messages.unreverted("ses_manual", 1)}\n  b.txt\n`)
      expect(yield* promise(() => readFile(path.join(dir, "b.txt"), "utf8"))).toBe("new\n")

      expect(yield* promise(() => runCli(["session", "revert", "ses_manual", "msg_7", "--dir", dir], { root }))).toEqual({
        code: ExitCode.TOOL_FAILED,
        stdout: "",
        stderr: `${History.Messages.noSnapshot("ses_manual", "msg_7")}\n`,
      })
      expect((yield* promise(() => runCli(["session", "revert", "ses_manual", "--dir", dir], { root }))).code).toBe(ExitCode.USAGE)
    }))
})
