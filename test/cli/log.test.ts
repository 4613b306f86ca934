import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LogCommand } from "../../src/cli/command/log.js"
import { Lookup } from "../../src/cli/lookup.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { CliTable } from "../../src/cli/table.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import { promise, runCli } from "../lib/cli.js"
import { ASK_BASH, project, shell } from "../lib/shell-tool.js"

const M = LogCommand.Messages

/** A project whose toolgate.json asks every command and denies `rm *`, and the CLI in it. */
const setup = Effect.gen(function* () {
  const { root, dir } = yield* project(ASK_BASH)
  const cli = (...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", dir], { root, extra: shell }))
  const run = (session: string, command: string, onAsk: string) => cli("call", "shell", JSON.stringify({ command }), "--session", session, "--on-ask", onAsk)
  const records = (...argv: ReadonlyArray<string>) => Effect.map(cli("log", "--json", ...argv), (result) => JSON.parse(result.stdout) as ReadonlyArray<AuditLog.Record>)
  return { dir, cli, run, records }
})

describe("toolgate log", () => {
  it.live("prints each decision oldest first with its reply, deciding rule and where that rule comes from", () =>
    Effect.gen(function* () {
      const { dir, cli, run, records } = yield* setup
      const file = path.join(dir, "toolgate.json")
      expect((yield* run("ses_a", "rm -rf build", "once")).code).toBe(ExitCode.BLOCKED)
      expect((yield* run("ses_a", "git status", "once")).code).toBe(ExitCode.SUCCESS)
      expect((yield* run("ses_b", "make", "reject")).code).toBe(ExitCode.DECLINED)
      expect((yield* run("ses_b", "npm test", "always")).code).toBe(ExitCode.SUCCESS)
      expect((yield* run("ses_b", "npm run build", "reject")).code).toBe(ExitCode.SUCCESS)

      const log = yield* records()
      const saved = log.at(-1)?.rules?.[0]?.source
      expect(saved?.kind).toBe("saved")
      expect(log.map((record) => [record.sessionID, record.action, M.decision(record), M.rule(record), M.source(record), record.resources])).toEqual([
        ["ses_a", "bash", "deny", '"bash rm * deny"', `${file} permission[1]`, ["rm -rf build"]],
        ["ses_a", "bash", "ask", '"bash * ask"', `${file} permission[0]`, ["git status"]],
        ["ses_a", "bash", "allow (once)", "-", "person", ["git status"]],
        ["ses_b", "bash", "ask", '"bash * ask"', `${file} permission[0]`, ["make"]],
        ["ses_b", "bash", "deny (reject)", "-", "person", ["make"]],
        ["ses_b", "bash", "ask", '"bash * ask"', `${file} permission[0]`, ["npm test"]],
        ["ses_b", "bash", "allow (always)", "-", "person", ["npm test"]],
        ["ses_b", "bash", "allow", '"bash npm * allow"', `saved approval ${saved?.kind === "saved" ? saved.id : ""}`, ["npm run build"]],
      ])
      // An ask and the record of its answer share the request id.
      expect(log[1]?.requestID).toMatch(/^per_/)
      expect(log[2]?.requestID).toBe(log[1]?.requestID)
      expect(yield* cli("log")).toEqual({ code: ExitCode.SUCCESS, stdout: `${CliTable.format([M.header, ...log.map(M.row)])}\n`, stderr: "" })
      expect(M.row(log[0] as AuditLog.Record).slice(1)).toEqual(["ses_a", "bash", "deny", '"bash rm * deny"', `${file} permission[1]`, "rm -rf build"])

      expect((yield* records("--session", "ses_a")).map((record) => record.resources[0])).toEqual(["rm -rf build", "git status", "git status"])
      expect(yield* records("--since", "1h")).toEqual(log)
      expect(yield* records("--since", new Date((log.at(-1)?.at ?? 0) + 1_000).toISOString())).toEqual([])
      expect(yield* cli("log", "--since", "2999-01-01")).toEqual({ code: ExitCode.SUCCESS, stdout: `${M.noneMatching(dir)}\n`, stderr: "" })
    }))

  it.live("says so when nothing was decided, and refuses a bad --since or an unknown session with exit 2", () =>
    Effect.gen(function* () {
      const { dir, cli } = yield* setup
      expect(yield* cli("log")).toEqual({ code: ExitCode.SUCCESS, stdout: `${M.none(dir)}\n`, stderr: "" })
      expect(yield* cli("log", "--json")).toEqual({ code: ExitCode.SUCCESS, stdout: "[]\n", stderr: "" })
      expect(yield* cli("log", "--since", "yesterday")).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${M.invalidSince("yesterday")}\n` })
      expect(M.invalidSince("yesterday")).toBe(
        "Invalid --since value: yesterday (expected a UTC date or time such as 2025-06-01 or 2025-06-01T12:00:00Z, or an age such as 30s, 10m, 2h, 3d, 1w)",
      )
      expect(yield* cli("log", "--session", "ses_nobody")).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Lookup.Messages.unknown("session", "ses_nobody", dir, [])}\n` })
      expect(yield* cli("log", "extra")).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${M.usage}\n` })
      expect(M.none("/w")).toBe("No permission decisions recorded in /w.")
      expect(M.noneMatching("/w")).toBe("No permission decisions in /w match --session and --since.")
    }))

  it("names who ended an ask nobody answered, the rules a record predates, and a project allow not yet trusted", () => {
    const base: AuditLog.Record = { id: "aud_1", at: 0, projectID: "prj_1", sessionID: "ses_a", action: "bash", resources: ["make", "a\nb"], effect: "deny", decidedBy: "rule", reply: "closed" }
    expect([M.decision(base), M.rule(base), M.source(base)]).toEqual(["deny (closed)", "-", M.nobody])
    expect(M.nobody).toBe("nobody answered")
    const old: AuditLog.Record = { ...base, effect: "allow", reply: undefined }
    expect([M.decision(old), M.rule(old), M.source(old)]).toEqual(["allow", "-", "-"])
    const untrusted: AuditLog.Record = {
      ...old,
      effect: "ask",
      rules: [{ action: "bash", resource: "*", effect: "ask", source: { kind: "config", file: "/w/toolgate.json", scope: "project", index: 0 }, downgraded: true }, { action: "bash", resource: "*", effect: "ask", source: { kind: "default" } }],
    }
    expect([M.rule(untrusted), M.source(untrusted)]).toEqual(['"bash * ask"', "/w/toolgate.json permission[0] (not trusted: its allow counts as ask); default"])
    expect(M.row({ ...old, sessionID: undefined })).toEqual(["1970-01-01T00:00:00Z", "-", "bash", "allow", "-", "-", "make, a\\u000ab"])
  })

  it("shows an ask whose process died as interrupted, answered by nobody, apart from one interrupted by a signal", () => {
    const died: AuditLog.Record = { id: "aud_2", at: 0, projectID: "prj_1", sessionID: "ses_a", action: "edit", resources: ["a.txt"], effect: "ask", decidedBy: "rule", reply: AuditLog.INTERRUPTED, requestID: "per_1" }
    expect([M.decision(died), M.rule(died), M.source(died)]).toEqual(["ask (interrupted)", "-", M.died])
    expect(M.died).toBe("nobody answered: the process that asked died")
    expect([M.decision({ ...died, effect: "deny" }), M.source({ ...died, effect: "deny" })]).toEqual(["deny (interrupted)", M.nobody])
  })
})
