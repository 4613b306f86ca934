/**
 * The event log over a real bus and a real SQLite file in a temp folder: sequence numbers, wire
 * names and payloads, Location and session, filters shared by SQL and live readers, retention by
 * count and by age with its pruned marks, and what survives a restart.
 */
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Logger, Queue, Schema, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Bus } from "../../src/bus.js"
import { Location } from "../../src/location/location.js"
import { Locations } from "../../src/locations.js"
import { PermissionRequest } from "../../src/permission/request.js"
import { ToolgateProcess } from "../../src/process.js"
import { Question } from "../../src/question.js"
import { EventLog } from "../../src/server/event-log.js"
import { ServerWire } from "../../src/server/wire.js"
import { Database } from "../../src/storage/database.js"
import { Sql } from "../../src/storage/sql.js"
import { tmpdir } from "../lib/tmp.js"

const Ping = Bus.event("test.ping", Schema.Struct({ n: Schema.Number, sessionID: Schema.optionalKey(Schema.String) }))

const logLayer = (file: string, options?: EventLog.Options) => EventLog.layer(options).pipe(Layer.provideMerge(Layer.mergeAll(Bus.layer, Database.layer(file))))

const databaseFile = Effect.map(tmpdir, (dir) => path.join(dir, "toolgate.db"))

interface Published {
  readonly n: number
  readonly sessionID?: string
  readonly location?: string
}

/** Publishes a ping for each entry and waits until the log stored them all; returns them as stored. */
const record = (pings: ReadonlyArray<Published>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const log = yield* EventLog.Service
      const bus = yield* Bus.Service
      const live = yield* log.live
      yield* Effect.forEach(pings, ({ location, ...payload }) => bus.publish(Ping, payload, location), { discard: true })
      return [...(yield* Stream.runCollect(Stream.take(live, pings.length)))]
    }),
  )

const seqs = (events: ReadonlyArray<EventLog.Stored>) => events.map((event) => event.seq)

const request: PermissionRequest.Request = {
  id: "per_1",
  sessionID: "ses_a",
  action: "bash",
  resources: ["git push"],
  save: ["git push *"],
  allows: { session: ["git push *"], project: ["git push *"] },
  metadata: {},
  source: { toolCallID: "call_1", messageID: "msg_1" },
  createdAt: 5,
}

const question: Question.Request = {
  id: "que_1",
  sessionID: "ses_b",
  questions: [{ question: "Which?", header: "Pick", options: [{ label: "A", description: "the first" }] }],
  source: { toolCallID: "call_2", messageID: "msg_2" },
}

describe("EventLog", () => {
  it("names its messages", () => {
    expect(new EventLog.PrunedError({ after: 3, through: 7 }).message).toBe("The events after 3 are no longer kept: retention deleted them through 7")
    expect(new EventLog.WriteError({ count: 2, detail: "SqliteError: disk I/O error" }).message).toBe("Could not store 2 events: SqliteError: disk I/O error")
    expect(new EventLog.WriteError({ count: 1, detail: "SqliteError: disk I/O error" }).message).toBe("Could not store 1 event: SqliteError: disk I/O error")
  })

  const stored = (fields: Partial<EventLog.Stored>): EventLog.Stored => ({ seq: 1, at: 0, type: "toolgate.test.ping", data: {}, ...fields })
  const cases: ReadonlyArray<{ readonly name: string; readonly filter: EventLog.Filter; readonly event: EventLog.Stored; readonly passes: boolean }> = [
    { name: "no filter passes everything", filter: {}, event: stored({ locationID: "loc_a", sessionID: "ses_a" }), passes: true },
    { name: "a Location passes its own events", filter: { locationID: "loc_a" }, event: stored({ locationID: "loc_a" }), passes: true },
    { name: "a Location passes the process's events", filter: { locationID: "loc_a" }, event: stored({}), passes: true },
    { name: "a Location drops another's", filter: { locationID: "loc_a" }, event: stored({ locationID: "loc_b" }), passes: false },
    { name: "a session passes its events", filter: { sessionID: "ses_a" }, event: stored({ sessionID: "ses_a" }), passes: true },
    { name: "a session drops events naming no session", filter: { sessionID: "ses_a" }, event: stored({}), passes: false },
    { name: "both narrow", filter: { locationID: "loc_a", sessionID: "ses_a" }, event: stored({ locationID: "loc_b", sessionID: "ses_a" }), passes: false },
  ]
  for (const c of cases) it(`matches: ${c.name}`, () => expect(EventLog.matches(c.filter)(c.event)).toBe(c.passes))

  it.live("stores every bus event with the next sequence number, its wire name and payload, its Location and its session", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      yield* Effect.scoped(
        Effect.gen(function* () {
          const log = yield* EventLog.Service
          const bus = yield* Bus.Service
          const live = yield* log.live
          yield* bus.publish(Ping, { n: 1 })
          yield* bus.publish(Locations.Opened, { locationID: "loc_a", directory: "/w/a" }, "loc_a")
          yield* bus.publish(PermissionRequest.Asked, request, "loc_a")
          yield* bus.publish(Question.Asked, question, "loc_b")
          yield* bus.publish(Question.Replied, { sessionID: "ses_b", requestID: "que_1", reply: "dismissed" }, "loc_b")
          const seen = [...(yield* Stream.runCollect(Stream.take(live, 5)))]
          const at = seen[0]?.at
          expect(seen).toEqual([
            { seq: 1, at, type: "toolgate.test.ping", data: { n: 1 } },
            { seq: 2, at: seen[1]?.at, type: "toolgate.location.opened", data: { locationID: "loc_a", directory: "/w/a" }, locationID: "loc_a", directory: "/w/a" },
            { seq: 3, at: seen[2]?.at, type: "permission.v2.asked", data: ServerWire.permission(request), locationID: "loc_a", directory: "/w/a", sessionID: "ses_a" },
            { seq: 4, at: seen[3]?.at, type: "question.v2.asked", data: ServerWire.question(question), locationID: "loc_b", sessionID: "ses_b" },
            { seq: 5, at: seen[4]?.at, type: "question.v2.rejected", data: { sessionID: "ses_b", requestID: "que_1", reply: "dismissed" }, locationID: "loc_b", sessionID: "ses_b" },
          ])
          // The backlog is what live readers saw, and the database holds it.
          expect(yield* log.after(0)).toEqual(seen)
          expect(yield* log.latest).toBe(5)
          const { db } = yield* Database.Service
          expect(db.prepare("SELECT seq, location, directory, session_id, type FROM event ORDER BY seq").all()).toEqual([
            { seq: 1, location: "", directory: null, session_id: null, type: "toolgate.test.ping" },
            { seq: 2, location: "loc_a", directory: "/w/a", session_id: null, type: "toolgate.location.opened" },
            { seq: 3, location: "loc_a", directory: "/w/a", session_id: "ses_a", type: "permission.v2.asked" },
            { seq: 4, location: "loc_b", directory: null, session_id: "ses_b", type: "question.v2.asked" },
            { seq: 5, location: "loc_b", directory: null, session_id: "ses_b", type: "question.v2.rejected" },
          ])
        }).pipe(Effect.provide(logLayer(file))),
      )
    }))

  it.live("reads the backlog page by page, filtered as live readers filter", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      yield* Effect.gen(function* () {
        const log = yield* EventLog.Service
        const all = yield* record([
          { n: 1 },
          { n: 2, location: "loc_a", sessionID: "ses_a" },
          { n: 3, location: "loc_b", sessionID: "ses_b" },
          { n: 4, location: "loc_a" },
          { n: 5, sessionID: "ses_a" },
          { n: 6, location: "loc_b", sessionID: "ses_a" },
        ])
        for (const filter of [{}, { locationID: "loc_a" }, { locationID: "loc_b" }, { sessionID: "ses_a" }, { locationID: "loc_a", sessionID: "ses_a" }]) {
          expect(yield* log.after(0, filter)).toEqual(all.filter(EventLog.matches(filter)))
        }
        expect(seqs(yield* log.after(0, { locationID: "loc_a" }))).toEqual([1, 2, 4, 5])
        expect(seqs(yield* log.after(2, {}, 2))).toEqual([3, 4])
        expect(seqs(yield* log.after(4, {}, 2))).toEqual([5, 6])
        expect(yield* log.after(6)).toEqual([])
      }).pipe(Effect.provide(logLayer(file)))
    }))

  it.live("keeps at most the maximum per Location, and tells a reader of deleted events so", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      yield* Effect.gen(function* () {
        const log = yield* EventLog.Service
        yield* record([
          { n: 1, location: "loc_a" },
          { n: 2 },
          { n: 3, location: "loc_a" },
          { n: 4, location: "loc_b" },
          { n: 5, location: "loc_a" },
          { n: 6, location: "loc_a" },
        ])
        // loc_a kept its last two (5 and 6): 1 and 3 went; the process's and loc_b's stay.
        const { db } = yield* Database.Service
        expect(db.prepare("SELECT seq FROM event ORDER BY seq").all()).toEqual([{ seq: 2 }, { seq: 4 }, { seq: 5 }, { seq: 6 }])
        expect(yield* log.after(0, { locationID: "loc_a" }).pipe(Effect.flip)).toEqual(new EventLog.PrunedError({ after: 0, through: 3 }))
        expect(yield* log.after(2).pipe(Effect.flip)).toEqual(new EventLog.PrunedError({ after: 2, through: 3 }))
        expect(seqs(yield* log.after(3))).toEqual([4, 5, 6])
        // Nothing of loc_b (nor of the process) was deleted: its reader has no gap.
        expect(seqs(yield* log.after(0, { locationID: "loc_b" }))).toEqual([2, 4])
      }).pipe(Effect.provide(logLayer(file, { maxEvents: 2 })))
    }))

  it.effect("deletes events older than the retention, at once and every prune interval, and marks them deleted", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      yield* Effect.gen(function* () {
        const log = yield* EventLog.Service
        yield* record([{ n: 1 }, { n: 2, location: "loc_a" }])
        yield* TestClock.adjust(Duration.hours(1))
        yield* record([{ n: 3, location: "loc_a" }])
        yield* TestClock.setTime(Duration.toMillis(EventLog.RETENTION))
        yield* log.prune
        expect(seqs(yield* log.after(0))).toEqual([1, 2, 3])
        yield* TestClock.setTime(Duration.toMillis(EventLog.RETENTION) + 1)
        yield* log.prune
        expect(yield* log.after(0).pipe(Effect.flip)).toEqual(new EventLog.PrunedError({ after: 0, through: 2 }))
        expect(seqs(yield* log.after(2))).toEqual([3])
        // The layer's own job deletes the rest, without a call.
        yield* TestClock.setTime(Duration.toMillis(EventLog.RETENTION) + Duration.toMillis(Duration.hours(1)) + Duration.toMillis(EventLog.PRUNE_INTERVAL))
        expect(yield* log.after(2).pipe(Effect.flip)).toEqual(new EventLog.PrunedError({ after: 2, through: 3 }))
        expect(yield* log.latest).toBe(3)
      }).pipe(Effect.provide(logLayer(file)))
    }))

  it.live("keeps its sequence and its pruned marks across a restart, even once every event is deleted", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      yield* record([{ n: 1 }, { n: 2 }, { n: 3 }]).pipe(Effect.provide(logLayer(file, { maxEvents: 1 })))
      yield* Effect.gen(function* () {
        const log = yield* EventLog.Service
        expect(yield* log.latest).toBe(3)
        expect(yield* log.after(1).pipe(Effect.flip)).toEqual(new EventLog.PrunedError({ after: 1, through: 2 }))
        expect(seqs(yield* record([{ n: 4 }]))).toEqual([4])
        const { db } = yield* Database.Service
        db.prepare("DELETE FROM event").run()
      }).pipe(Effect.provide(logLayer(file, { maxEvents: 1 })))
      yield* Effect.gen(function* () {
        expect(seqs(yield* record([{ n: 5 }]))).toEqual([5])
      }).pipe(Effect.provide(logLayer(file)))
    }))

  it.live("writes an ask at once, with everything queued before it; other events wait for the window, or for a read", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      yield* Effect.scoped(
        Effect.gen(function* () {
          const log = yield* EventLog.Service
          const bus = yield* Bus.Service
          const { db } = yield* Database.Service
          const live = yield* log.live
          const written = () => db.prepare("SELECT seq FROM event ORDER BY seq").all()
          yield* bus.publish(Ping, { n: 1 })
          yield* bus.publish(PermissionRequest.Asked, request)
          // The ask is written in the next turn, and the ping queued before it with it, in order.
          expect(seqs([...(yield* Stream.runCollect(Stream.take(live, 2)))])).toEqual([1, 2])
          yield* bus.publish(Ping, { n: 3 })
          yield* Effect.yieldNow
          yield* Effect.yieldNow
          // An hour's window: the ping is not written yet...
          expect(written()).toEqual([{ seq: 1 }, { seq: 2 }])
          // ...until something reads the log, which writes what is queued first.
          expect(seqs(yield* log.after(2))).toEqual([3])
          expect(written()).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }])
        }).pipe(Effect.provide(logLayer(file, { window: Duration.hours(1) }))),
      )
    }))

  it.live("writes the events of one window in one transaction, not one each", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      let transactions = 0
      const counting = Layer.effect(
        Sql.Service,
        Effect.map(Sql.Service, (sql) => ({ ...sql, transaction: <A, E, R>(body: Effect.Effect<A, E, R>) => Effect.suspend(() => (transactions++, sql.transaction(body))) })),
      )
      const layer = EventLog.layer({ window: Duration.millis(500) }).pipe(Layer.provideMerge(Layer.mergeAll(Bus.layer, counting.pipe(Layer.provideMerge(Database.layer(file))))))
      yield* Effect.scoped(
        Effect.gen(function* () {
          const log = yield* EventLog.Service
          const bus = yield* Bus.Service
          const live = yield* log.live
          const before = transactions
          // Five events in five turns of the event loop, as a tool call's events come.
          for (let n = 1; n <= 5; n++) {
            yield* bus.publish(Ping, { n })
            yield* Effect.yieldNow
          }
          expect(seqs([...(yield* Stream.runCollect(Stream.take(live, 5)))])).toEqual([1, 2, 3, 4, 5])
          expect(transactions - before).toBe(1)
        }).pipe(Effect.provide(layer)),
      )
    }))

  it.live("writes the events published as it closes: nothing published is lost", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      yield* Effect.gen(function* () {
        const bus = yield* Bus.Service
        expect(seqs(yield* record([{ n: 1 }]))).toEqual([1])
        // Published in the last turn of the event loop before the log closes, before its writer ran.
        yield* bus.publish(Ping, { n: 2 })
        yield* bus.publish(Ping, { n: 3 })
      }).pipe(Effect.provide(logLayer(file)))
      const reopened = yield* Effect.flatMap(EventLog.Service, (log) => log.after(0)).pipe(Effect.provide(logLayer(file)))
      expect(reopened.map((event) => [event.seq, event.data])).toEqual([[1, { n: 1 }], [2, { n: 2 }], [3, { n: 3 }]])
    }))

  it.live("loses a batch it cannot write, logging why, and goes on storing with the next sequence number", () =>
    Effect.gen(function* () {
      const file = yield* databaseFile
      const logged = yield* Queue.unbounded<unknown>()
      const logger = Logger.make(({ message }) => Queue.offerUnsafe(logged, message))
      yield* Effect.gen(function* () {
        const { db } = yield* Database.Service
        const bus = yield* Bus.Service
        yield* record([{ n: 1 }])
        db.pragma("query_only = ON")
        yield* bus.publish(Ping, { n: 2 })
        const message = yield* Queue.take(logged)
        db.pragma("query_only = OFF")
        expect(message).toEqual([`Could not store 1 event: ${Sql.Messages.unavailable(file, "attempt to write a readonly database")}`])
        expect(seqs(yield* record([{ n: 3 }]))).toEqual([2])
      }).pipe(Effect.provide(logLayer(file).pipe(Layer.provide(Logger.layer([logger])))))
    }))

  it.live("gives a Location's events its directory from the moment it opens, in a process hosting Locations", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const work = path.join(root, "work")
      yield* Effect.promise(() => mkdir(work))
      const environment = { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: path.join(root, "home") }
      const hosting = Locations.layer({ environment, idle: 60_000 }).pipe(
        Layer.provideMerge(EventLog.layer()),
        Layer.provideMerge(ToolgateProcess.layer({ environment })),
      )
      const events = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const handle = yield* locations.open({ directory: work })
        yield* locations.close(handle.id)
        const log = yield* EventLog.Service
        return yield* log.after(0)
      }).pipe(Effect.provide(hosting))
      const id = Location.idOf(work)
      const mine = events.filter((event) => event.locationID === id)
      expect(mine[0]).toEqual({ seq: mine[0]?.seq, at: mine[0]?.at, type: "toolgate.location.opened", data: { locationID: id, directory: work }, locationID: id, directory: work })
      expect(mine.at(-1)?.type).toBe("toolgate.location.closed")
      expect(mine.every((event) => event.directory === work)).toBe(true)
      expect(mine.length).toBeGreaterThan(2)
    }))
})
