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
import { Database } from "../storage/database.js"
import { Id } from "../storage/id.js"
import { PermissionRequest } from "./request.js"
import type { PermissionRule } from "./rule.js"

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
export const projectOf = (id: string): Effect.Effect<string | undefined, never, Database.Service> =>
  Effect.map(Database.Service, ({ db }) => db.prepare<[string, string], Row>(`${PROJECT_ROWS} WHERE id = ? UNION ALL ${SESSION_ROWS} WHERE a.id = ?`).get(id, id)?.project_id)

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const { db } = yield* Database.Service
    const bus = yield* Bus.Service
    const insertProject = db.prepare<[string, string, string, string, number]>(
      "INSERT OR IGNORE INTO permission (id, project_id, action, resource, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    const insertSession = db.prepare<[string, string, string, string, number]>(
      "INSERT OR IGNORE INTO session_approval (id, session_id, action, resource, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    const ofProject = db.prepare<[string], Row>(`${PROJECT_ROWS} WHERE project_id = ? ORDER BY created_at, id`)
    const ofSessions = db.prepare<[string], Row>(`${SESSION_ROWS} WHERE s.project_id = ? ORDER BY a.created_at, a.id`)
    // An ended session's approvals are gone already; the check keeps a stray row from counting.
    const ofSession = db.prepare<[string, string], Row>(`${SESSION_ROWS} WHERE s.project_id = ? AND a.session_id = ? AND s.ended_at IS NULL ORDER BY a.created_at, a.id`)
    const oneProject = db.prepare<[string], Row>(`${PROJECT_ROWS} WHERE id = ?`)
    const oneSession = db.prepare<[string], Row>(`${SESSION_ROWS} WHERE a.id = ?`)
    const removeProject = db.prepare<[string]>("DELETE FROM permission WHERE id = ?")
    const removeSession = db.prepare<[string]>("DELETE FROM session_approval WHERE id = ?")
    const clearProject = db.prepare<[string]>("DELETE FROM permission WHERE project_id = ?")
    const clearSessions = db.prepare<[string]>("DELETE FROM session_approval WHERE session_id IN (SELECT id FROM session WHERE project_id = ?)")

    const add = Effect.fn("Approvals.add")(function* (projectID: string, action: string, resources: ReadonlyArray<string>, sessionID?: string) {
      const now = yield* Clock.currentTimeMillis
      const insert = sessionID === undefined ? insertProject : insertSession
      const added = db.transaction(() =>
        [...new Set(resources)].flatMap((resource) => {
          const id = Id.create("psv")
          if (insert.run(id, sessionID ?? projectID, action, resource, now).changes !== 1) return []
          return [toApproval({ id, project_id: projectID, session_id: sessionID ?? null, action, resource, created_at: now })]
        }),
      )()
      yield* Effect.forEach(added, (approval) => bus.publish(Saved, approval), { discard: true })
      return added
    })

    const list = (projectID: string) => Effect.sync(() => [...ofProject.all(projectID), ...ofSessions.all(projectID)].map(toApproval))

    const remove = Effect.fn("Approvals.remove")(function* (projectID: string, id: string) {
      const row = oneProject.get(id) ?? oneSession.get(id)
      if (row === undefined || row.project_id !== projectID) return yield* new NotFoundError({ id })
      const statement = row.session_id === null ? removeProject : removeSession
      statement.run(id)
      const approval = toApproval(row)
      yield* bus.publish(Revoked, approval)
      return approval
    })

    const clear = Effect.fn("Approvals.clear")(function* (projectID: string) {
      const removed = db.transaction(() => {
        const rows = [...ofProject.all(projectID), ...ofSessions.all(projectID)]
        clearProject.run(projectID)
        clearSessions.run(projectID)
        return rows.map(toApproval)
      })()
      yield* Effect.forEach(removed, (approval) => bus.publish(Revoked, approval), { discard: true })
      return removed.length
    })

    const rules = (projectID: string, sessionID?: string) =>
      Effect.sync(() => [...ofProject.all(projectID), ...(sessionID === undefined ? [] : ofSession.all(projectID, sessionID))].map(toRule))

    return Service.of({ add, list, remove, clear, rules })
  }),
)
