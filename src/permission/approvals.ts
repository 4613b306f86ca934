/**
 * Saved approvals: what a person allowed "always". Scope `project` lives in the `permission`
 * table until revoked; scope `session` lives in `session_approval`, beside its session, and goes
 * when the session ends (session.ts). Each is an `allow` rule appended after every configured
 * rule, the project's first and then the session's, so it can turn an ask into an allow but never
 * override a configured deny (evaluate.ts). Storing is idempotent: each table is unique on
 * (project or session, action, resource), so a pattern saved twice is one approval. Each
 * approval saved publishes `approval.saved`; each one removed (`remove`, `clear`) publishes
 * `approval.revoked`. Approvals a session's end removes (session.ts) publish nothing: that
 * session is over, and its approvals with it.
 */
export * as Approvals from "./approvals.js"

import { Clock, Context, Effect, Layer, Schema } from "effect"
import { Bus } from "../bus.js"
import { Id } from "../storage/id.js"
import { Sql } from "../storage/sql.js"
import { PermissionRequest } from "./request.js"
import type { PermissionRule } from "./rule.js"
import { Tracing } from "../tracing.js"

export const Messages = {
  notFound: (id: string) => `No saved approval with id ${id}`,
} as const

export const Approval = Schema.Struct({
  id: Schema.String,
  projectID: Schema.String,
  /** `session`: held for `sessionID` while it exists; `project`: saved until revoked. */
  scope: Schema.Literals(PermissionRequest.SCOPES),
  sessionID: Schema.optionalKey(Schema.String),
  action: Schema.String,
  resource: Schema.String,
  createdAt: Schema.Number,
}).annotate({ identifier: "Approvals.Approval" })
export type Approval = typeof Approval.Type

/** Published once for each approval `add` saved (a pattern saved already publishes nothing). */
export const Saved = Bus.event("approval.saved", Approval)
/** Published once for each approval removed: by `remove`, and by `clear` for every one it removed. */
export const Revoked = Bus.event("approval.revoked", Approval)

export class NotFoundError extends Schema.TaggedError<NotFoundError>()("Approvals.NotFoundError", { id: Schema.String }) {
  override get message() {
    return Messages.notFound(this.id)
  }
}

export interface Interface {
  /**
   * Saves `action` on each resource pattern, for the project, or for `sessionID` only when given;
   * returns the approvals that were new.
   */
  readonly add: (projectID: string, action: string, resources: ReadonlyArray<string>, sessionID?: string) => Effect.Effect<ReadonlyArray<Approval>>
  /** The project's approvals, then those of its sessions, each oldest first. */
  readonly list: (projectID: string) => Effect.Effect<ReadonlyArray<Approval>>
  /** Removes one approval of the project (or of one of its sessions); an id of another project is not found here. */
  readonly remove: (projectID: string, id: string) => Effect.Effect<Approval, NotFoundError>
  /** Removes every approval of the project and its sessions; returns how many there were. */
  readonly clear: (projectID: string) => Effect.Effect<number>
  /** The project's approvals as `allow` rules, oldest first, then (with `sessionID`) that session's. */
  readonly rules: (projectID: string, sessionID?: string) => Effect.Effect<ReadonlyArray<PermissionRule.Sourced>>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Approvals") {}

interface Row {
  readonly id: string
  readonly project_id: string
  readonly session_id: string | null
  readonly action: string
  readonly resource: string
  readonly created_at: number
}

const toApproval = (row: Row): Approval => ({
  id: row.id,
  projectID: row.project_id,
  ...(row.session_id === null ? { scope: "project" as const } : { scope: "session" as const, sessionID: row.session_id }),
  action: row.action,
  resource: row.resource,
  createdAt: row.created_at,
})

const toRule = (row: Row): PermissionRule.Sourced => ({ action: row.action, resource: row.resource, effect: "allow", source: { kind: "saved", id: row.id } })

const PROJECT_ROWS = "SELECT id, project_id, NULL AS session_id, action, resource, created_at FROM permission"
const SESSION_ROWS =
  "SELECT a.id, s.project_id, a.session_id, a.action, a.resource, a.created_at FROM session_approval a JOIN session s ON s.id = a.session_id"

/** The project an approval (of either scope) belongs to, or undefined: how a server hosting many projects finds it. */
export const projectOf = (id: string): Effect.Effect<string | undefined, never, Sql.Service> =>
  Effect.flatMap(Sql.Service, (sql) => Effect.map(sql.get<Row>(`${PROJECT_ROWS} WHERE id = ? UNION ALL ${SESSION_ROWS} WHERE a.id = ?`, [id, id]), (row) => row?.project_id))

const OF_PROJECT = `${PROJECT_ROWS} WHERE project_id = ? ORDER BY created_at, id`
const OF_SESSIONS = `${SESSION_ROWS} WHERE s.project_id = ? ORDER BY a.created_at, a.id`
// The project's approvals, then one session's, in one statement: every decision reads them. An
// ended session's approvals are gone already; the check keeps a stray row from counting.
const RULES = `SELECT 0 AS part, id, action, resource, created_at FROM permission WHERE project_id = ?
  UNION ALL SELECT 1 AS part, a.id, a.action, a.resource, a.created_at FROM session_approval a JOIN session s ON s.id = a.session_id
  WHERE s.project_id = ? AND a.session_id = ? AND s.ended_at IS NULL
  ORDER BY part, created_at, id`
const INSERT_PROJECT = "INSERT INTO permission (id, project_id, action, resource, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
const INSERT_SESSION = "INSERT INTO session_approval (id, session_id, action, resource, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const sql = yield* Sql.Service
    const bus = yield* Bus.Service
    const all = (projectID: string) => Effect.zipWith(sql.all<Row>(OF_PROJECT, [projectID]), sql.all<Row>(OF_SESSIONS, [projectID]), (project, sessions) => [...project, ...sessions])

    const add = Tracing.fn("Approvals.add")(function* (projectID: string, action: string, resources: ReadonlyArray<string>, sessionID?: string) {
      const now = yield* Clock.currentTimeMillis
      const insert = sessionID === undefined ? INSERT_PROJECT : INSERT_SESSION
      const added = yield* sql.transaction(
        Effect.forEach([...new Set(resources)], (resource) => {
          const id = Id.create("psv")
          return Effect.map(sql.run(insert, [id, sessionID ?? projectID, action, resource, now]), ({ changes }) =>
            changes !== 1 ? [] : [toApproval({ id, project_id: projectID, session_id: sessionID ?? null, action, resource, created_at: now })],
          )
        }),
      ).pipe(Effect.map((lists) => lists.flat()))
      yield* Effect.forEach(added, (approval) => bus.publish(Saved, approval), { discard: true })
      return added
    })

    const list = (projectID: string) => Effect.map(all(projectID), (rows) => rows.map(toApproval))

    const remove = Tracing.fn("Approvals.remove")(function* (projectID: string, id: string) {
      const row = (yield* sql.get<Row>(`${PROJECT_ROWS} WHERE id = ?`, [id])) ?? (yield* sql.get<Row>(`${SESSION_ROWS} WHERE a.id = ?`, [id]))
      if (row === undefined || row.project_id !== projectID) return yield* new NotFoundError({ id })
      yield* sql.run(row.session_id === null ? "DELETE FROM permission WHERE id = ?" : "DELETE FROM session_approval WHERE id = ?", [id])
      const approval = toApproval(row)
      yield* bus.publish(Revoked, approval)
      return approval
    })

    const clear = Tracing.fn("Approvals.clear")(function* (projectID: string) {
      const removed = yield* sql.transaction(
        Effect.gen(function* () {
          const rows = yield* all(projectID)
          yield* sql.run("DELETE FROM permission WHERE project_id = ?", [projectID])
          yield* sql.run("DELETE FROM session_approval WHERE session_id IN (SELECT id FROM session WHERE project_id = ?)", [projectID])
          return rows.map(toApproval)
        }),
      )
      yield* Effect.forEach(removed, (approval) => bus.publish(Revoked, approval), { discard: true })
      return removed.length
    })

    const rules = (projectID: string, sessionID?: string) =>
      Effect.map(sessionID === undefined ? sql.all<Row>(OF_PROJECT, [projectID]) : sql.all<Row>(RULES, [projectID, projectID, sessionID]), (rows) => rows.map(toRule))

    return Service.of({ add, list, remove, clear, rules })
  }),
)
