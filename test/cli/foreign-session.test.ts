import { mkdir, realpath } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import BetterSqlite3 from "better-sqlite3"
import { Effect } from "effect"
import { LogCommand } from "../../src/cli/command/log.js"
import { SessionCommand } from "../../src/cli/command/session.js"
import { Lookup } from "../../src/cli/lookup.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Session } from "../../src/session.js"
import { promise, runCli } from "../lib/cli.js"
import { makeEcho } from "../lib/echo.js"
import { tmpdir } from "../lib/tmp.js"

const echo = makeEcho()
const SHARED = "ses_shared"

/** Two repositories, `a` (with a subfolder) and `b`, whose CLI runs share one home and data dir. */
const projects = Effect.gen(function* () {
  const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
  const a = path.join(root, "a")
  const b = path.join(root, "b")
  for (const repo of [a, b]) yield* promise(() => mkdir(path.join(repo, ".git"), { recursive: true }))
  yield* promise(() => mkdir(path.join(a, "sub")))
  const cli = (dir: string, ...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", dir], { root, tools: { echo } }))
  const rows = () => {
    const db = new BetterSqlite3(path.join(root, "data", "toolgate.db"), { readonly: true })
    const found = db.prepare("SELECT id, location FROM session WHERE id = ?").all(SHARED)
    db.close()
    return found
  }
  return { a, b, cli, rows }
})

const refused = (message: string) => ({ code: ExitCode.USAGE, stdout: "", stderr: `${message}\n` })

describe("a session id of another project", () => {
  it.live("is refused by call, naming the project it belongs to, and never made a second session", () =>
    Effect.gen(function* () {
      const { a, b, cli, rows } = yield* projects
      expect((yield* cli(a, "call", "echo", '{"text":"in a"}', "--session", SHARED)).code).toBe(ExitCode.SUCCESS)
      const foreign = Session.Messages.foreignProject(SHARED, a)
      expect(foreign).toBe(`Session ses_shared belongs to another project: ${a}`)
      expect(yield* cli(b, "call", "echo", '{"text":"in b"}', "--session", SHARED)).toEqual(refused(foreign))
      const json = yield* cli(b, "call", "echo", '{"text":"in b"}', "--session", SHARED, "--json")
      expect(json).toEqual({ code: ExitCode.USAGE, stdout: `${JSON.stringify({ content: [], structured: null, outputPaths: [], error: foreign })}\n`, stderr: `${foreign}\n` })
      expect(rows()).toEqual([{ id: SHARED, location: a }])
      expect(yield* cli(a, "call", "echo", '{"text":"still a"}', "--session", SHARED)).toEqual({ code: ExitCode.SUCCESS, stdout: "still a\n", stderr: "" })
    }))

  it.live("is refused by session, todo and log the same way, and ending it from there ends nothing", () =>
    Effect.gen(function* () {
      const { a, b, cli } = yield* projects
      yield* cli(a, "call", "echo", '{"text":"in a"}', "--session", SHARED)
      const foreign = refused(Session.Messages.foreignProject(SHARED, a))
      for (const argv of [["session", "diff", SHARED], ["session", "revert", SHARED, "msg_1"], ["session", "unrevert", SHARED], ["session", "end", SHARED], ["todo", SHARED], ["log", "--session", SHARED]])
        expect(yield* cli(b, ...argv)).toEqual(foreign)
      expect(yield* cli(b, "session", "list")).toEqual({ code: ExitCode.SUCCESS, stdout: `${SessionCommand.Messages.noSessions(b)}\n`, stderr: "" })
      expect((yield* cli(a, "call", "echo", '{"text":"not ended"}', "--session", SHARED)).code).toBe(ExitCode.SUCCESS)
    }))

  it.live("of another folder of the same project names that folder; an id no project has is unknown", () =>
    Effect.gen(function* () {
      const { a, cli } = yield* projects
      const sub = path.join(a, "sub")
      yield* cli(a, "call", "echo", '{"text":"in a"}', "--session", SHARED)
      const elsewhere = refused(Session.Messages.locationMismatch(SHARED, a))
      expect(yield* cli(sub, "call", "echo", "{}", "--session", SHARED)).toEqual(elsewhere)
      expect(yield* cli(sub, "session", "diff", SHARED)).toEqual(elsewhere)
      // The log is the project's: a session of any of its folders is known there.
      expect((yield* cli(sub, "log", "--session", SHARED)).code).toBe(ExitCode.SUCCESS)
      expect(yield* cli(a, "session", "diff", "ses_nobody")).toEqual(refused(Lookup.Messages.unknown("session", "ses_nobody", a, [])))
      expect(Lookup.Messages.unknown("session", "ses_nobody", "/w", [])).toBe('Unknown session "ses_nobody" in /w. Run toolgate session list to list them.')
      expect(yield* cli(sub, "log", "--session", "ses_nobody")).toEqual(refused(Lookup.Messages.unknown("session", "ses_nobody", a, [])))
    }))
})
