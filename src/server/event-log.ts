/**
 * The event log of a server process: from the moment its layer is built, every bus event gets
 * the next sequence number and is stored in the `event` table, then handed to live readers, in
 * publish order; nothing a live reader sees is missing from the table. An event is stored as
 * clients read it: its wire name and payload (server/wire.ts), its Location's id and directory,
 * and the session its payload names. Retention keeps, for each Location (and for the process's
 * own events), the last `RETENTION` and at most `MAX_EVENTS`; what it deletes raises that
 * Location's pruned mark, so a reader whose events were deleted is told so (`PrunedError`) and
 * never silently skips them. One process writes a database's log: live readers see its events only.
 */
export * as EventLog from "./event-log.js"

import { Cause, Clock, Context, Duration, Effect, FiberSet, Layer, Option, PubSub, Schema, Scope, Semaphore, Stream } from "effect"
import { Bus } from "../bus.js"
import { Locations } from "../locations.js"
import { Approvals } from "../permission/approvals.js"
import { PermissionRequest } from "../permission/request.js"
import { Question } from "../question.js"
import { Sql } from "../storage/sql.js"
import { ServerWire } from "./wire.js"
import { Tracing } from "../tracing.js"

/** How long an event is kept. */
export const RETENTION = Duration.hours(24)
/** How many events of one Location (or of the process itself) are kept at most. */
export const MAX_EVENTS = 100_000
/** How often events older than the retention are deleted (also once when the layer is built). */
export const PRUNE_INTERVAL = Duration.minutes(1)
/** How many events `after` returns at most when not told. */
export const PAGE = 1_000
/** How long an event may wait to be written with the ones after it. */
export const WINDOW = Duration.millis(10)

export const Messages = {
  pruned: (after: number, through: number) => `The events after ${after} are no longer kept: retention deleted them through ${through}`,
  lost: (count: number, detail: string) => `Could not store ${count === 1 ? "1 event" : `${count} events`}: ${detail}`,
} as const

/** One stored event, as every reader (replay or live) gets it. */
export interface Stored {
  /** Its sequence number: increasing, never given twice. */
  readonly seq: number
  /** When it was stored (epoch milliseconds). */
  readonly at: number
  /** Its wire name (`ServerWire.eventName`). */
  readonly type: string
  /** Its payload as clients read it: V2 shapes for asks and approvals, JSON values only. */
  readonly data: unknown
  /** The Location it happened in; absent for the process's own events. */
  readonly locationID?: string
  /** That Location's real path, when the log saw it open. */
  readonly directory?: string
  /** The session its payload names (`sessionID`), if any. */
  readonly sessionID?: string
}

/** Which events a reader wants; every field narrows. */
export interface Filter {
  /** The events of this Location and the process's own (as a Location's bus view sees them). */
  readonly locationID?: string
  /** The events whose payload names this session. */
  readonly sessionID?: string
}

export interface Options {
  /** How long an event is kept (default `RETENTION`). */
  readonly retention?: Duration.Input
  /** How many events of one Location are kept at most (default `MAX_EVENTS`). */
  readonly maxEvents?: number
  /** How long an event that nobody waits on may wait to be written with later ones (default `WINDOW`). */
  readonly window?: Duration.Input
}

/** Events after `after` that the reader wants were deleted by retention (through `through`). */
export class PrunedError extends Schema.TaggedError<PrunedError>()("EventLog.PrunedError", {
  after: Schema.Number,
  through: Schema.Number,
}) {
  override get message() {
    return Messages.pruned(this.after, this.through)
  }
}

/** Storing a batch failed (the disk full, the database locked past its busy timeout): it is lost, and logged. */
export class WriteError extends Schema.TaggedError<WriteError>()("EventLog.WriteError", {
  count: Schema.Number,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.lost(this.count, this.detail)
  }
}

export type Error = PrunedError | WriteError

export interface Interface {
  /** The highest sequence number ever given (0 before the first event), pruned or not. */
  readonly latest: Effect.Effect<number>
  /**
   * The stored events after `seq` that match `filter`, oldest first, at most `limit` (default
   * `PAGE`). Fails with `PrunedError` when retention deleted some of them: the reader has a gap.
   */
  readonly after: (seq: number, filter?: Filter, limit?: number) => Effect.Effect<ReadonlyArray<Stored>, PrunedError>
  /** Subscribes now, in the caller's scope: every event stored from this moment on, in order. */
  readonly live: Effect.Effect<Stream.Stream<Stored>, never, Scope.Scope>
  /** Deletes the events older than the retention now (the layer also does it every `PRUNE_INTERVAL`). */
  readonly prune: Effect.Effect<void>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/EventLog") {}

/**
 * Whether a stored event passes `filter`: the same test `after` makes in SQL.
 * @example EventLog.matches({ sessionID: "ses_a" })(event)
 */
export const matches =
  (filter: Filter) =>
  (event: Stored): boolean =>
    (filter.locationID === undefined || event.locationID === undefined || event.locationID === filter.locationID) &&
    (filter.sessionID === undefined || event.sessionID === filter.sessionID)

/** `location` for the process's own events, in both tables. */
const PROCESS = ""

/** What a person answers, or another server relays: written in the next turn, never held back by `WINDOW`. */
const URGENT: ReadonlySet<string> = new Set([PermissionRequest.Asked.type, PermissionRequest.Replied.type, Question.Asked.type, Question.Replied.type])

interface Row {
  readonly seq: number
  readonly at: number
  readonly location: string
  readonly directory: string | null
  readonly session_id: string | null
  readonly type: string
  readonly data: string
}

const toStored = (row: Row): Stored => ({
  seq: row.seq,
  at: row.at,
  type: row.type,
  data: JSON.parse(row.data),
  ...(row.location === PROCESS ? {} : { locationID: row.location }),
  ...(row.directory === null ? {} : { directory: row.directory }),
  ...(row.session_id === null ? {} : { sessionID: row.session_id }),
})

/** A payload as V2 clients read it; payloads V2 has no shape for go out as published. */
const wireData = (event: Bus.Event): unknown => {
  if (event.type === PermissionRequest.Asked.type) return ServerWire.permission(event.payload as PermissionRequest.Request)
  if (event.type === Question.Asked.type) return ServerWire.question(event.payload as Question.Request)
  if (event.type === Approvals.Saved.type || event.type === Approvals.Revoked.type) return ServerWire.saved(event.payload as Approvals.Approval)
  return event.payload
}

const sessionOf = (payload: unknown): string | null => {
  const sessionID = typeof payload === "object" && payload !== null ? (payload as { readonly sessionID?: unknown }).sessionID : undefined
  return typeof sessionID === "string" ? sessionID : null
}

const serialize = (data: unknown): string => {
  try {
    return JSON.stringify(data, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)) ?? "null"
  } catch {
    // Deliberate: a payload JSON cannot hold (a cycle) is its publisher's bug. The event is kept
    // with null data, in its place in the sequence, and the log goes on storing.
    return "null"
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

const INSERT = "INSERT INTO event (at, location, directory, session_id, type, data) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq"
const SELECT = `SELECT seq, at, location, directory, session_id, type, data FROM event
  WHERE seq > ? AND (CAST(? AS TEXT) IS NULL OR location = ? OR location = '') AND (CAST(? AS TEXT) IS NULL OR session_id = ?)
  ORDER BY seq LIMIT ?`
const PRUNED_THROUGH = "SELECT max(seq) AS seq FROM event_pruned WHERE CAST(? AS TEXT) IS NULL OR location = ? OR location = ''"
const COUNTED = "SELECT location, count(*) AS n FROM event GROUP BY location"
const SEQUENCE: Readonly<Record<Sql.Dialect, string>> = {
  sqlite: "SELECT seq FROM sqlite_sequence WHERE name = 'event'",
  postgres: "SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS seq FROM event_seq_seq",
}
const MARK: Readonly<Record<Sql.Dialect, string>> = {
  sqlite: "INSERT INTO event_pruned (location, seq) VALUES (?, ?) ON CONFLICT (location) DO UPDATE SET seq = max(seq, excluded.seq)",
  postgres: "INSERT INTO event_pruned (location, seq) VALUES (?, ?) ON CONFLICT (location) DO UPDATE SET seq = GREATEST(event_pruned.seq, excluded.seq)",
}

export const layer = (options: Options = {}) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const sql = yield* Sql.Service
      const bus = yield* Bus.Service
      const retention = Duration.toMillis(Duration.fromInputUnsafe(options.retention ?? RETENTION))
      const maxEvents = options.maxEvents ?? MAX_EVENTS
      const windowMillis = Duration.toMillis(Duration.fromInputUnsafe(options.window ?? WINDOW))
      const mark = (location: string, seq: number) => sql.run(MARK[sql.dialect], [location, seq])

      // Per location: how many events are stored (kept here so a full Location is trimmed by an
      // index lookup, never a count), and the directory of each Location seen opening.
      const counts = new Map<string, number>()
      const directories = new Map<string, string>()
      const recount = Effect.map(sql.all<{ location: string; n: number }>(COUNTED), (rows) => {
        counts.clear()
        rows.forEach((row) => counts.set(row.location, row.n))
      })
      yield* recount

      /** Deletes the oldest events of `location` beyond the maximum. */
      const keepAtMost = Effect.fnUntraced(function* (location: string) {
        const excess = (counts.get(location) ?? 0) - maxEvents
        const last = excess > 0 ? yield* sql.get<{ seq: number }>("SELECT seq FROM event WHERE location = ? ORDER BY seq LIMIT 1 OFFSET ?", [location, excess - 1]) : undefined
        if (last === undefined) return
        yield* sql.run("DELETE FROM event WHERE location = ? AND seq <= ?", [location, last.seq])
        yield* mark(location, last.seq)
        counts.set(location, maxEvents)
      })

      const insertOne = Effect.fnUntraced(function* (event: Bus.Event, at: number) {
        if (event.type === Locations.Opened.type) {
          const opened = event.payload as { readonly locationID: string; readonly directory: string }
          directories.set(opened.locationID, opened.directory)
        }
        const location = event.location ?? PROCESS
        const data = wireData(event)
        const row = { at, location, directory: directories.get(location) ?? null, session_id: sessionOf(data), type: ServerWire.eventName(event.type, event.payload), data: serialize(data) }
        const inserted = yield* sql.get<{ seq: number }>(INSERT, [row.at, row.location, row.directory, row.session_id, row.type, row.data])
        counts.set(location, (counts.get(location) ?? 0) + 1)
        return toStored({ seq: Number(inserted?.seq), ...row })
      })

      const store = (events: ReadonlyArray<Bus.Event>, at: number): Effect.Effect<ReadonlyArray<Stored>> =>
        sql.transaction(
          Effect.gen(function* () {
            const stored = yield* Effect.forEach(events, (event) => insertOne(event, at))
            yield* Effect.forEach(new Set(events.map((event) => event.location ?? PROCESS)), keepAtMost, { discard: true })
            return stored
          }),
        )

      const pubsub = yield* PubSub.unbounded<Stored>()
      yield* Effect.addFinalizer(() => PubSub.shutdown(pubsub))
      const live = Effect.map(PubSub.subscribe(pubsub), Stream.fromSubscription)

      // Events published and not yet written, in publish order. The bus calls this log's tap in
      // the publisher, so the tap only queues them here: they are written together, in one
      // transaction, and a tool call answers without waiting for its events. An event a person or
      // another server waits on (`URGENT`) is written in the next turn of the event loop, with
      // everything queued before it; the others wait at most `WINDOW`, so the events of calls that
      // follow each other closely share one transaction instead of paying one each. Every read of
      // the log writes what is queued first, and so does closing it: a read sees every event
      // published before it, and nothing queued is lost when the server stops.
      let pending: Array<Bus.Event> = []
      let scheduled = false
      const writing = yield* Semaphore.make(1)
      const flush = writing.withPermits(1)(
        Effect.suspend(() => {
          scheduled = false
          const batch = pending
          if (batch.length === 0) return Effect.void
          pending = []
          return Clock.currentTimeMillis.pipe(
            Effect.flatMap((at) => store(batch, at).pipe(Effect.catchCause((cause) => Effect.fail(new WriteError({ count: batch.length, detail: messageOf(Cause.squash(cause)) }))))),
            Effect.flatMap((stored) => PubSub.publishAll(pubsub, stored)),
            // The batch rolled back (no sequence number was given, the counts are read again), and
            // the log goes on with the next one.
            Effect.catchTag("EventLog.WriteError", (error) => Effect.andThen(Effect.ignore(recount), Effect.logError(error.message))),
            Effect.asVoid,
          )
        }),
      )

      const latest = Effect.andThen(flush, Effect.map(sql.get<{ seq: number }>(SEQUENCE[sql.dialect]), (row) => row?.seq ?? 0))

      const after = Tracing.fn("EventLog.after")(function* (seq: number, filter: Filter = {}, limit: number = PAGE) {
        yield* flush
        const location = filter.locationID ?? null
        // The page first, then the mark: retention that ran before or between them shows in the
        // mark, so a page with a gap never goes out unflagged.
        const page = yield* sql.all<Row>(SELECT, [seq, location, location, filter.sessionID ?? null, filter.sessionID ?? null, limit])
        const through = (yield* sql.get<{ seq: number | null }>(PRUNED_THROUGH, [location, location]))?.seq ?? 0
        if (through > seq) return yield* new PrunedError({ after: seq, through })
        return page.map(toStored)
      })

      const prune = Clock.currentTimeMillis.pipe(
        Effect.flatMap((now) =>
          sql.transaction(
            Effect.gen(function* () {
              const cutoff = now - retention
              const gone = yield* sql.all<{ location: string; seq: number; n: number }>("SELECT location, max(seq) AS seq, count(*) AS n FROM event WHERE at < ? GROUP BY location", [cutoff])
              yield* sql.run("DELETE FROM event WHERE at < ?", [cutoff])
              for (const row of gone) {
                yield* mark(row.location, row.seq)
                counts.set(row.location, (counts.get(row.location) ?? 0) - row.n)
              }
            }),
          ),
        ),
        Effect.withSpan("EventLog.prune"),
      )

      yield* prune
      yield* Effect.forkScoped(prune.pipe(Effect.delay(PRUNE_INTERVAL), Effect.forever))
      // Added before the tap and the writer: closing runs it after both have stopped.
      yield* Effect.addFinalizer(() => flush)
      // A write that started is finished, not interrupted, when the log closes: its batch has left the queue.
      const write = yield* FiberSet.makeRuntime<never>()
      const writeNext = Effect.uninterruptible(Effect.andThen(Effect.yieldNow, flush))
      const writeLater = Effect.uninterruptible(flush)
      // The window is wall-clock time on a real timer, as the batching it serves is; unref'd, so it
      // never keeps a process alive (closing writes what is queued).
      let timer: ReturnType<typeof setTimeout> | undefined
      const later = () => {
        timer = undefined
        if (!scheduled) write(writeLater)
      }
      yield* Effect.addFinalizer(() => Effect.sync(() => clearTimeout(timer)))
      // Tapped before the layer is built: every event published from then on is stored, in order.
      yield* bus.tap((event) => {
        pending.push(event)
        if (scheduled) return
        if (URGENT.has(event.type)) {
          scheduled = true
          write(writeNext)
        } else if (timer === undefined) timer = setTimeout(later, windowMillis).unref()
      })
      // Locations open before the log started (`toolgate mcp` starts its console, and this log, at
      // its first ask) are known by their directory too: a stream keeps to its server's roots by it
      // (sse.ts). Listed after the tap, so one opening meanwhile is seen one way or the other.
      const hosting = Option.getOrUndefined(yield* Effect.serviceOption(Locations.Service))
      if (hosting !== undefined) for (const info of yield* hosting.list) if (!directories.has(info.id)) directories.set(info.id, info.directory)

      return Service.of({ latest, after, live, prune })
    }),
  )

export const defaultLayer = layer()
