/**
 * The SSE stream served by a real HTTP server on 127.0.0.1 and read with fetch: headers and the
 * first frame verbatim, live order, filters, replay after a disconnect with no gap and no
 * duplicate (also where the backlog and the live part overlap, and across pages), resync when
 * retention deleted what a client missed, heartbeats, and the subscription released when the
 * client goes or the signal aborts. The event log runs over a real bus and a real SQLite file.
 */
import { mkdir, symlink } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { createOpencodeClient } from "@opencode-ai/sdk/v2/client"
import { Duration, Effect, Layer, Queue, Schema, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import { Location } from "../../src/location/location.js"
import { Locations } from "../../src/locations.js"
import { EventLog } from "../../src/server/event-log.js"
import { ServerSse } from "../../src/server/sse.js"
import { Database } from "../../src/storage/database.js"
import { type Frame, type Reader, connect, serve } from "../lib/sse.js"
import { tmpdir } from "../lib/tmp.js"

const Ping = Bus.event("test.ping", Schema.Struct({ n: Schema.Number, sessionID: Schema.optionalKey(Schema.String) }))

/** No heartbeat within a test, unless the test is about heartbeats. */
const QUIET: ServerSse.Options = { heartbeat: Duration.hours(1) }

/** Runs `body` with an event log over a fresh database file. */
const withLog = <A, E, R>(body: Effect.Effect<A, E, R>, options?: EventLog.Options) =>
  Effect.gen(function* () {
    const file = path.join(yield* tmpdir, "toolgate.db")
    return yield* body.pipe(Effect.provide(EventLog.layer(options).pipe(Layer.provideMerge(Layer.mergeAll(Bus.layer, Database.layer(file))))))
  })

interface Published {
  readonly n: number
  readonly sessionID?: string
  readonly location?: string
}

/** Publishes a ping for each entry and waits until the log stored them all. */
const record = (pings: ReadonlyArray<Published>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const log = yield* EventLog.Service
      const bus = yield* Bus.Service
      const live = yield* log.live
      yield* Effect.forEach(pings, ({ location, ...payload }) => bus.publish(Ping, payload, location), { discard: true })
      yield* Stream.runDrain(Stream.take(live, pings.length))
    }),
  )

const pings = (from: number, count: number): ReadonlyArray<Published> => Array.from({ length: count }, (_, index) => ({ n: from + index }))

/** The log in context, its `live` telling `released` each time a subscription of it ends. */
const tracked = Effect.gen(function* () {
  const log = yield* EventLog.Service
  const released = yield* Queue.unbounded<void>()
  const wrapped = EventLog.Service.of({ ...log, live: Effect.tap(log.live, () => Effect.addFinalizer(() => Queue.offer(released, undefined))) })
  return { wrapped, released }
})

/** Serves `ServerSse.handler` over `log` (the one in context by default). */
const served = (options: ServerSse.Options = QUIET, log?: EventLog.Interface) =>
  Effect.gen(function* () {
    const handler = yield* ServerSse.handler(options).pipe(Effect.provideService(EventLog.Service, log ?? (yield* EventLog.Service)))
    return yield* serve(handler)
  })

/** Frames up to and including the first that `last` accepts. */
const until = (reader: Reader, last: (frame: Frame) => boolean): Effect.Effect<ReadonlyArray<Frame>> =>
  Effect.flatMap(reader.next, (frame) => (last(frame) ? Effect.succeed([frame]) : Effect.map(until(reader, last), (rest) => [frame, ...rest])))

const pingOf = (frame: Frame) => (frame.data.type === "toolgate.test.ping" ? (frame.data.data as { n: number }).n : undefined)

const summary = (frames: ReadonlyArray<Frame>) => frames.map((frame) => [frame.id, frame.data.type, pingOf(frame)])

describe("ServerSse", () => {
  const encodings: ReadonlyArray<{ readonly name: string; readonly frame: ServerSse.Frame; readonly bytes: string }> = [
    {
      name: "a stored event of a Location",
      frame: { id: 7, type: "toolgate.todo.updated", data: { sessionID: "ses_a", todos: [] }, directory: "/w/a" },
      bytes: 'id: 7\nevent: message\ndata: {"id":"7","type":"toolgate.todo.updated","data":{"sessionID":"ses_a","todos":[]},"location":{"directory":"/w/a"}}\n\n',
    },
    {
      name: "line breaks in the data stay escaped on one data line",
      frame: { id: 8, type: "toolgate.test.ping", data: { text: "a\nb\r\nc" } },
      bytes: 'id: 8\nevent: message\ndata: {"id":"8","type":"toolgate.test.ping","data":{"text":"a\\nb\\r\\nc"}}\n\n',
    },
    { name: "a heartbeat", frame: { id: 0, type: "server.heartbeat", data: {} }, bytes: 'id: 0\nevent: message\ndata: {"id":"0","type":"server.heartbeat","data":{}}\n\n' },
  ]
  for (const c of encodings) it(`encodes ${c.name} byte for byte`, () => expect(ServerSse.encode(c.frame)).toBe(c.bytes))

  const starts: ReadonlyArray<{ readonly lastEventID: string | undefined; readonly start: ServerSse.Start }> = [
    { lastEventID: undefined, start: { kind: "fresh" } },
    { lastEventID: "", start: { kind: "fresh" } },
    { lastEventID: "0", start: { kind: "resume", after: 0 } },
    { lastEventID: "41", start: { kind: "resume", after: 41 } },
    { lastEventID: "57", start: { kind: "resume", after: 57 } },
    { lastEventID: "58", start: { kind: "resync", reason: "unknown", cursor: 58 } },
    { lastEventID: "041", start: { kind: "resync", reason: "unknown", cursor: 0 } },
    { lastEventID: "-1", start: { kind: "resync", reason: "unknown", cursor: 0 } },
    { lastEventID: "evt_1", start: { kind: "resync", reason: "unknown", cursor: 0 } },
    { lastEventID: "99999999999999999999", start: { kind: "resync", reason: "unknown", cursor: 0 } },
  ]
  for (const c of starts) it(`starts from Last-Event-ID ${JSON.stringify(c.lastEventID)} with the latest at 57`, () => expect(ServerSse.start(c.lastEventID, 57)).toEqual(c.start))

  it("names its frames and its resync messages", () => {
    expect(ServerSse.Types).toEqual({ connected: "server.connected", heartbeat: "server.heartbeat", resync: "toolgate.resync" })
    expect(ServerSse.Messages.resync).toEqual({
      pruned: "Events since your last one are no longer kept: reload the state",
      unknown: "Your last event id is not one this server gave: reload the state",
    })
  })

  it.live("answers with the SSE headers verbatim and server.connected first, its id the latest sequence number", () =>
    withLog(
      Effect.gen(function* () {
        yield* record(pings(1, 2))
        const server = yield* served()
        const reader = yield* connect(server.url("/api/event"))
        expect(reader.status).toBe(200)
        expect(Object.fromEntries(Object.keys(ServerSse.HEADERS).map((name) => [name, reader.headers.get(name)]))).toEqual({
          "Content-Type": "text/event-stream",
          "Cache-Control": "no-cache, no-transform",
          "X-Accel-Buffering": "no",
          "X-Content-Type-Options": "nosniff",
        })
        expect((yield* reader.next).raw).toBe('id: 2\nevent: message\ndata: {"id":"2","type":"server.connected","data":{}}\n\n')
      }),
    ))

  it.live("sends live events in order, each with its sequence number, wire name, payload and Location", () =>
    withLog(
      Effect.gen(function* () {
        const bus = yield* Bus.Service
        const server = yield* served()
        const reader = yield* connect(server.url("/api/event"))
        yield* reader.next
        yield* bus.publish(Locations.Opened, { locationID: "loc_a", directory: "/w/a" }, "loc_a")
        yield* bus.publish(Ping, { n: 1, sessionID: "ses_a" }, "loc_a")
        yield* bus.publish(Ping, { n: 2 })
        expect((yield* reader.take(3)).map((frame) => frame.raw)).toEqual([
          'id: 1\nevent: message\ndata: {"id":"1","type":"toolgate.location.opened","data":{"locationID":"loc_a","directory":"/w/a"},"location":{"directory":"/w/a"}}\n\n',
          'id: 2\nevent: message\ndata: {"id":"2","type":"toolgate.test.ping","data":{"n":1,"sessionID":"ses_a"},"location":{"directory":"/w/a"}}\n\n',
          'id: 3\nevent: message\ndata: {"id":"3","type":"toolgate.test.ping","data":{"n":2}}\n\n',
        ])
      }),
    ))

  it.live("sends a ?directory= reader its Location's events and the process's, and a ?session= reader that session's", () =>
    withLog(
      Effect.gen(function* () {
        const root = yield* tmpdir
        const a = path.join(root, "a")
        const b = path.join(root, "b")
        yield* Effect.promise(async () => {
          await mkdir(a)
          await mkdir(b)
          await symlink(a, path.join(root, "link-to-a"))
        })
        const [idA, idB] = [Location.idOf(a), Location.idOf(b)]
        const bus = yield* Bus.Service
        const server = yield* served()
        const query = (parameters: Record<string, string>) => server.url(`/api/event?${new URLSearchParams(parameters).toString()}`)
        const readers = yield* Effect.forEach(
          [{ directory: a }, { directory: path.join(root, "link-to-a") }, { session: "ses_a" }, { directory: a, session: "ses_a" }] as ReadonlyArray<Record<string, string>>,
          (parameters) => Effect.tap(connect(query(parameters)), (reader) => reader.next),
        )
        yield* bus.publish(Locations.Opened, { locationID: idA, directory: a }, idA)
        yield* bus.publish(Locations.Opened, { locationID: idB, directory: b }, idB)
        yield* bus.publish(Ping, { n: 1, sessionID: "ses_a" }, idA)
        yield* bus.publish(Ping, { n: 2, sessionID: "ses_a" }, idB)
        yield* bus.publish(Ping, { n: 3 })
        yield* bus.publish(Ping, { n: 4, sessionID: "ses_b" }, idA)
        // The last one passes every filter: each reader reads up to it.
        yield* bus.publish(Ping, { n: 5, sessionID: "ses_a" }, idA)
        const seen = yield* Effect.forEach(readers, (reader) => Effect.map(until(reader, (frame) => pingOf(frame) === 5), (frames) => frames.map((frame) => frame.id)))
        expect(seen).toEqual([
          ["1", "3", "5", "6", "7"],
          ["1", "3", "5", "6", "7"],
          ["3", "4", "7"],
          ["3", "7"],
        ])
      }),
    ))

  it.live("replays what a client missed while disconnected, then live events, with no gap and no duplicate", () =>
    withLog(
      Effect.gen(function* () {
        const { wrapped, released } = yield* tracked
        const server = yield* served(QUIET, wrapped)
        const url = server.url("/api/event")
        const before = yield* Effect.scoped(
          Effect.gen(function* () {
            const reader = yield* connect(url)
            yield* reader.next
            yield* record(pings(1, 2))
            const frames = yield* reader.take(2)
            yield* reader.disconnect
            return frames
          }),
        )
        yield* Queue.take(released)
        yield* record(pings(3, 3))
        const reader = yield* connect(url, { "Last-Event-ID": before.at(-1)?.id ?? "" })
        const replayed = yield* reader.take(4)
        yield* record(pings(6, 2))
        const after = yield* reader.take(2)
        expect(summary([...before, ...replayed, ...after])).toEqual([
          ["1", "toolgate.test.ping", 1],
          ["2", "toolgate.test.ping", 2],
          ["2", "server.connected", undefined],
          ["3", "toolgate.test.ping", 3],
          ["4", "toolgate.test.ping", 4],
          ["5", "toolgate.test.ping", 5],
          ["6", "toolgate.test.ping", 6],
          ["7", "toolgate.test.ping", 7],
        ])
      }),
    ))

  it.live("sends an event stored between the live subscription and the backlog once, to a resuming and to a new client", () =>
    withLog(
      Effect.gen(function* () {
        const log = yield* EventLog.Service
        const bus = yield* Bus.Service
        // The event lands in the live queue of the connection and in the table before the backlog is read.
        const overlapping = EventLog.Service.of({
          ...log,
          live: Effect.gen(function* () {
            const live = yield* log.live
            const probe = yield* log.live
            yield* bus.publish(Ping, { n: 99 })
            yield* Stream.runHead(probe)
            return live
          }),
        })
        yield* record(pings(1, 2))
        const server = yield* served(QUIET, overlapping)
        const resuming = yield* connect(server.url("/api/event"), { "Last-Event-ID": "1" })
        expect(summary(yield* resuming.take(3))).toEqual([
          ["1", "server.connected", undefined],
          ["2", "toolgate.test.ping", 2],
          ["3", "toolgate.test.ping", 99],
        ])
        const fresh = yield* connect(server.url("/api/event"))
        expect(summary(yield* fresh.take(1))).toEqual([["4", "server.connected", undefined]])
        yield* record(pings(5, 1))
        // The new client's own overlapping event (4) reached the first one live, and not itself.
        expect(summary(yield* resuming.take(2))).toEqual([
          ["4", "toolgate.test.ping", 99],
          ["5", "toolgate.test.ping", 5],
        ])
        expect(summary(yield* fresh.take(1))).toEqual([["5", "toolgate.test.ping", 5]])
      }),
    ))

  it.live("replays a backlog of several pages in order", () =>
    withLog(
      Effect.gen(function* () {
        const count = EventLog.PAGE * 2 + 500
        yield* record(pings(1, count))
        const server = yield* served()
        const reader = yield* connect(server.url("/api/event"), { "Last-Event-ID": "0" })
        const frames = yield* reader.take(count + 1)
        expect(frames.map((frame) => frame.id)).toEqual(Array.from({ length: count + 1 }, (_, index) => String(index)))
        expect(frames.slice(1).map(pingOf)).toEqual(Array.from({ length: count }, (_, index) => index + 1))
      }),
    ))

  it.live("tells a client whose missed events retention deleted to resync, then sends live events", () =>
    withLog(
      Effect.gen(function* () {
        yield* record(pings(1, 5))
        const server = yield* served()
        const gone = yield* connect(server.url("/api/event"), { "Last-Event-ID": "1" })
        expect((yield* gone.take(2)).map((frame) => frame.raw)).toEqual([
          'id: 1\nevent: message\ndata: {"id":"1","type":"server.connected","data":{}}\n\n',
          'id: 5\nevent: message\ndata: {"id":"5","type":"toolgate.resync","data":{"reason":"pruned","message":"Events since your last one are no longer kept: reload the state"}}\n\n',
        ])
        // Nothing after 3 was deleted: that client resumes.
        const kept = yield* connect(server.url("/api/event"), { "Last-Event-ID": "3" })
        expect(summary(yield* kept.take(3))).toEqual([
          ["3", "server.connected", undefined],
          ["4", "toolgate.test.ping", 4],
          ["5", "toolgate.test.ping", 5],
        ])
        yield* record(pings(6, 1))
        expect(summary(yield* gone.take(1))).toEqual([["6", "toolgate.test.ping", 6]])
        expect(summary(yield* kept.take(1))).toEqual([["6", "toolgate.test.ping", 6]])
      }),
      { maxEvents: 2 },
    ))

  it.live("tells a client whose Last-Event-ID this log never gave to resync", () =>
    withLog(
      Effect.gen(function* () {
        yield* record(pings(1, 2))
        const server = yield* served()
        const ahead = yield* connect(server.url("/api/event"), { "Last-Event-ID": "99" })
        const garbage = yield* connect(server.url("/api/event"), { "Last-Event-ID": "evt_1" })
        const resync = 'id: 2\nevent: message\ndata: {"id":"2","type":"toolgate.resync","data":{"reason":"unknown","message":"Your last event id is not one this server gave: reload the state"}}\n\n'
        expect((yield* ahead.take(2)).map((frame) => frame.raw)).toEqual(['id: 99\nevent: message\ndata: {"id":"99","type":"server.connected","data":{}}\n\n', resync])
        expect((yield* garbage.take(2)).map((frame) => frame.raw)).toEqual(['id: 0\nevent: message\ndata: {"id":"0","type":"server.connected","data":{}}\n\n', resync])
        yield* record(pings(3, 1))
        expect(summary(yield* ahead.take(1))).toEqual([["3", "toolgate.test.ping", 3]])
      }),
    ))

  it.live("resyncs a replay whose next page retention deleted meanwhile, after the pages it sent", () =>
    withLog(
      Effect.gen(function* () {
        const log = yield* EventLog.Service
        const pages = { read: 0 }
        // The second page finds its events deleted, as if retention ran between the two reads.
        const pruning = EventLog.Service.of({
          ...log,
          after: (seq, filter, limit) =>
            Effect.suspend(() => (++pages.read === 2 ? Effect.fail(new EventLog.PrunedError({ after: seq, through: seq + 1 })) : log.after(seq, filter, limit))),
        })
        yield* record(pings(1, EventLog.PAGE + 1))
        const server = yield* served(QUIET, pruning)
        const reader = yield* connect(server.url("/api/event"), { "Last-Event-ID": "0" })
        const frames = yield* reader.take(EventLog.PAGE + 2)
        expect(frames.map((frame) => frame.id)).toEqual([...Array.from({ length: EventLog.PAGE + 1 }, (_, index) => String(index)), String(EventLog.PAGE + 1)])
        expect(frames.at(-1)?.data.type).toBe("toolgate.resync")
      }),
    ))

  it.live("sends server.heartbeat every interval, its id the cursor", () =>
    withLog(
      Effect.gen(function* () {
        const server = yield* served({ heartbeat: Duration.millis(10) })
        const reader = yield* connect(server.url("/api/event"))
        expect((yield* reader.take(2)).map((frame) => frame.raw)).toEqual([
          'id: 0\nevent: message\ndata: {"id":"0","type":"server.connected","data":{}}\n\n',
          'id: 0\nevent: message\ndata: {"id":"0","type":"server.heartbeat","data":{}}\n\n',
        ])
        yield* record(pings(1, 1))
        yield* until(reader, (frame) => pingOf(frame) === 1)
        expect((yield* until(reader, (frame) => frame.data.type === "server.heartbeat")).map((frame) => frame.raw)).toEqual([
          'id: 1\nevent: message\ndata: {"id":"1","type":"server.heartbeat","data":{}}\n\n',
        ])
      }),
    ))

  it.live("ends and releases its subscription when the client disconnects", () =>
    withLog(
      Effect.gen(function* () {
        const { wrapped, released } = yield* tracked
        const server = yield* served(QUIET, wrapped)
        const reader = yield* connect(server.url("/api/event"))
        yield* reader.next
        yield* reader.disconnect
        yield* Queue.take(released)
      }),
    ))

  it.live("ends its body and releases its subscription when the request's signal aborts", () =>
    withLog(
      Effect.gen(function* () {
        const { wrapped, released } = yield* tracked
        const abort = new AbortController()
        const response = yield* ServerSse.response({ signal: abort.signal }, QUIET).pipe(Effect.provideService(EventLog.Service, wrapped))
        const body = response.body!.pipeThrough(new TextDecoderStream()).getReader()
        expect((yield* Effect.promise(() => body.read())).value).toBe('id: 0\nevent: message\ndata: {"id":"0","type":"server.connected","data":{}}\n\n')
        abort.abort()
        expect((yield* Effect.promise(() => body.read())).done).toBe(true)
        yield* Queue.take(released)
      }),
    ))

  it.live("is read by OpenCode's V2 client as V2 events", () =>
    withLog(
      Effect.gen(function* () {
        const server = yield* served()
        const abort = new AbortController()
        yield* Effect.addFinalizer(() => Effect.sync(() => abort.abort()))
        const client = createOpencodeClient({ baseUrl: server.url("") })
        const { stream } = yield* Effect.promise(() => client.v2.event.subscribe({ signal: abort.signal, sseMaxRetryAttempts: 1 }))
        const next = () => Effect.promise(() => stream.next())
        expect((yield* next()).value).toEqual({ id: "0", type: "server.connected", data: {} })
        yield* record([{ n: 1, sessionID: "ses_a" }])
        expect((yield* next()).value).toEqual({ id: "1", type: "toolgate.test.ping", data: { n: 1, sessionID: "ses_a" } })
      }),
    ))
})
