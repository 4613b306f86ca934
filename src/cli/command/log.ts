/**
 * `toolgate log [--session <id>] [--since <time>]`: the audit log of the project of `--dir`,
 * oldest first, as aligned lines or with `--json` as the stored records. An ask shows twice: when
 * it was asked, and how it ended (allow or deny, by a person, a saved approval, or nobody, with
 * the reply; `ask (interrupted)` when the process that asked died waiting). Records written
 * before toolgate kept the deciding rules show `-` for them. A bad
 * `--since` or an unknown session is a usage error (exit 2) and reads nothing.
 */
export * as LogCommand from "./log.js"

import { Effect } from "effect"
import { AuditLog } from "../../permission/audit-log.js"
import { PermissionRule } from "../../permission/rule.js"
import { Project } from "../../project.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { Io } from "../io.js"
import { KnownSession } from "../known-session.js"
import { CliTable } from "../table.js"
import { CliTime } from "../time.js"

/** Where a rule came from, short: `default` for no rule at all. */
const sourceOf = (rule: PermissionRule.Sourced) =>
  `${rule.source.kind === "default" ? "default" : PermissionRule.describeSource(rule.source)}${rule.downgraded === true ? " (not trusted: its allow counts as ask)" : ""}`

/** Who decided a record that names no rule. */
const DECIDER: Readonly<Record<AuditLog.DecidedBy, string>> = { person: "person", saved: "saved approval", rule: "-" }

const unique = (texts: ReadonlyArray<string>) => [...new Set(texts)].join("; ")

export const Messages = {
  usage: "Usage: toolgate log [--session <id>] [--since <time>] [--dir D] [--json]",
  invalidSince: (value: string) =>
    `Invalid --since value: ${value} (expected a UTC date or time such as 2025-06-01 or 2025-06-01T12:00:00Z, or an age such as 30s, 10m, 2h, 3d, 1w)`,
  none: (worktree: string) => `No permission decisions recorded in ${worktree}.`,
  noneMatching: (worktree: string) => `No permission decisions in ${worktree} match --session and --since.`,
  /** An ask that ended without an answer: nobody decided. */
  nobody: "nobody answered",
  /** An ask whose process died before anyone answered (AuditLog.recover ended it). */
  died: "nobody answered: the process that asked died",
  header: ["TIME", "SESSION", "ACTION", "DECISION", "RULE", "SOURCE", "RESOURCES"],
  /** The effect, and for the end of an ask the reply (`allow (once)`, `deny (closed)`). */
  decision: (record: AuditLog.Record) => (record.reply === undefined ? record.effect : `${record.effect} (${record.reply})`),
  /** The deciding rules as `permission eval --explain` and the audit quote them: `"bash rm * deny"`. */
  rule: (record: AuditLog.Record) => (record.rules === undefined || record.rules.length === 0 ? "-" : unique(record.rules.map((rule) => `"${rule.action} ${rule.resource} ${rule.effect}"`))),
  source: (record: AuditLog.Record) => {
    if (record.rules !== undefined && record.rules.length > 0) return unique(record.rules.map(sourceOf))
    // The only records by `rule` with a reply are asks that ended unanswered (closed, interrupted,
    // session ended); an `ask` with a reply is one whose process died (AuditLog.recover).
    if (record.decidedBy !== "rule" || record.reply === undefined) return DECIDER[record.decidedBy]
    return record.effect === "ask" ? Messages.died : Messages.nobody
  },
  row: (record: AuditLog.Record): ReadonlyArray<string> => [
    CliTime.format(record.at),
    record.sessionID ?? "-",
    record.action,
    Messages.decision(record),
    Messages.rule(record),
    Messages.source(record),
    Io.visible(record.resources.join(", ")),
  ],
} as const

const program = (filter: AuditLog.Filter, parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const project = yield* Project.Service
    if (filter.sessionID !== undefined) yield* KnownSession.inProject(filter.sessionID, project.worktree)
    const records = yield* Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id, filter))
    const { io } = environment
    const filtered = filter.sessionID !== undefined || filter.since !== undefined
    if (parsed.values.json === true) io.stdout(JSON.stringify(records, null, 2))
    else if (records.length === 0) io.stdout(filtered ? Messages.noneMatching(project.worktree) : Messages.none(project.worktree))
    else io.stdout(CliTable.format([Messages.header, ...records.map(Messages.row)]))
    return ExitCode.SUCCESS
  })

export const run: Command.Run = (parsed, environment) => {
    const fail = (message: string) => {
      environment.io.stderr(message)
      return Promise.resolve(ExitCode.USAGE)
    }
    if (parsed.positionals.length > 0) return fail(Messages.usage)
    const session = Command.string(parsed, "session")
    const text = Command.string(parsed, "since")
    const since = text === undefined ? undefined : CliTime.since(text, Date.now())
    if (text !== undefined && since === undefined) return fail(Messages.invalidSince(text))
    const filter: AuditLog.Filter = { ...(session === undefined ? {} : { sessionID: session }), ...(since === undefined ? {} : { since }) }
    return CliLocation.run(parsed, environment, program(filter, parsed, environment), { recovery: true })
  }
