import { mkdir, readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SessionCommand } from "../../src/cli/command/session.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { History } from "../../src/snapshot/history.js"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { files } from "../snapshot/history-harness.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const M = SessionCommand.Messages
const SESSION = "ses_manual"

/** A repository folder holding `initial`, and the CLI run with a private home, data and config dir. */
const project = (initial: Record<string, string>) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const dir = path.join(root, "repo")
    yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
    for (const [file, content] of Object.entries(initial)) yield* promise(() => writeFile(path.join(dir, file), content))
    const cli = (...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", dir], { root, env: { TOOLGATE_CONFIG_DIR: path.join(root, "config") } }))
    const call = (message: string, tool: string, input: unknown) =>
      Effect.map(cli("call", tool, JSON.stringify(input), "--session", SESSION, "--message", message, "--on-ask", "once"), (result) => expect(result.code).toBe(ExitCode.SUCCESS))
    const person = (file: string, content: string) => promise(() => writeFile(path.join(dir, file), content))
    return { dir, cli, call, person, files: files(dir) }
  })

const ok = (stdout: string) => ({ code: ExitCode.SUCCESS, stdout: `${stdout}\n`, stderr: "" })

describe("toolgate session", () => {
  it.live("reverts a command that moved a gitignored file away: the file comes back where it was, the copy goes", () =>
    Effect.gen(function* () {
      const p = yield* project({ ".gitignore": ".env\n", ".env": "TOKEN=mine\n" })
      yield* p.call("msg_1", "bash", { command: "mkdir -p old && mv .env old/moved.txt", description: "move it" })
      expect(yield* p.files).toEqual({ ".gitignore": ".env\n", "old/moved.txt": "TOKEN=mine\n" })
      expect((yield* p.cli("session", "revert", SESSION, "msg_1")).code).toBe(ExitCode.SUCCESS)
      expect(yield* p.files).toEqual({ ".gitignore": ".env\n", ".env": "TOKEN=mine\n" })
    }))

  it.live("reverts a command that deleted or created gitignored files it names, and leaves the ignored files it did not name", () =>
    Effect.gen(function* () {
      const p = yield* project({ ".gitignore": ".env\n*.local\n", ".env": "TOKEN=mine\n", "keep.local": "x=1\n", "a.txt": "one\n" })
      yield* p.call("msg_1", "bash", { command: "rm .env && echo debug=1 > app.local && echo two > a.txt", description: "clean up" })
      expect(yield* p.files).toEqual({ ".gitignore": ".env\n*.local\n", "keep.local": "x=1\n", "app.local": "debug=1\n", "a.txt": "two\n" })
      expect((yield* p.cli("session", "diff", SESSION)).stdout.split("\n").filter((line) => /^[ADM] /.test(line))).toEqual(["D .env (+0 -1)", "M a.txt (+1 -1)", "A app.local (+1 -0)"])
      expect((yield* p.cli("session", "revert", SESSION, "msg_1")).code).toBe(ExitCode.SUCCESS)
      expect(yield* p.files).toEqual({ ".gitignore": ".env\n*.local\n", ".env": "TOKEN=mine\n", "keep.local": "x=1\n", "a.txt": "one\n" })
    }))

  it.live("replays a session's steps by hand, shows its diff, reverts to before a message and unreverts", () =>
    Effect.gen(function* () {
      const p = yield* project({ "a.txt": "one\n" })
      yield* p.call("msg_1", "edit", { path: "a.txt", oldString: "one", newString: "two" })
      yield* p.call("msg_2", "write", { path: "b.txt", content: "new\n" })
      expect((yield* p.cli("session", "diff", SESSION)).stdout.split("\n").slice(0, 2)).toEqual(["M a.txt (+1 -1)", "A b.txt (+1 -0)"])
      expect(yield* p.cli("session", "revert", SESSION, "msg_2")).toEqual(ok([M.reverted(SESSION, "msg_2"), M.step("delete", "b.txt", false)].join("\n")))
      expect(yield* promise(() => stat(path.join(p.dir, "b.txt")).then(() => true, () => false))).toBe(false)
      expect(yield* promise(() => readFile(path.join(p.dir, "a.txt"), "utf8"))).toBe("two\n")
      expect(yield* p.cli("session", "unrevert", SESSION)).toEqual(ok([M.unreverted(SESSION), M.step("recreate", "b.txt", false)].join("\n")))
      expect(yield* p.files).toEqual({ "a.txt": "two\n", "b.txt": "new\n" })
      expect(yield* p.cli("session", "revert", SESSION, "msg_7")).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${History.Messages.noSnapshot(SESSION, "msg_7")}\n` })
      expect((yield* p.cli("session", "revert", SESSION)).code).toBe(ExitCode.USAGE)
      expect((yield* p.cli("session", "unrevert", SESSION, "--dry-run")).code).toBe(ExitCode.USAGE)
    }))

  it.live("unrevert after two reverts returns to the state before the first", () =>
    Effect.gen(function* () {
      const p = yield* project({ "a.txt": "a0\n" })
      yield* p.call("msg_1", "edit", { path: "a.txt", oldString: "a0", newString: "a1" })
      yield* p.call("msg_2", "write", { path: "b.txt", content: "b2\n" })
      yield* p.call("msg_3", "edit", { path: "a.txt", oldString: "a1", newString: "a3" })
      const latest = yield* p.files
      expect((yield* p.cli("session", "revert", SESSION, "msg_3")).code).toBe(ExitCode.SUCCESS)
      expect((yield* p.cli("session", "revert", SESSION, "msg_2")).code).toBe(ExitCode.SUCCESS)
      expect(yield* p.files).toEqual({ "a.txt": "a1\n" })
      expect(yield* p.cli("session", "unrevert", SESSION)).toEqual(ok([M.unreverted(SESSION), M.step("restore", "a.txt", false), M.step("recreate", "b.txt", false)].join("\n")))
      expect(yield* p.files).toEqual(latest)
    }))

  it.live("shows in a dry run what a revert will do, keeps the person's work and names each conflict", () =>
    Effect.gen(function* () {
      const p = yield* project({ "a.txt": "one\n", "b.txt": "bee\n", "notes.txt": "mine\n" })
      yield* p.call("msg_1", "edit", { path: "a.txt", oldString: "one", newString: "two" })
      yield* p.call("msg_1", "write", { path: "new.txt", content: "new\n" })
      yield* p.call("msg_2", "edit", { path: "b.txt", oldString: "bee", newString: "BEE" })
      yield* p.person("b.txt", "BEE, then the person\n")
      yield* p.person("notes.txt", "mine, edited\n")
      yield* p.person("person.txt", "created by the person\n")
      const before = yield* p.files
      const lines = (dry: boolean) => [M.step("restore", "a.txt", dry), M.step("delete", "new.txt", dry), M.conflict("b.txt", "session", dry)]
      expect(yield* p.cli("session", "revert", SESSION, "msg_1", "--dry-run")).toEqual(ok([M.dryRun(SESSION, "msg_1"), ...lines(true), M.unchanged].join("\n")))
      expect(M.conflict("b.txt", "session", true)).toBe("Conflict: would keep your version of b.txt, changed after the session's last change to it")
      expect(yield* p.files).toEqual(before)
      expect(yield* p.cli("session", "revert", SESSION, "msg_1")).toEqual(ok([M.reverted(SESSION, "msg_1"), ...lines(false)].join("\n")))
      expect(M.conflict("b.txt", "session", false)).toBe("Conflict: kept your version of b.txt, changed after the session's last change to it")
      expect(yield* p.files).toEqual({ "a.txt": "one\n", "b.txt": "BEE, then the person\n", "notes.txt": "mine, edited\n", "person.txt": "created by the person\n" })
      expect((yield* p.cli("session", "unrevert", SESSION)).code).toBe(ExitCode.SUCCESS)
      expect(yield* p.files).toEqual(before)
    }))

  it.live("puts back a large untracked file a bash command named and shrank or deleted: it was kept by content before it ran", () =>
    Effect.gen(function* () {
      const big = "x".repeat(Snapshot.MAX_UNTRACKED_BYTES + 1)
      const p = yield* project({ "big.bin": big, "data.bin": big, "a.txt": "one\n" })
      yield* p.call("msg_1", "bash", { command: "echo hello > big.bin && rm data.bin && echo two > a.txt" })
      const reverted = yield* p.cli("session", "revert", SESSION, "msg_1")
      expect(reverted).toEqual(ok([M.reverted(SESSION, "msg_1"), M.step("restore", "a.txt", false), M.step("restore", "big.bin", false), M.step("recreate", "data.bin", false)].join("\n")))
      expect(yield* promise(() => readFile(path.join(p.dir, "big.bin"), "utf8"))).toBe(big)
      expect(yield* promise(() => readFile(path.join(p.dir, "data.bin"), "utf8"))).toBe(big)
    }))

  it.live("puts back a large untracked file below a folder a bash command named and removed", () =>
    Effect.gen(function* () {
      const big = "y".repeat(Snapshot.MAX_UNTRACKED_BYTES + 1)
      const p = yield* project({ "a.txt": "one\n" })
      yield* promise(() => mkdir(path.join(p.dir, "data", "raw"), { recursive: true }))
      yield* p.person("data/raw/a.csv", big)
      yield* p.person("data/notes.txt", "notes\n")
      yield* p.call("msg_0", "bash", { command: "echo two > a.txt" })
      yield* p.call("msg_1", "bash", { command: "rm -rf data" })
      const reverted = yield* p.cli("session", "revert", SESSION, "msg_1")
      expect(reverted).toEqual(ok([M.reverted(SESSION, "msg_1"), M.step("recreate", "data/notes.txt", false), M.step("recreate", "data/raw/a.csv", false)].join("\n")))
      expect(yield* promise(() => readFile(path.join(p.dir, "data", "raw", "a.csv"), "utf8"))).toBe(big)
    }))

  it.live("keeps a large untracked file a bash command shrank without naming it, names it as not restorable, and reverts the rest", () =>
    Effect.gen(function* () {
      const p = yield* project({ "big.bin": "x".repeat(Snapshot.MAX_UNTRACKED_BYTES + 1), "a.txt": "one\n" })
      yield* p.call("msg_1", "bash", { command: "for f in *.bin; do echo hello > \"$f\"; done && echo two > a.txt" })
      expect((yield* p.cli("session", "diff", SESSION)).stdout.split("\n").slice(0, 2)).toEqual(["M a.txt (+1 -1)", "M big.bin (+0 -0)"])
      const lines = (dry: boolean) => [M.step("restore", "a.txt", dry), M.large("big.bin", dry)]
      expect(yield* p.cli("session", "revert", SESSION, "msg_1", "--dry-run")).toEqual(ok([M.dryRun(SESSION, "msg_1"), ...lines(true), M.unchanged].join("\n")))
      expect(M.large("big.bin", true)).toBe("Cannot revert big.bin: would keep it as it is. Untracked files over 2 MiB, and files toolgate may not read, are snapshotted by size only, so no copy of it was saved to put back.")
      expect(yield* p.cli("session", "revert", SESSION, "msg_1")).toEqual(ok([M.reverted(SESSION, "msg_1"), ...lines(false)].join("\n")))
      expect(M.large("big.bin", false)).toBe("Cannot revert big.bin: kept it as it is. Untracked files over 2 MiB, and files toolgate may not read, are snapshotted by size only, so no copy of it was saved to put back.")
      expect(yield* promise(() => readFile(path.join(p.dir, "big.bin"), "utf8"))).toBe("hello\n")
      expect(yield* promise(() => readFile(path.join(p.dir, "a.txt"), "utf8"))).toBe("one\n")
    }))

  it.live("records a write to a gitignored .env: the diff shows it and revert restores it", () =>
    Effect.gen(function* () {
      const p = yield* project({ ".gitignore": ".env\n", ".env": "TOKEN=old\n" })
      yield* p.call("msg_1", "write", { path: ".env", content: "TOKEN=new\n" })
      expect((yield* p.cli("session", "diff", SESSION)).stdout.split("\n")[0]).toBe("M .env (+1 -1)")
      expect(yield* p.cli("session", "revert", SESSION, "msg_1")).toEqual(ok([M.reverted(SESSION, "msg_1"), M.step("restore", ".env", false)].join("\n")))
      expect(yield* p.files).toEqual({ ".gitignore": ".env\n", ".env": "TOKEN=old\n" })
    }))

  it.live("reverts what a bash command changed, mode included, and the ignored file it named (a redirect's target)", () =>
    Effect.gen(function* () {
      const p = yield* project({ ".gitignore": "*.log\n", "run.sh": "echo hi\n" })
      yield* p.call("msg_1", "bash", { command: "chmod +x run.sh && echo made > made.txt && echo log > build.log" })
      expect(Object.keys(yield* p.files)).toEqual([".gitignore", "build.log", "made.txt", "run.sh*"])
      expect(yield* p.cli("session", "revert", SESSION, "msg_1", "--json")).toEqual(
        ok(JSON.stringify([{ path: "build.log", action: "delete" }, { path: "made.txt", action: "delete" }, { path: "run.sh", action: "restore" }], null, 2)),
      )
      expect(yield* p.files).toEqual({ ".gitignore": "*.log\n", "run.sh": "echo hi\n" })
    }))

  it.live("says so when there is nothing to revert", () =>
    Effect.gen(function* () {
      const p = yield* project({ "a.txt": "one\n" })
      yield* p.call("msg_1", "bash", { command: "cat a.txt" })
      expect(yield* p.cli("session", "revert", SESSION, "msg_1", "--dry-run")).toEqual(ok(M.nothingToRevert(SESSION, "msg_1")))
      expect(yield* p.cli("session", "revert", SESSION, "msg_1")).toEqual(ok(M.nothingToRevert(SESSION, "msg_1")))
      expect(M.nothingToRevert(SESSION, "msg_1")).toBe("Session ses_manual has nothing to revert from message msg_1 on.")
      expect(yield* p.cli("session", "unrevert", SESSION)).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${History.Messages.nothingToUnrevert(SESSION)}\n` })
    }))
})
