/**
 * The append-only record of every permission decision (allow, deny, ask and the reply to it),
 * so a person can see afterwards what the agent was allowed to do and why: each record keeps the
 * rules that decided it with their sources. An ask and the record of how it ended share a
 * request id; an ask without that second record is still pending in some process (or was left
 * by one that died before it could record the end). Records written before migration 6 have
 * neither rules nor request id.
 */
export * as AuditLog from "./audit-log.js"

import { Clock, Context, Effect, Layer } from "effect"
import { Database } from "../storage/database.js"
import { Id } from "../storage/id.js"
import type { PermissionRule } from "./rule.js"

export type DecidedBy = "rule" | "saved" | "person"

export interface Entry {
  readonly projectID: string
  readonly sessionID?: string
  readonly action: string
  readonly resources: ReadonlyArray<string>
  readonly effect: PermissionRule.Effect
  readonly decidedBy: DecidedBy
  readonly reply?: string
  /** The permission request of an ask, on the ask and on the record of its end. */
  readonly requestID?: string
  /** The rules that decided (for a deny, the denying ones; for an ask, those that did not allow). */
  readonly rules?: ReadonlyArray<PermissionRule.Sourced>
}

export interface Record extends Entry {
  readonly id: string
  readonly at: number
}

export interface Filter {
  readonly sessionID?: string
  /** Only records at or after this time (milliseconds). */
  readonly since?: number
}

/** What the log tells about one session: when it last decided something, and its asks still waiting. */
export interface Activity {
  readonly sessionID: string
  readonly lastAt: number
  readonly pending: number
}

export interface Interface {
  readonly append: (entry: Entry) => Effect.Effect<void>
  /** The project's records, oldest first, optionally of one session or from a time on. */
  readonly list: (projectID: string, filter?: Filter) => Effect.Effect<ReadonlyArray<Record>>
  /** The activity of each session of the project that has records. */
  readonly activity: (projectID: string) => Effect.Effect<ReadonlyArray<Activity>>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/AuditLog") {}

interface Row {
  readonly id: string
  readonly at: number
  readonly project_id: string
  readonly session_id: string | null
  readonly action: string
  readonly resources: string
  readonly effect: PermissionRule.Effect
  readonly decided_by: DecidedBy
  readonly reply: string | null
  readonly request_id: string | null
  readonly rules: string | null
}

/** A rule as stored: what it says and where it came from, nothing a caller added. */
const stored = (rule: PermissionRule.Sourced): PermissionRule.Sourced => ({
  action: rule.action,
  resource: rule.resource,
  effect: rule.effect,
  source: rule.source,
  ...(rule.downgraded === true ? { downgraded: true } : {}),
})

const toRecord = (row: Row): Record => ({
  id: row.id,
  at: row.at,
  projectID: row.project_id,
  ...(row.session_id === null ? {} : { sessionID: row.session_id }),
  action: row.action,
  resources: JSON.parse(row.resources) as string[],
  effect: row.effect,
  decidedBy: row.decided_by,
  ...(row.reply === null ? {} : { reply: row.reply }),
  ...(row.request_id === null ? {} : { requestID: row.request_id }),
  ...(row.rules === null ? {} : { rules: JSON.parse(row.rules) as PermissionRule.Sourced[] }),
})

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const { db } = yield* Database.Service
    const insert = db.prepare<[string, number, string, string | null, string, string, string, string, string | null, string | null, string | null]>(
      "INSERT INTO audit_log (id, at, project_id, session_id, action, resources, effect, decided_by, reply, request_id, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    const select = db.prepare<[string, string | null, string | null, number], Row>(
      "SELECT * FROM audit_log WHERE project_id = ? AND (? IS NULL OR session_id = ?) AND at >= ? ORDER BY at, id",
    )
    // An ask is pending while no record with its request id has a reply (how it ended).
    const activities = db.prepare<[string], { session_id: string; last_at: number; pending: number }>(
      `SELECT session_id, max(at) AS last_at,
        sum(effect = 'ask' AND request_id IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM audit_log AS answer WHERE answer.request_id = audit_log.request_id AND answer.reply IS NOT NULL
        )) AS pending
      FROM audit_log WHERE project_id = ? AND session_id IS NOT NULL GROUP BY session_id`,
    )
    const append = (entry: Entry) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) =>
        Effect.sync(() => {
          insert.run(
            Id.create("aud"),
            at,
            entry.projectID,
            entry.sessionID ?? null,
            entry.action,
            JSON.stringify(entry.resources),
            entry.effect,
            entry.decidedBy,
            entry.reply ?? null,
            entry.requestID ?? null,
            entry.rules === undefined ? null : JSON.stringify(entry.rules.map(stored)),
          )
        }),
      )
    const list = (projectID: string, filter: Filter = {}) =>
      Effect.sync(() => select.all(projectID, filter.sessionID ?? null, filter.sessionID ?? null, filter.since ?? 0).map(toRecord))
    const activity = (projectID: string) =>
      Effect.sync(() => activities.all(projectID).map((row): Activity => ({ sessionID: row.session_id, lastAt: row.last_at, pending: row.pending })))
    return Service.of({ append, list, activity })
  }),
)
