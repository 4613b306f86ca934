import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SessionCommand } from "../../src/cli/command/session.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import type { Io } from "../../src/cli/io.js"
import { Cli } from "../../src/cli/main.js"
import { CliTable } from "../../src/cli/table.js"
import type { SessionOverview } from "../../src/session/overview.js"
import { promise, runCli } from "../lib/cli.js"
import { ASK_BASH, project, shell } from "../lib/shell-tool.js"

const M = SessionCommand.Messages

/** A promise and the function that settles it (Node 20 has no Promise.withResolvers). */
const deferred = <A>() => {
  const box: { resolve?: (value: A) => void } = {}
  const promise = new Promise<A>((resolve) => (box.resolve = resolve))
  return { promise, resolve: (value: A) => box.resolve?.(value) }
}

/**
 * A call whose ask waits at a terminal prompt until the test answers: the prompt being shown
 * is the signal that the ask is recorded, and `answer` lets the call finish.
 */
const waitingCall = (root: string, dir: string, session: string) => {
  const prompted = deferred<void>()
  const answer = deferred<string | undefined>()
  const io: Io.Io = {
    stdout: () => undefined,
    stderr: () => undefined,
    stdin: () => Promise.resolve(undefined),
    prompt: () => {
      prompted.resolve()
      return answer.promise
    },
    isTTY: true,
    cwd: root,
    env: { HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data") },
  }
  const done = Cli.run(["call", "shell", '{"command":"git push"}', "--dir", dir, "--session", session], { io, extra: shell })
  return { prompted: prompted.promise, answer: (text: string) => answer.resolve(text), done }
}

describe("toolgate session list", () => {
  it.live("says so when the project has no sessions", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project({})
      expect(yield* promise(() => runCli(["session", "list", "--dir", dir], { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: `${M.noSessions(dir)}\n`, stderr: "" })
      expect(M.noSessions("/w")).toBe("No sessions in /w.")
      expect(yield* promise(() => runCli(["session", "list", "--dir", dir, "--json"], { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: "[]\n", stderr: "" })
      expect((yield* promise(() => runCli(["session", "list", "extra", "--dir", dir], { root }))).code).toBe(ExitCode.USAGE)
    }))

  it.live("lists each session with its files and the asks still waiting in a running call, the most recently active first", () =>
    Effect.gen(function* () {
      const { root, dir } = yield* project(ASK_BASH)
      const cli = (...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", dir], { root, extra: shell }))
      const list = Effect.map(cli("session", "list", "--json"), (result) => JSON.parse(result.stdout) as ReadonlyArray<SessionOverview.Summary>)
      for (const [file, message] of [["a.txt", "msg_1"], ["b.txt", "msg_2"], ["a.txt", "msg_3"]] as const)
        expect((yield* cli("call", "write", JSON.stringify({ path: file, content: `${message}\n` }), "--session", "ses_writer", "--message", message, "--on-ask", "once")).code).toBe(ExitCode.SUCCESS)
      const waiting = waitingCall(root, dir, "ses_waiting")
      yield* promise(() => waiting.prompted)

      const [first, second] = yield* list
      expect(first).toEqual({ id: "ses_waiting", agent: "build", location: dir, createdAt: first?.createdAt, lastCallAt: first?.lastCallAt, changedFiles: 0, pendingAsks: 1, interruptedAsks: 0 })
      expect(second).toEqual({ id: "ses_writer", agent: "build", location: dir, createdAt: second?.createdAt, lastCallAt: second?.lastCallAt, changedFiles: 2, pendingAsks: 0, interruptedAsks: 0 })
      expect((second?.lastCallAt ?? 0) >= (second?.createdAt ?? Infinity)).toBe(true)
      const text = yield* cli("session", "list")
      expect(text).toEqual({ code: ExitCode.SUCCESS, stdout: `${CliTable.format([M.listHeader, M.listRow(first as SessionOverview.Summary, dir), M.listRow(second as SessionOverview.Summary, dir)])}\n`, stderr: "" })

      waiting.answer("o")
      expect(yield* promise(() => waiting.done)).toBe(ExitCode.SUCCESS)
      expect((yield* list).map((summary) => [summary.id, summary.pendingAsks])).toEqual([["ses_waiting", 0], ["ses_writer", 0]])
      // A call makes the writer the most recently active again; an ended session says so.
      yield* cli("call", "write", JSON.stringify({ path: "c.txt", content: "c\n" }), "--session", "ses_writer", "--on-ask", "once")
      yield* cli("session", "end", "ses_waiting")
      const after = yield* list
      expect(after.map((summary) => [summary.id, summary.changedFiles, summary.endedAt === undefined])).toEqual([["ses_writer", 3, true], ["ses_waiting", 0, false]])
      expect(M.listRow(after[1] as SessionOverview.Summary, dir)[6]).toBe("ended")
    }))

  it("shows a session as one row: times in UTC, '-' for no call yet, its folder relative to the project", () => {
    const summary: SessionOverview.Summary = { id: "ses_a", agent: "plan", location: "/w/sub", createdAt: Date.UTC(2025, 5, 1, 12, 0, 0), changedFiles: 3, pendingAsks: 1, interruptedAsks: 0 }
    expect(M.listRow(summary, "/w")).toEqual(["ses_a", "plan", "2025-06-01T12:00:00Z", "-", "3", "1", "open", "sub"])
    expect(M.listRow({ ...summary, location: "/w", lastCallAt: Date.UTC(2025, 5, 1, 12, 5, 9, 999), endedAt: 1 }, "/w")).toEqual(["ses_a", "plan", "2025-06-01T12:00:00Z", "2025-06-01T12:05:09Z", "3", "1", "ended", "."])
    expect(CliTable.format([M.listHeader, M.listRow(summary, "/w")])).toBe(
      ["SESSION  AGENT  CREATED               LAST CALL  FILES  ASKS  STATUS  LOCATION", "ses_a    plan   2025-06-01T12:00:00Z  -          3      1     open    sub"].join("\n"),
    )
  })

  it("shows the asks interrupted beside those waiting, only when there are any", () => {
    const summary: SessionOverview.Summary = { id: "ses_a", agent: "plan", location: "/w", createdAt: 0, changedFiles: 0, pendingAsks: 0, interruptedAsks: 2 }
    expect(M.asks(summary)).toBe("0 (2 interrupted)")
    expect(M.asks({ ...summary, pendingAsks: 1, interruptedAsks: 0 })).toBe("1")
    expect(M.listRow(summary, "/w")[5]).toBe("0 (2 interrupted)")
  })
})
