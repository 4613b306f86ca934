/**
 * A crash at a prompt (issue 17, item 6): the built executable (`dist/`, made by `npm test`
 * before vitest runs) waits at its permission prompt in a real pseudo-terminal (util-linux
 * `script`), and is SIGKILLed there, so nothing of it runs again: no reply, no finalizer. The
 * next toolgate processes must show the ask as interrupted, no longer waiting, with the session,
 * its saved approvals and the database as they were. Synchronised by output, never by time.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import BetterSqlite3 from "better-sqlite3"
import { Effect } from "effect"
import { SessionCommand } from "../../src/cli/command/session.js"
import { LogCommand } from "../../src/cli/command/log.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { OnAsk } from "../../src/cli/on-ask.js"
import { CliTable } from "../../src/cli/table.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import type { SessionOverview } from "../../src/session/overview.js"
import { project } from "../lib/shell-tool.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")
const SCRIPT = "/usr/bin/script"

const environment = (root: string) => ({ PATH: process.env.PATH, HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data"), ...OWN_PROCESS })

/** Another toolgate process, run to its end. */
const toolgate = (root: string, args: ReadonlyArray<string>) => {
  const result = spawnSync(process.execPath, [bin, ...args], { env: environment(root), encoding: "utf8" })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const json = <A>(root: string, args: ReadonlyArray<string>) => JSON.parse(toolgate(root, [...args, "--json"]).stdout) as A

/**
 * `toolgate <args>` in a pseudo-terminal, resolved once `text` has appeared in what it shows;
 * the terminal (and what runs in it) is killed when the test's scope closes.
 */
const atPrompt = (root: string, args: ReadonlyArray<string>, text: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const env = { ...environment(root), SHELL: "/bin/sh", TOOLGATE_PTY_NODE: process.execPath, TOOLGATE_PTY_BIN: bin, ...Object.fromEntries(args.map((arg, index) => [`TOOLGATE_PTY_ARG${index}`, arg])) }
      const command = `exec "$TOOLGATE_PTY_NODE" "$TOOLGATE_PTY_BIN" ${args.map((_, index) => `"$TOOLGATE_PTY_ARG${index}"`).join(" ")}`
      const terminal = spawn(SCRIPT, ["-q", "-e", "-c", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] })
      const shown: string[] = []
      const closed = new Promise<void>((resolve) => terminal.on("close", () => resolve()))
      const prompted = new Promise<void>((resolve, reject) => {
        terminal.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          shown.push(chunk)
          if (shown.join("").includes(text)) resolve()
        })
        terminal.on("close", () => reject(new Error(`the terminal closed before the prompt: ${shown.join("")}`)))
      })
      return { terminal, closed, prompted }
    }),
    ({ terminal }) => Effect.sync(() => (terminal.exitCode === null && terminal.signalCode === null ? terminal.kill("SIGKILL") : true)),
  )

/** The toolgate process inside the terminal: `script`'s only child (its shell exec'd node). */
const childOf = (pid: number) => Number(execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).trim())

const integrity = (root: string) => {
  const db = new BetterSqlite3(path.join(root, "data", "toolgate.db"), { readonly: true })
  const result = db.pragma("integrity_check")
  db.close()
  return result
}

describe.skipIf(!existsSync(SCRIPT))("toolgate call killed with SIGKILL while its ask waits", () => {
  it.live(
    "leaves the next processes an ask shown as interrupted, and the session, its saved approvals and the database intact",
    () =>
      Effect.gen(function* () {
        const { root, dir } = yield* project({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })
        const call = (file: string, ...flags: ReadonlyArray<string>) => ["call", "write", JSON.stringify({ path: file, content: "new\n" }), "--dir", dir, "--session", "ses_crash", ...flags]
        expect(toolgate(root, call("saved.txt", "--on-ask", "always")).code).toBe(ExitCode.SUCCESS)
        const approvals = toolgate(root, ["approvals", "list", "--dir", dir, "--json"])

        const { terminal, closed, prompted } = yield* atPrompt(root, call("b.txt"), OnAsk.Messages.question)
        yield* Effect.promise(() => prompted)
        const pid = childOf(terminal.pid as number)
        // While its process lives, another process leaves the ask waiting.
        const waiting = json<ReadonlyArray<SessionOverview.Summary>>(root, ["session", "list", "--dir", dir])
        expect(waiting.map(({ id, pendingAsks, interruptedAsks }) => ({ id, pendingAsks, interruptedAsks }))).toEqual([{ id: "ses_crash", pendingAsks: 1, interruptedAsks: 0 }])

        process.kill(pid, "SIGKILL")
        yield* Effect.promise(() => closed)

        const records = json<ReadonlyArray<AuditLog.Record>>(root, ["log", "--dir", dir])
        const [asked, ended] = records.slice(-2)
        expect(records.map((record) => [record.resources[0], LogCommand.Messages.decision(record), LogCommand.Messages.source(record)]).slice(-2)).toEqual([
          ["b.txt", "ask", `${path.join(dir, "toolgate.json")} permission[0]`],
          ["b.txt", "ask (interrupted)", LogCommand.Messages.died],
        ])
        expect(asked?.owner?.pid).toBe(pid)
        expect(ended?.requestID).toBe(asked?.requestID)
        expect(ended?.reply).toBe(AuditLog.INTERRUPTED)
        expect(toolgate(root, ["log", "--dir", dir])).toEqual({ code: ExitCode.SUCCESS, stdout: `${CliTable.format([LogCommand.Messages.header, ...records.map(LogCommand.Messages.row)])}\n`, stderr: "" })
        // Ended once: a later process finds nothing more to end.
        expect(json<ReadonlyArray<AuditLog.Record>>(root, ["log", "--dir", dir])).toEqual(records)

        const sessions = json<ReadonlyArray<SessionOverview.Summary>>(root, ["session", "list", "--dir", dir])
        expect(sessions.map(({ id, agent, changedFiles, pendingAsks, interruptedAsks, endedAt }) => ({ id, agent, changedFiles, pendingAsks, interruptedAsks, endedAt }))).toEqual([
          { id: "ses_crash", agent: "build", changedFiles: 1, pendingAsks: 0, interruptedAsks: 1, endedAt: undefined },
        ])
        expect(toolgate(root, ["session", "list", "--dir", dir]).stdout).toBe(`${CliTable.format([SessionCommand.Messages.listHeader, SessionCommand.Messages.listRow(sessions[0] as SessionOverview.Summary, dir)])}\n`)
        expect(SessionCommand.Messages.listRow(sessions[0] as SessionOverview.Summary, dir)[5]).toBe("0 (1 interrupted)")
        expect(toolgate(root, ["approvals", "list", "--dir", dir, "--json"])).toEqual(approvals)
        expect(JSON.parse(approvals.stdout)).toHaveLength(1)
        expect(integrity(root)).toEqual([{ integrity_check: "ok" }])
        expect(existsSync(path.join(dir, "b.txt"))).toBe(false)
        // The session goes on: its saved approval still lets it write without asking.
        expect(toolgate(root, call("saved.txt", "--on-ask", "reject")).code).toBe(ExitCode.SUCCESS)
      }),
    60_000,
  )
})
