/**
 * Sessions: one conversation of one agent in one Location, stored so that a later call with the
 * same id (`--session`) runs under the same agent and session rules. A session's agent is fixed
 * when it is created; asking for it under another agent is an error, not a silent switch of
 * rights. `end` closes a session for good: its pending asks end unanswered, its session-scoped
 * approvals go, it is denied everything from then on, and its id cannot be taken up again.
 * An id names one session across every project sharing the data directory (the table's primary
 * key): another project's id is refused, naming that project, and never made a second session.
 * Creating one publishes `session.created`.
 */
export * as Session from "./session.js"

import { Clock, Context, Effect, Layer, Schema } from "effect"
import { Bus } from "./bus.js"
import { Interaction } from "./interaction/interaction.js"
import { InteractionStore } from "./interaction/store.js"
import { Location } from "./location/location.js"
import { PermissionRule } from "./permission/rule.js"
import { PermissionRuleSpellings } from "./permission/rule-spellings.js"
import { Project } from "./project.js"
import { Id } from "./storage/id.js"
import { Sql } from "./storage/sql.js"
import { Tracing } from "./tracing.js"

export const Messages = {
  agentMismatch: (id: string, stored: string, requested: string) => `Session ${id} belongs to agent ${stored}, not ${requested}`,
  locationMismatch: (id: string, location: string) => `Session ${id} belongs to another working directory: ${location}`,
  foreignProject: (id: string, worktree: string) => `Session ${id} belongs to another project: ${worktree}`,
  ended: (id: string) => `Session ${id} has ended; start a new session`,
} as const

export interface Info {
  readonly id: string
  readonly projectID: string
  readonly location: string
  readonly agent: string
  /** Rules the session was created with, after the agent's configured rules. */
  readonly rules: ReadonlyArray<PermissionRule.Sourced>
  readonly createdAt: number
  /** When the session ended; an ended session is denied everything. */
  readonly endedAt?: number
}

/** Published when `ensure` creates a session; taking an existing one up again publishes nothing. */
export const Created = Bus.event("session.created", Schema.Struct({ sessionID: Schema.String, agent: Schema.String, directory: Schema.String }))

export class AgentMismatchError extends Schema.TaggedError<AgentMismatchError>()("Session.AgentMismatchError", {
  id: Schema.String,
  stored: Schema.String,
  requested: Schema.String,
}) {
  override get message() {
    return Messages.agentMismatch(this.id, this.stored, this.requested)
  }
}

export class LocationMismatchError extends Schema.TaggedError<LocationMismatchError>()("Session.LocationMismatchError", {
  id: Schema.String,
  location: Schema.String,
}) {
  override get message() {
    return Messages.locationMismatch(this.id, this.location)
  }
}

export class ForeignProjectError extends Schema.TaggedError<ForeignProjectError>()("Session.ForeignProjectError", {
  id: Schema.String,
  worktree: Schema.String,
}) {
  override get message() {
    return Messages.foreignProject(this.id, this.worktree)
  }
}

export class EndedError extends Schema.TaggedError<EndedError>()("Session.EndedError", { id: Schema.String }) {
  override get message() {
    return Messages.ended(this.id)
  }
}

export interface EnsureInput {
  /** Reuse this session, or create it with this id; a new id when absent. */
  readonly id?: string
  readonly agent: string
  readonly rules?: ReadonlyArray<PermissionRule.Rule>
}

export interface Interface {
  readonly ensure: (input: EnsureInput) => Effect.Effect<Info, AgentMismatchError | LocationMismatchError | ForeignProjectError | EndedError>
  /** The session if it was created in this Location; a session of another Location is unknown here. */
  readonly get: (id: string) => Effect.Effect<Info | undefined>
  /** The session of this project, in any of its Locations; undefined when no project has it. */
  readonly lookup: (id: string) => Effect.Effect<Info | undefined, ForeignProjectError>
  /** Every session of this project, in any of its Locations, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Info>>
  /**
   * Ends a session of this Location: its pending asks end, telling their waiters `reason`, and its
   * session-scoped approvals are removed. Ending an ended session changes nothing. Undefined for a
   * session this Location does not know.
   */
  readonly end: (id: string, reason?: string) => Effect.Effect<Info | undefined>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Session") {}

interface Row {
  readonly id: string
  readonly project_id: string
  readonly location: string
  readonly agent: string
  readonly rules: string
  readonly created_at: number
  readonly ended_at: number | null
}

const toInfo = (row: Row): Info => ({
  id: row.id,
  projectID: row.project_id,
  location: row.location,
  agent: row.agent,
  // Each rule with its other spellings (a folder's contents, a link's target), under the rule's own index.
  rules: (JSON.parse(row.rules) as PermissionRule.Rule[]).flatMap((rule, index) =>
    PermissionRuleSpellings.expand([rule], undefined, row.location).map((spelled) => ({ ...spelled, source: { kind: "session" as const, sessionID: row.id, index } })),
  ),
  createdAt: row.created_at,
  ...(row.ended_at === null ? {} : { endedAt: row.ended_at }),
})

const SELECT = "SELECT * FROM session WHERE id = ?"

/**
 * A stored session, whichever project and Location it is in, or undefined: how a server that
 * hosts many Locations finds the one a session's request goes to, in one query (the session's own Location answers `get` alike for
 * a session whose stored directory is its real directory).
 */
export const find = (id: string): Effect.Effect<Info | undefined, never, Sql.Service> =>
  Effect.flatMap(Sql.Service, (sql) => Effect.map(sql.get<Row>(SELECT, [id]), (row) => (row === undefined ? undefined : toInfo(row))))

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const sql = yield* Sql.Service
    const project = yield* Project.Service
    const { directory } = yield* Location.Service
    const interactions = yield* InteractionStore.Service
    const bus = yield* Bus.Service

    const get = (id: string) => Effect.map(sql.get<Row>(SELECT, [id]), (row) => (row === undefined || row.location !== directory ? undefined : toInfo(row)))

    /** The stored row of `id` if it is this project's; another project's fails, naming its worktree. */
    const ours = Effect.fnUntraced(function* (id: string) {
      const row = yield* sql.get<Row>(SELECT, [id])
      if (row === undefined || row.project_id === project.id) return row
      const owner = yield* sql.get<{ worktree: string }>("SELECT worktree FROM project WHERE id = ?", [row.project_id])
      return yield* new ForeignProjectError({ id, worktree: owner?.worktree ?? row.location })
    })

    const lookup = (id: string) => Effect.map(ours(id), (row) => (row === undefined ? undefined : toInfo(row)))

    const list = Effect.map(sql.all<Row>("SELECT * FROM session WHERE project_id = ? ORDER BY created_at, id", [project.id]), (rows) => rows.map(toInfo))

    const ensure = Tracing.fn("Session.ensure")(function* (input: EnsureInput) {
      const stored = input.id === undefined ? undefined : yield* ours(input.id)
      if (stored !== undefined && stored.location !== directory) return yield* new LocationMismatchError({ id: stored.id, location: stored.location })
      const existing = stored === undefined ? undefined : toInfo(stored)
      if (existing !== undefined && existing.agent !== input.agent) {
        return yield* new AgentMismatchError({ id: existing.id, stored: existing.agent, requested: input.agent })
      }
      if (existing?.endedAt !== undefined) return yield* new EndedError({ id: existing.id })
      if (existing !== undefined) return existing
      const id = input.id ?? Id.create("ses")
      const rules = (input.rules ?? []).map(({ action, resource, effect, when }) => ({
        action,
        // Normalized, with a folder's trailing slash kept: it means the folder and what is in it.
        resource: PermissionRule.isPathAction(action) ? PermissionRuleSpellings.stored(resource) : resource,
        effect,
        // Kept: a rule for sandboxed commands only must never apply to the others.
        ...(when === undefined ? {} : { when }),
      }))
      const now = yield* Clock.currentTimeMillis
      yield* sql.run("INSERT INTO session (id, project_id, location, agent, rules, created_at) VALUES (?, ?, ?, ?, ?, ?)", [id, project.id, directory, input.agent, JSON.stringify(rules), now])
      yield* bus.publish(Created, { sessionID: id, agent: input.agent, directory })
      return toInfo({ id, project_id: project.id, location: directory, agent: input.agent, rules: JSON.stringify(rules), created_at: now, ended_at: null })
    })

    const end = Tracing.fn("Session.end")(function* (id: string, reason: string = Interaction.Reasons.sessionEnded) {
      const session = yield* get(id)
      if (session === undefined) return undefined
      const now = yield* Clock.currentTimeMillis
      yield* sql.transaction(
        Effect.andThen(sql.run("UPDATE session SET ended_at = ? WHERE id = ? AND ended_at IS NULL", [now, id]), sql.run("DELETE FROM session_approval WHERE session_id = ?", [id])),
      )
      yield* interactions.endSession(id, reason)
      return yield* get(id)
    })

    return Service.of({ ensure, get, lookup, list, end })
  }),
)
