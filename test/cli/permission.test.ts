import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApprovalsCommand } from "../../src/cli/command/approvals.js"
import { PermissionCommand } from "../../src/cli/command/permission.js"
import { TrustCommand } from "../../src/cli/command/trust.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Lookup } from "../../src/cli/lookup.js"
import { OnAsk } from "../../src/cli/on-ask.js"
import type { Approvals } from "../../src/permission/approvals.js"
import { Database } from "../../src/storage/database.js"
import { Permission } from "../../src/permission/permission.js"
import { madeLine, promise, runCli } from "../lib/cli.js"
import { ASK_BASH, project, shell } from "../lib/shell-tool.js"
import { tmpdir } from "../lib/tmp.js"

describe("toolgate call answering asks", () => {
  it.live("rejects without a terminal by default and exits 4, never hanging", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const result = yield* promise(() => runCli(["call", "shell", '{"command":"git push"}', "--dir", dir], { root, extra: shell }))
      expect(result).toEqual({ code: ExitCode.DECLINED, stdout: "", stderr: `${madeLine(result.stderr)}${Permission.Messages.declined("bash")}\n` })
    }))

  it.live("exits 3 for a configured deny, and for an ask under --on-ask deny", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const denied = yield* promise(() => runCli(["call", "shell", '{"command":"rm -rf /"}', "--dir", dir], { root, extra: shell }))
      expect(denied).toEqual({ code: ExitCode.BLOCKED, stdout: "", stderr: `${madeLine(denied.stderr)}${Permission.Messages.blocked("bash")}\n` })
      const asked = yield* promise(() => runCli(["call", "shell", '{"command":"git push"}', "--dir", dir, "--on-ask", "deny"], { root, extra: shell }))
      expect(asked.code).toBe(ExitCode.BLOCKED)
    }))

  it.live("answers once without saving, and always with saving, so the next call does not ask", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const once = yield* promise(() => runCli(["call", "shell", '{"command":"git status"}', "--dir", dir, "--on-ask", "once"], { root, extra: shell }))
      expect(once).toEqual({ code: ExitCode.SUCCESS, stdout: "ran git status\n", stderr: madeLine(once.stderr) })
      const listed = yield* promise(() => runCli(["approvals", "list", "--dir", dir], { root }))
      expect(listed.stdout).toBe(`${ApprovalsCommand.Messages.none(dir)}\n`)
      const always = yield* promise(() => runCli(["call", "shell", '{"command":"git status"}', "--dir", dir, "--on-ask", "always"], { root, extra: shell }))
      expect(always.code).toBe(ExitCode.SUCCESS)
      const again = yield* promise(() => runCli(["call", "shell", '{"command":"git log"}', "--dir", dir], { root, extra: shell }))
      expect(again).toEqual({ code: ExitCode.SUCCESS, stdout: "ran git log\n", stderr: madeLine(again.stderr) })
    }))

  it.live("prompts at a terminal: shows the request and what always would allow, and takes feedback", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const refused = yield* promise(() => runCli(["call", "shell", '{"command":"git push"}', "--dir", dir], { root, extra: shell, tty: true, answers: ["r", "open a pull request instead"] }))
      expect(refused.code).toBe(ExitCode.TOOL_FAILED)
      expect(refused.stderr).toBe(
        [
          `${madeLine(refused.stderr)}Permission requested: bash git push`,
          `  Why: bash "*" ask (from ${path.join(dir, "toolgate.json")} permission[0])`,
          `  [s]ession would ${Permission.Messages.saveAllows("bash", "git *", "session")}`,
          `  [a]lways would ${Permission.Messages.saveAllows("bash", "git *", "project")}`,
          OnAsk.Messages.question + OnAsk.Messages.feedback + Permission.Messages.corrected("open a pull request instead"),
          "",
        ].join("\n"),
      )
      const allowed = yield* promise(() => runCli(["call", "shell", '{"command":"git push"}', "--dir", dir], { root, extra: shell, tty: true, answers: ["a"] }))
      expect(allowed.stdout).toBe("ran git push\n")
      const ended = yield* promise(() => runCli(["call", "shell", '{"command":"make"}', "--dir", dir], { root, extra: shell, tty: true, answers: [] }))
      expect(ended.code).toBe(ExitCode.DECLINED)
    }))
})

describe("toolgate permission", () => {
  const SEED = { permission: [{ action: "edit", resource: "*", effect: "ask" }, { action: "edit", resource: "tests/**", effect: "deny" }, { action: "edit", resource: "**", effect: "allow" }] }

  it.live("evaluates with the project's allows as asks until it is trusted, and explains why", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(SEED)
      const file = path.join(dir, "toolgate.json")
      const untrusted = yield* promise(() => runCli(["permission", "eval", "edit", "tests/shipping.test.ts", "--dir", dir, "--explain"], { root }))
      // Untrusted, the project's broad allow counts as ask, and it cannot weaken its own deny.
      expect(untrusted.stdout).toBe(
        [
          "deny",
          "tests/shipping.test.ts:",
          `  decided by "edit tests/** deny" (${file} permission[1])`,
          `  also matched "edit ** ask" (${file} permission[2])`,
          `  also matched "edit * ask" (${file} permission[0])`,
          `  also matched "* * allow" (built-in agent build)`,
          "",
        ].join("\n"),
      )
      const other = yield* promise(() => runCli(["permission", "eval", "edit", "src/a.ts", "--dir", dir, "--explain"], { root }))
      expect(other.stdout.split("\n").slice(0, 4)).toEqual(["ask", "src/a.ts:", `  decided by "edit ** ask" (${file} permission[2])`, PermissionCommand.Messages.downgraded])
      expect(yield* promise(() => runCli(["trust", "--dir", dir], { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: `${TrustCommand.Messages.trusted(dir)}\n`, stderr: "" })
      expect((yield* promise(() => runCli(["permission", "eval", "edit", "tests/shipping.test.ts", "--dir", dir], { root }))).stdout).toBe("allow\n")
      expect((yield* promise(() => runCli(["untrust", "--dir", path.join(dir)], { root }))).stdout).toBe(`${TrustCommand.Messages.untrusted(dir)}\n`)
      expect((yield* promise(() => runCli(["permission", "eval", "edit", "src/a.ts", "--dir", dir], { root }))).stdout).toBe("ask\n")
    }))

  it.live("gives one effect for several resources: any deny wins", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      expect((yield* promise(() => runCli(["permission", "eval", "bash", "ls", "rm -rf x", "--dir", dir], { root }))).stdout).toBe("deny\n")
      expect((yield* promise(() => runCli(["permission", "eval", "bash", "--dir", dir], { root }))).code).toBe(ExitCode.USAGE)
    }))

  it.live("audits: exit 1 with the seed finding, 0 when clean", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project({ permission: [{ action: "edit", resource: "tests/**", effect: "deny" }, { action: "edit", resource: "**", effect: "ask" }] })
      const found = yield* promise(() => runCli(["permission", "audit", "--dir", dir, "--agent", "build"], { root }))
      expect(found.code).toBe(ExitCode.TOOL_FAILED)
      expect(found.stdout.startsWith('build: shadowed-deny: "edit tests/** deny"')).toBe(true)
      const json = yield* promise(() => runCli(["permission", "audit", "--dir", dir, "--json"], { root }))
      expect((JSON.parse(json.stdout) as Array<{ agent: string; kind: string }>).map(({ agent, kind }) => [agent, kind])).toEqual([
        ["build", "shadowed-deny"],
        ["plan", "shadowed-deny"],
      ])
      const clean = yield* project(ASK_BASH)
      expect(yield* promise(() => runCli(["permission", "audit", "--dir", clean.dir], { root: clean.root }))).toEqual({
        code: ExitCode.SUCCESS,
        stdout: `${PermissionCommand.Messages.clean(["build", "plan"])}\n`,
        stderr: "",
      })
    }))
})

describe("toolgate approvals", () => {
  it.live("lists, revokes one and clears the rest", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      for (const command of ["git status", "npm test", "make"]) {
        yield* promise(() => runCli(["call", "shell", JSON.stringify({ command }), "--dir", dir, "--on-ask", "always"], { root, extra: shell }))
      }
      const listed = yield* promise(() => runCli(["approvals", "list", "--dir", dir, "--json"], { root }))
      const approvals = JSON.parse(listed.stdout) as Approvals.Approval[]
      expect(approvals.map((approval) => approval.resource)).toEqual(["git *", "npm *", "make *"])
      const [first] = approvals as [Approvals.Approval]
      expect((yield* promise(() => runCli(["approvals", "revoke", first.id, "--dir", dir], { root }))).stdout).toBe(`${ApprovalsCommand.Messages.revoked(first)}\n`)
      expect(yield* promise(() => runCli(["approvals", "revoke", first.id, "--dir", dir], { root }))).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `${Lookup.Messages.unknown("approval", first.id, dir, [])}\n`,
      })
      expect((yield* promise(() => runCli(["approvals", "clear", "--yes", "--dir", dir], { root }))).stdout).toBe(`${ApprovalsCommand.Messages.cleared(2, dir)}\n`)
      expect((yield* promise(() => runCli(["approvals", "list", "--dir", dir], { root }))).stdout).toBe(`${ApprovalsCommand.Messages.none(dir)}\n`)
      expect((yield* promise(() => runCli(["approvals", "forget", "--dir", dir], { root }))).code).toBe(ExitCode.USAGE)
    }))
})

describe("toolgate bad input", () => {
  it.live("exits 1 naming the database when it is not a database, and leaves the file alone", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const file = path.join(root, "data", "toolgate.db")
      yield* promise(() => mkdir(path.dirname(file), { recursive: true }))
      yield* promise(() => writeFile(file, "not a database".repeat(200)))
      const result = yield* promise(() => runCli(["approvals", "list", "--dir", dir], { root }))
      expect(result).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${Database.Messages.open(file, "file is not a database")}\n` })
      expect(yield* promise(() => readFile(file, "utf8"))).toBe("not a database".repeat(200))
    }))

  it.live("exits 2 for a rule with an unknown effect, naming the file", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project({ permission: [{ action: "bash", resource: "*", effect: "block" }] })
      const result = yield* promise(() => runCli(["permission", "eval", "bash", "ls", "--dir", dir], { root }))
      expect(result).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `Invalid permission rule in ${path.join(dir, "toolgate.json")}: effect must be allow, ask or deny\n` })
    }))
})

describe("toolgate default agent and trust", () => {
  it.live("ignores an untrusted project's default_agent, and honours it once trusted", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const dir = path.join(root, "repo")
      yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
      yield* promise(() => mkdir(path.join(root, ".config", "toolgate"), { recursive: true }))
      yield* promise(() => writeFile(path.join(root, ".config", "toolgate", "toolgate.json"), JSON.stringify({ default_agent: "plan", agent: { yolo: { permission: [{ action: "*", resource: "*", effect: "allow" }] } } })))
      yield* promise(() => writeFile(path.join(dir, "toolgate.json"), JSON.stringify({ default_agent: "yolo" })))
      expect((yield* promise(() => runCli(["permission", "eval", "edit", "a.ts", "--dir", dir], { root }))).stdout).toBe("deny\n")
      yield* promise(() => runCli(["trust", "--dir", dir], { root }))
      expect((yield* promise(() => runCli(["permission", "eval", "edit", "a.ts", "--dir", dir], { root }))).stdout).toBe("allow\n")
    }))
})
