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

import { Clock, Context, Duration, Effect, Layer, PubSub, Schema, Scope, Stream } from "effect"
import { Bus } from "../bus.js"
import { Locations } from "../locations.js"
import { Approvals } from "../permission/approvals.js"
import { PermissionRequest } from "../permission/request.js"
import { Question } from "../question.js"
import { Database } from "../storage/database.js"
import { ServerWire } from "./wire.js"

/** How long an event is kept. */
export const RETENTION = Duration.hours(24)
/** How many events of one Location (or of the process itself) are kept at most. */
export const MAX_EVENTS = 100_000
/** How often events older than the retention are deleted (also once when the layer is built). */
export const PRUNE_INTERVAL = Duration.minutes(1)
/** How many events `after` returns at most when not told. */
export const PAGE = 1_000

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

export const layer = (options: Options = {}) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const { db } = yield* Database.Service
      const bus = yield* Bus.Service
      const retention = Duration.toMillis(Duration.fromInputUnsafe(options.retention ?? RETENTION))
      const maxEvents = options.maxEvents ?? MAX_EVENTS

      const insert = db.prepare<[number, string, string | null, string | null, string, string]>(
        "INSERT INTO event (at, location, directory, session_id, type, data) VALUES (?, ?, ?, ?, ?, ?)",
      )
      const select = db.prepare<{ after: number; location: string | null; session: string | null; limit: number }, Row>(
        `SELECT seq, at, location, directory, session_id, type, data FROM event
         WHERE seq > @after AND (@location IS NULL OR location = @location OR location = '') AND (@session IS NULL OR session_id = @session)
         ORDER BY seq LIMIT @limit`,
      )
      const prunedThrough = db.prepare<{ location: string | null }, { seq: number | null }>(
        "SELECT max(seq) AS seq FROM event_pruned WHERE @location IS NULL OR location = @location OR location = ''",
      )
      const sequence = db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'event'")
      const counted = db.prepare<[], { location: string; n: number }>("SELECT location, count(*) AS n FROM event GROUP BY location")
      const nth = db.prepare<[string, number], { seq: number }>("SELECT seq FROM event WHERE location = ? ORDER BY seq LIMIT 1 OFFSET ?")
      const trim = db.prepare<[string, number]>("DELETE FROM event WHERE location = ? AND seq <= ?")
      const expired = db.prepare<[number], { location: string; seq: number; n: number }>(
        "SELECT location, max(seq) AS seq, count(*) AS n FROM event WHERE at < ? GROUP BY location",
      )
      const expire = db.prepare<[number]>("DELETE FROM event WHERE at < ?")
      const mark = db.prepare<[string, number]>(
        "INSERT INTO event_pruned (location, seq) VALUES (?, ?) ON CONFLICT (location) DO UPDATE SET seq = max(seq, excluded.seq)",
      )

      // Per location: how many events are stored (kept here so a full Location is trimmed by an
      // index lookup, never a count), and the directory of each Location seen opening.
      const counts = new Map(counted.all().map((row) => [row.location, row.n]))
      const directories = new Map<string, string>()
      const recount = () => {
        counts.clear()
        counted.all().forEach((row) => counts.set(row.location, row.n))
      }

      /** Deletes the oldest events of `location` beyond the maximum. */
      const keepAtMost = (location: string) => {
        const excess = (counts.get(location) ?? 0) - maxEvents
        const last = excess > 0 ? nth.get(location, excess - 1) : undefined
        if (last === undefined) return
        trim.run(location, last.seq)
        mark.run(location, last.seq)
        counts.set(location, maxEvents)
      }

      const store = db.transaction((events: ReadonlyArray<Bus.Event>, at: number): ReadonlyArray<Stored> => {
        const stored = events.map((event) => {
          if (event.type === Locations.Opened.type) {
            const opened = event.payload as { readonly locationID: string; readonly directory: string }
            directories.set(opened.locationID, opened.directory)
          }
          const location = event.location ?? PROCESS
          const data = wireData(event)
          const row = {
            at,
            location,
            directory: directories.get(location) ?? null,
            session_id: sessionOf(data),
            type: ServerWire.eventName(event.type, event.payload),
            data: serialize(data),
          }
          const seq = Number(insert.run(row.at, row.location, row.directory, row.session_id, row.type, row.data).lastInsertRowid)
          counts.set(location, (counts.get(location) ?? 0) + 1)
          return toStored({ seq, ...row })
        })
        new Set(events.map((event) => event.location ?? PROCESS)).forEach(keepAtMost)
        return stored
      })

      const latest = Effect.sync(() => sequence.get()?.seq ?? 0)

      const after = Effect.fn("EventLog.after")(function* (seq: number, filter: Filter = {}, limit: number = PAGE) {
        const location = filter.locationID ?? null
        // One synchronous read: retention (in this same thread) cannot delete between the check and the page.
        const page = db.transaction(() => {
          const through = prunedThrough.get({ location })?.seq ?? 0
          if (through > seq) return new PrunedError({ after: seq, through })
          return select.all({ after: seq, location, session: filter.sessionID ?? null, limit }).map(toStored)
        })()
        if (page instanceof PrunedError) return yield* page
        return page
      })

      const prune = Clock.currentTimeMillis.pipe(
        Effect.map((now) =>
          db.transaction(() => {
            const cutoff = now - retention
            const gone = expired.all(cutoff)
            expire.run(cutoff)
            gone.forEach((row) => {
              mark.run(row.location, row.seq)
              counts.set(row.location, (counts.get(row.location) ?? 0) - row.n)
            })
          })(),
        ),
        Effect.withSpan("EventLog.prune"),
      )

      const pubsub = yield* PubSub.unbounded<Stored>()
      yield* Effect.addFinalizer(() => PubSub.shutdown(pubsub))
      const live = Effect.map(PubSub.subscribe(pubsub), Stream.fromSubscription)

      yield* prune
      yield* Effect.forkScoped(prune.pipe(Effect.delay(PRUNE_INTERVAL), Effect.forever))
      // Subscribed before the layer is built: every event published from then on is stored.
      const events = yield* bus.subscribe
      const record = (batch: ReadonlyArray<Bus.Event>) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((at) => Effect.try({ try: () => store(batch, at), catch: (cause) => new WriteError({ count: batch.length, detail: String(cause) }) })),
          Effect.flatMap((stored) => PubSub.publishAll(pubsub, stored)),
          // The batch rolled back (no sequence number was given, the counts are read again), and
          // the log goes on with the next one.
          Effect.catchTag("EventLog.WriteError", (error) => Effect.andThen(Effect.sync(recount), Effect.logError(error.message))),
        )
      yield* Effect.forkScoped(Stream.runForEachArray(events, record))

      return Service.of({ latest, after, live, prune })
    }),
  )

export const defaultLayer = layer()
