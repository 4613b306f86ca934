/**
 * Saved approvals: what a person allowed "always", per project, in the `permission` table.
 * Each is an `allow` rule appended after every configured rule, so it can turn an ask into an
 * allow but never override a configured deny (evaluate.ts). Storing is idempotent: the table is
 * unique on (project, action, resource), so a pattern saved twice is one approval.
 */
export * as Approvals from "./approvals.js"

import { Clock, Context, Effect, Layer, Schema } from "effect"
import { Database } from "../storage/database.js"
import { Id } from "../storage/id.js"
import type { PermissionRule } from "./rule.js"

export const Messages = {
  notFound: (id: string) => `No saved approval with id ${id}`,
} as const

export interface Approval {
  readonly id: string
  readonly projectID: string
  readonly action: string
  readonly resource: string
  readonly createdAt: number
}

export class NotFoundError extends Schema.TaggedError<NotFoundError>()("Approvals.NotFoundError", { id: Schema.String }) {
  override get message() {
    return Messages.notFound(this.id)
  }
}

export interface Interface {
  /** Saves `action` on each resource pattern; returns the approvals that were new. */
  readonly add: (projectID: string, action: string, resources: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Approval>>
  readonly list: (projectID: string) => Effect.Effect<ReadonlyArray<Approval>>
  /** Removes one approval of the project; an id of another project is not found here. */
  readonly remove: (projectID: string, id: string) => Effect.Effect<Approval, NotFoundError>
  /** Removes every approval of the project; returns how many there were. */
  readonly clear: (projectID: string) => Effect.Effect<number>
  /** The project's approvals as `allow` rules, oldest first. */
  readonly rules: (projectID: string) => Effect.Effect<ReadonlyArray<PermissionRule.Sourced>>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Approvals") {}

interface Row {
  readonly id: string
  readonly project_id: string
  readonly action: string
  readonly resource: string
  readonly created_at: number
}

const toApproval = (row: Row): Approval => ({ id: row.id, projectID: row.project_id, action: row.action, resource: row.resource, createdAt: row.created_at })

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const { db } = yield* Database.Service
    const insert = db.prepare<[string, string, string, string, number]>(
      "INSERT OR IGNORE INTO permission (id, project_id, action, resource, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    const select = db.prepare<[string], Row>("SELECT * FROM permission WHERE project_id = ? ORDER BY created_at, id")
    const one = db.prepare<[string], Row>("SELECT * FROM permission WHERE id = ?")
    const removeOne = db.prepare<[string]>("DELETE FROM permission WHERE id = ?")
    const removeAll = db.prepare<[string]>("DELETE FROM permission WHERE project_id = ?")

    const add = Effect.fn("Approvals.add")(function* (projectID: string, action: string, resources: ReadonlyArray<string>) {
      const now = yield* Clock.currentTimeMillis
      const added = db.transaction(() =>
        [...new Set(resources)].flatMap((resource) => {
          const id = Id.create("psv")
          return insert.run(id, projectID, action, resource, now).changes === 1 ? [{ id, projectID, action, resource, createdAt: now }] : []
        }),
      )()
      return added
    })

    const list = (projectID: string) => Effect.sync(() => select.all(projectID).map(toApproval))

    const remove = Effect.fn("Approvals.remove")(function* (projectID: string, id: string) {
      const row = one.get(id)
      if (row === undefined || row.project_id !== projectID) return yield* new NotFoundError({ id })
      removeOne.run(id)
      return toApproval(row)
    })

    const clear = (projectID: string) => Effect.sync(() => removeAll.run(projectID).changes)

    const rules = (projectID: string) =>
      Effect.sync(() =>
        select.all(projectID).map((row): PermissionRule.Sourced => ({ action: row.action, resource: row.resource, effect: "allow", source: { kind: "saved", id: row.id } })),
      )

    return Service.of({ add, list, remove, clear, rules })
  }),
)
