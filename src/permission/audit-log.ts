/**
 * The append-only record of every permission decision (allow, deny, ask and the reply to it),
 * so a person can see afterwards what the agent was allowed to do and why.
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
}

export interface Record extends Entry {
  readonly id: string
  readonly at: number
}

export interface Interface {
  readonly append: (entry: Entry) => Effect.Effect<void>
  /** The project's records, oldest first. */
  readonly list: (projectID: string) => Effect.Effect<ReadonlyArray<Record>>
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
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const { db } = yield* Database.Service
    const insert = db.prepare<[string, number, string, string | null, string, string, string, string, string | null]>(
      "INSERT INTO audit_log (id, at, project_id, session_id, action, resources, effect, decided_by, reply) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    const select = db.prepare<[string], Row>("SELECT * FROM audit_log WHERE project_id = ? ORDER BY at, id")
    const append = (entry: Entry) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) =>
        Effect.sync(() => {
          insert.run(Id.create("aud"), at, entry.projectID, entry.sessionID ?? null, entry.action, JSON.stringify(entry.resources), entry.effect, entry.decidedBy, entry.reply ?? null)
        }),
      )
    const list = (projectID: string) =>
      Effect.sync(() =>
        select.all(projectID).map((row): Record => ({
          id: row.id,
          at: row.at,
          projectID: row.project_id,
          ...(row.session_id === null ? {} : { sessionID: row.session_id }),
          action: row.action,
          resources: JSON.parse(row.resources) as string[],
          effect: row.effect,
          decidedBy: row.decided_by,
          ...(row.reply === null ? {} : { reply: row.reply }),
        })),
      )
    return Service.of({ append, list })
  }),
)
