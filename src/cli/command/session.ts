/**
 * `toolgate session list`: the sessions of the project of `--dir`, newest activity first
 * (session/overview.ts says where each column comes from).
 * `toolgate session diff <id>` / `revert <id> <messageID> [--dry-run]` / `unrevert <id>`: what a
 * session changed, and rewinding it. Only files the session's calls wrote are touched, and a
 * file the person changed since is kept and named on a `Conflict:` line; `--dry-run` prints the
 * same report and changes nothing. Only the working tree is rewound (see snapshot/history.ts).
 * `end <id>` ends the session: its session-scoped approvals go and it is denied everything.
 * A session the Location does not know is a usage error (cli/lookup.ts), never "changed nothing".
 * All of them are recovery commands: a broken config file is left out with a warning.
 * `list` shows the project's sessions.
 */
export * as SessionCommand from "./session.js"

import path from "node:path"
import { Effect } from "effect"
import { BytePath } from "../../location/byte-path.js"
import { Project } from "../../project.js"
import type { Runtime } from "../../runtime.js"
import { Session } from "../../session.js"
import { SessionOverview } from "../../session/overview.js"
import { History } from "../../snapshot/history.js"
import type { RevertPlan } from "../../snapshot/revert-plan.js"
import { Snapshot } from "../../snapshot/snapshot.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { KnownSession } from "../known-session.js"
import { CliTable } from "../table.js"
import { CliTime } from "../time.js"

const DONE: Record<Exclude<RevertPlan.Action, "keep">, string> = { restore: "restored", delete: "deleted", recreate: "recreated" }
const REASON: Record<Exclude<RevertPlan.Reason, "large">, string> = { session: "the session's last change to it", revert: "the revert" }

export const Messages = {
  usage:
    "Usage: toolgate session list | toolgate session diff <id> | toolgate session revert <id> <messageID> [--dry-run] | toolgate session unrevert <id> | toolgate session end <id>",
  noChanges: (id: string) => `Session ${id} changed nothing.`,
  change: (file: Snapshot.FileDiff) => `${file.status === "added" ? "A" : file.status === "deleted" ? "D" : "M"} ${BytePath.shown(file.path)} (+${file.additions} -${file.deletions})`,
  reverted: (id: string, message: string) => `Reverted session ${id} to before message ${message}:`,
  dryRun: (id: string, message: string) => `Dry run: reverting session ${id} to before message ${message} would:`,
  unreverted: (id: string) => `Undid the revert of session ${id}:`,
  nothingToRevert: (id: string, message: string) => `Session ${id} has nothing to revert from message ${message} on.`,
  nothingToPutBack: (id: string) => `Session ${id} has nothing to put back.`,
  /** One file a revert writes: `  restored a.txt`, or `  restore a.txt` in a dry run. */
  /** A name that is not UTF-8 is shown with `\xNN` for each byte that is not (location/byte-path.ts). */
  step: (action: Exclude<RevertPlan.Action, "keep">, path: string, dry: boolean) => `  ${dry ? action : DONE[action]} ${BytePath.shown(path)}`,
  conflict: (path: string, reason: Exclude<RevertPlan.Reason, "large">, dry: boolean) => `Conflict: ${dry ? "would keep" : "kept"} your version of ${BytePath.shown(path)}, changed after ${REASON[reason]}`,
  /** A file kept because a version of it the revert would take away or put back is known by its size only. */
  large: (path: string, dry: boolean) =>
    `Cannot revert ${BytePath.shown(path)}: ${dry ? "would keep" : "kept"} it as it is. Untracked files over ${Snapshot.MAX_UNTRACKED_BYTES / 1024 / 1024} MiB, and files toolgate may not read, are snapshotted by size only, so no copy of it was saved to put back.`,
  unchanged: "Dry run: no file was changed.",
  ended: (id: string) => `Ended session ${id}: its session approvals are removed and it is denied everything from now on.`,
  noSessions: (worktree: string) => `No sessions in ${worktree}.`,
  /** The column heads of `session list`. */
  listHeader: ["SESSION", "AGENT", "CREATED", "LAST CALL", "FILES", "ASKS", "STATUS", "LOCATION"],
  /** The ASKS cell: the asks waiting, and those interrupted when there are any (`0 (1 interrupted)`). */
  asks: (summary: SessionOverview.Summary) => (summary.interruptedAsks === 0 ? String(summary.pendingAsks) : `${summary.pendingAsks} (${summary.interruptedAsks} interrupted)`),
  /** One session as a row of `session list`; its Location relative to the project's worktree. */
  listRow: (summary: SessionOverview.Summary, worktree: string): ReadonlyArray<string> => [
    summary.id,
    summary.agent,
    CliTime.format(summary.createdAt),
    summary.lastCallAt === undefined ? "-" : CliTime.format(summary.lastCallAt),
    String(summary.changedFiles),
    Messages.asks(summary),
    summary.endedAt === undefined ? "open" : "ended",
    path.relative(worktree, summary.location) || ".",
  ],
} as const

const ORDER: ReadonlyArray<RevertPlan.Action> = ["restore", "delete", "recreate", "keep"]

const kept = (step: RevertPlan.Step, dry: boolean) => (step.reason === "large" ? Messages.large(step.path, dry) : Messages.conflict(step.path, step.reason ?? "session", dry))

/** The report of a plan: header and one line per written file, then the conflicts. */
export const report = (plan: RevertPlan.Plan, header: string, empty: string, dry: boolean): string => {
  const steps = [...plan].sort((a, b) => ORDER.indexOf(a.action) - ORDER.indexOf(b.action))
  const lines = steps.map((step) => (step.action !== "keep" ? Messages.step(step.action, step.path, dry) : kept(step, dry)))
  const written = steps.some((step) => step.action !== "keep")
  return [written ? header : empty, ...lines, ...(dry && written ? [Messages.unchanged] : [])].join("\n")
}

const list = (parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const { worktree } = yield* Project.Service
    const sessions = yield* SessionOverview.list
    const { io } = environment
    if (parsed.values.json === true) io.stdout(JSON.stringify(sessions, null, 2))
    else if (sessions.length === 0) io.stdout(Messages.noSessions(worktree))
    else io.stdout(CliTable.format([Messages.listHeader, ...sessions.map((summary) => Messages.listRow(summary, worktree))]))
    return ExitCode.SUCCESS
  })

const diff = (id: string, parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    yield* CliLocation.session(id)
    const history = yield* History.Service
    const files = yield* history.diff(id)
    const { io } = environment
    if (parsed.values.json === true) io.stdout(JSON.stringify(files, null, 2))
    else if (files.length === 0) io.stdout(Messages.noChanges(id))
    else io.stdout([...files.map(Messages.change), "", ...files.map((file) => file.patch).filter((patch) => patch !== "")].join("\n"))
    return ExitCode.SUCCESS
  })

const print = (plan: RevertPlan.Plan, text: string, parsed: Command.Parsed, environment: Command.Environment) => {
  environment.io.stdout(parsed.values.json === true ? JSON.stringify(plan, null, 2) : text)
  return ExitCode.SUCCESS
}

const revert = (id: string, message: string, parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    yield* CliLocation.session(id)
    const history = yield* History.Service
    const dry = parsed.values["dry-run"] === true
    const plan = yield* (dry ? history.plan(id, message) : history.revert(id, message))
    return print(plan, report(plan, dry ? Messages.dryRun(id, message) : Messages.reverted(id, message), Messages.nothingToRevert(id, message), dry), parsed, environment)
  })

const unrevert = (id: string, parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    yield* CliLocation.session(id)
    const plan = yield* Effect.flatMap(History.Service, (history) => history.unrevert(id))
    return print(plan, report(plan, Messages.unreverted(id), Messages.nothingToPutBack(id), false), parsed, environment)
  })

const end = (id: string, environment: Command.Environment) =>
  Effect.gen(function* () {
    yield* CliLocation.session(id)
    yield* Effect.flatMap(Session.Service, (sessions) => sessions.end(id))
    environment.io.stdout(Messages.ended(id))
    return ExitCode.SUCCESS
  })

export const run: Command.Run = (parsed, environment) => {
    const [sub, id, message, ...rest] = parsed.positionals
    const dry = parsed.values["dry-run"] === true
    // Recovery commands: a broken config file cannot stop a look at, or a rewind of, what a session did.
    const run = (program: Effect.Effect<ExitCode.ExitCode, History.Error | KnownSession.Error, Runtime.Services>) =>
      CliLocation.run(parsed, environment, program, { recovery: true })
    if (sub === "list" && id === undefined && !dry) return run(list(parsed, environment))
    if (rest.length === 0 && id !== undefined) {
      if (sub === "diff" && message === undefined && !dry) return run(diff(id, parsed, environment))
      if (sub === "revert" && message !== undefined) return run(revert(id, message, parsed, environment))
      if (sub === "unrevert" && message === undefined && !dry) return run(unrevert(id, parsed, environment))
      if (sub === "end" && message === undefined && !dry) return run(end(id, environment))
    }
    environment.io.stderr(Messages.usage)
    return Promise.resolve(ExitCode.USAGE)
  }
