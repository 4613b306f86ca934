/**
 * The append-only record of every permission decision (allow, deny, ask and the reply to it),
 * so a person can see afterwards what the agent was allowed to do and why: each record keeps the
 * rules that decided it with their sources. An ask and the record of how it ended share a
 * request id; an ask without that second record is still pending in the process that owns it
 * (storage/owner.ts), and is listed in `audit_pending` until it ends. An ask whose owner died
 * (kill -9, a power cut) is ended by `recover` with an `ask (interrupted)` record; it runs when
 * a Location opens and before every read, and costs one query on that short table. Records
 * written before migration 6 have neither rules nor request id, before migration 7 no owner.
 */
export * as AuditLog from "./audit-log.js"

import { Clock, Context, Effect, Layer } from "effect"
import { Id } from "../storage/id.js"
import { Owner } from "../storage/owner.js"
import { Sql } from "../storage/sql.js"
import type { PermissionRule } from "./rule.js"
import { Tracing } from "../tracing.js"

/**
 * The reply of an ask that ended because its process stopped: interrupted (a signal, the client
 * going away), or found by `recover` after the process died.
 */
export const INTERRUPTED = "interrupted"

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
  /** The tool call the decision was for (a call's input and outcome: session/call-log.ts); none for a request made outside a call, or before migration 10. */
  readonly toolCallID?: string
}

export interface Record extends Entry {
  readonly id: string
  readonly at: number
  /** The process that waited on an ask, on the ask's record (none before migration 7). */
  readonly owner?: Owner.Owner
}

export interface Filter {
  readonly sessionID?: string
  /** Only records at or after this time (milliseconds). */
  readonly since?: number
}

/** What the log tells about one session: when it last decided something, its asks still waiting, and those interrupted. */
export interface Activity {
  readonly sessionID: string
  readonly lastAt: number
  readonly pending: number
  /** Asks that ended `interrupted`: their process was stopped or died while they waited. */
  readonly interrupted: number
}

export interface Interface {
  /** Appends a record; an ask (with a request id, no reply) is owned by this process until a record with its reply ends it. */
  readonly append: (entry: Entry) => Effect.Effect<void>
  /** The project's records, oldest first, optionally of one session or from a time on (after `recover`). */
  readonly list: (projectID: string, filter?: Filter) => Effect.Effect<ReadonlyArray<Record>>
  /** The activity of each session of the project that has records (after `recover`). */
  readonly activity: (projectID: string) => Effect.Effect<ReadonlyArray<Activity>>
  /**
   * Ends every pending ask, of any project, whose owner is dead (or unknown: written before
   * migration 7) with an `ask` record by `rule` with the reply `INTERRUPTED`; the records written.
   * @example const ended = yield* audit.recover // [] unless a process died with an ask waiting
   */
  readonly recover: Effect.Effect<ReadonlyArray<Record>>
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
  readonly owner: string | null
  readonly tool_call_id: string | null
}

/** A rule as stored: what it says and where it came from, nothing a caller added. */
const stored = (rule: PermissionRule.Sourced): PermissionRule.Sourced => ({
  action: rule.action,
  resource: rule.resource,
  effect: rule.effect,
  ...(rule.when === undefined ? {} : { when: rule.when }),
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
  ...ownerOf(row.owner),
  ...(row.tool_call_id === null ? {} : { toolCallID: row.tool_call_id }),
})

const ownerOf = (text: string | null) => {
  const owner = text === null ? undefined : Owner.decode(text)
  return owner === undefined ? {} : { owner }
}

/** Whether the ask's owner may still answer it: an ask with no owner, or none that can be read, is an orphan. */
const waiting = (text: string | null) => {
  const owner = text === null ? undefined : Owner.decode(text)
  return owner !== undefined && Owner.alive(owner)
}

/** The record of an ask (it waits for an answer), not of its end. */
const isAsk = (entry: Entry) => entry.effect === "ask" && entry.requestID !== undefined && entry.reply === undefined

/** The end `recover` records for an ask whose process died. */
const interrupted = (ask: Record): Entry => ({
  projectID: ask.projectID,
  ...(ask.sessionID === undefined ? {} : { sessionID: ask.sessionID }),
  action: ask.action,
  resources: ask.resources,
  effect: "ask",
  decidedBy: "rule",
  reply: INTERRUPTED,
  ...(ask.requestID === undefined ? {} : { requestID: ask.requestID }),
  ...(ask.toolCallID === undefined ? {} : { toolCallID: ask.toolCallID }),
})

const INSERT =
  "INSERT INTO audit_log (id, at, project_id, session_id, action, resources, effect, decided_by, reply, request_id, rules, owner, tool_call_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
const CLOSE = "DELETE FROM audit_pending WHERE request_id = ?"
const PENDING = "SELECT audit_log.* FROM audit_pending JOIN audit_log ON audit_log.id = audit_pending.audit_id"
const SELECT = "SELECT * FROM audit_log WHERE project_id = ? AND (CAST(? AS TEXT) IS NULL OR session_id = ?) AND at >= ? ORDER BY at, id"
// An ask is pending while no record with its request id has a reply (how it ended).
const ACTIVITIES = `SELECT session_id, max(at) AS last_at,
    sum(CASE WHEN effect = 'ask' AND request_id IS NOT NULL AND reply IS NULL AND NOT EXISTS (
      SELECT 1 FROM audit_log AS answer WHERE answer.request_id = audit_log.request_id AND answer.reply IS NOT NULL
    ) THEN 1 ELSE 0 END) AS pending,
    sum(CASE WHEN request_id IS NOT NULL AND reply = '${INTERRUPTED}' THEN 1 ELSE 0 END) AS interrupted
  FROM audit_log WHERE project_id = ? AND session_id IS NOT NULL GROUP BY session_id`

interface ActivityRow {
  readonly session_id: string
  readonly last_at: number
  readonly pending: number
  readonly interrupted: number
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const sql = yield* Sql.Service

    /** Inserts one record; the record of an ask opens it in `audit_pending`, the record of its end closes it there. */
    const write = Effect.fnUntraced(function* (entry: Entry, at: number, owner: Owner.Owner | undefined) {
      const id = Id.create("aud")
      const rules = entry.rules?.map(stored)
      yield* sql.run(INSERT, [
        id,
        at,
        entry.projectID,
        entry.sessionID ?? null,
        entry.action,
        JSON.stringify(entry.resources),
        entry.effect,
        entry.decidedBy,
        entry.reply ?? null,
        entry.requestID ?? null,
        rules === undefined ? null : JSON.stringify(rules),
        owner === undefined ? null : Owner.encode(owner),
        entry.toolCallID ?? null,
      ])
      if (isAsk(entry)) yield* sql.run("INSERT INTO audit_pending (request_id, audit_id) VALUES (?, ?) ON CONFLICT DO NOTHING", [entry.requestID as string, id])
      if (entry.requestID !== undefined && entry.reply !== undefined) yield* sql.run(CLOSE, [entry.requestID])
      return { ...entry, ...(rules === undefined ? {} : { rules }), id, at, ...(owner === undefined ? {} : { owner }) } satisfies Record
    })
    // An ask or its end is two statements: one transaction, so the log and the pending list agree.
    const writePaired = (entry: Entry, at: number, owner: Owner.Owner | undefined) => sql.transaction(write(entry, at, owner))
    /** Ends the asks whose owners are dead; an ask another process ended (or recovered) meanwhile is left alone. */
    const end = (asks: ReadonlyArray<Row>, at: number) =>
      sql.transaction(
        Effect.map(
          Effect.forEach(asks, (ask) =>
            Effect.flatMap(sql.run(CLOSE, [ask.request_id as string]), ({ changes }) => (changes === 1 ? Effect.map(write(interrupted(toRecord(ask)), at, undefined), (record) => [record]) : Effect.succeed([]))),
          ),
          (lists) => lists.flat(),
        ),
      )

    const append = (entry: Entry) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        if (entry.requestID === undefined) return Effect.asVoid(write(entry, at, undefined))
        if (!isAsk(entry)) return Effect.asVoid(writePaired(entry, at, undefined))
        return Effect.flatMap(Effect.service(Owner.Current), (owner) => Effect.asVoid(writePaired(entry, at, owner)))
      })

    const sweep = Tracing.fn("AuditLog.recover")(function* (asks: ReadonlyArray<Row>) {
      const judged = new Map<string | null, boolean>()
      const orphans = asks.filter((ask) => {
        const known = judged.get(ask.owner) ?? waiting(ask.owner)
        judged.set(ask.owner, known)
        return !known
      })
      if (orphans.length === 0) return []
      const at = yield* Clock.currentTimeMillis
      return yield* end(orphans, at)
    })
    // The common case, nothing pending anywhere, is one query on an empty table: no span, no fiber.
    const recover: Effect.Effect<ReadonlyArray<Record>> = Effect.flatMap(sql.all<Row>(PENDING), (asks) => (asks.length === 0 ? Effect.succeed([]) : sweep(asks)))

    const list = (projectID: string, filter: Filter = {}) =>
      Effect.andThen(recover, Effect.map(sql.all<Row>(SELECT, [projectID, filter.sessionID ?? null, filter.sessionID ?? null, filter.since ?? 0]), (rows) => rows.map(toRecord)))
    const activity = (projectID: string) =>
      Effect.andThen(
        recover,
        Effect.map(sql.all<ActivityRow>(ACTIVITIES, [projectID]), (rows) =>
          rows.map((row): Activity => ({ sessionID: row.session_id, lastAt: row.last_at, pending: row.pending, interrupted: row.interrupted })),
        ),
      )
    // Asks left by processes that died are ended when a Location opens, before anything reads them.
    yield* recover
    return Service.of({ append, list, activity, recover })
  }),
)
