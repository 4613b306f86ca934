/**
 * The SSE stream of the event log (`GET /api/event`), framework-free: one connection is a web
 * `Response` whose body yields frames `id: <seq>\nevent: message\ndata: <json>\n\n`, the data
 * being OpenCode V2's event shape `{ id, type, data, location? }` with `id` the sequence number
 * as a string. Every frame's `id` is the connection's cursor, the last sequence number it
 * delivered, so a client that reconnects with `Last-Event-ID` gets exactly what it missed: the
 * live subscription is taken before the backlog is read, and a live event at or below the cursor
 * is dropped. A cursor whose successors retention deleted, or that this log never gave, gets one
 * `toolgate.resync` instead. The body ends, releasing its subscription, when the request's
 * signal aborts or the client cancels it.
 */
export * as ServerSse from "./sse.js"

import path from "node:path"
import { Context, Duration, Effect, Option, Stream } from "effect"
import { Location } from "../location/location.js"
import { LocationMutation } from "../location/mutation.js"
import { EventLog } from "./event-log.js"
import { ServerHub } from "./hub.js"

/** How often a connection sends `server.heartbeat`, whatever else it sends. */
export const HEARTBEAT = Duration.seconds(10)

/** The response headers, verbatim. */
export const HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  "X-Content-Type-Options": "nosniff",
} as const

/** The types of the frames a connection makes itself (stored events keep their wire names). */
export const Types = {
  connected: "server.connected",
  heartbeat: "server.heartbeat",
  resync: "toolgate.resync",
} as const

/** Why a connection resyncs: events it missed were deleted, or its cursor is not this log's. */
export type Reason = "pruned" | "unknown"

export const Messages = {
  resync: {
    pruned: "Events since your last one are no longer kept: reload the state",
    unknown: "Your last event id is not one this server gave: reload the state",
  } satisfies Record<Reason, string>,
} as const

/** One SSE frame before encoding. */
export interface Frame {
  /** The connection's cursor: the frame's `id:` line and its data's `id`. */
  readonly id: number
  readonly type: string
  readonly data: unknown
  /** The Location's real path, sent as `location: { directory }`. */
  readonly directory?: string
}

/** What one connection asks for. */
export interface Input {
  /** The `Last-Event-ID` header: absent or empty for a new client. */
  readonly lastEventID?: string
  /** `?directory=`: a Location's real path; only its events and the process's are sent. */
  readonly directory?: string
  /** `?session=`: only the events whose payload names this session. */
  readonly session?: string
  /** Ends the stream when it aborts (the request's signal). */
  readonly signal?: AbortSignal
  /**
   * The roots the server may open (real paths): only their Locations' events and the process's
   * are sent. The log outlives a server, so it holds events of roots an earlier one served.
   */
  readonly allowed?: ReadonlyArray<string>
}

/** The directories a server may open, as the hub has them. */
export interface Scope {
  /** Where a relative `?directory=` is read from. */
  readonly root: string
  /** The allowed roots, real paths. */
  readonly allowed: ReadonlyArray<string>
}

export interface Options {
  /** The heartbeat interval (default `HEARTBEAT`). */
  readonly heartbeat?: Duration.Input
  /** The server's roots: `?directory=` outside them is 403, and only their events are sent. */
  readonly scope?: Scope
}

/** Where a connection starts: after its cursor, from now, or told to resync. */
export type Start =
  | { readonly kind: "fresh" }
  | { readonly kind: "resume"; readonly after: number }
  | { readonly kind: "resync"; readonly reason: "unknown"; readonly cursor: number }

/**
 * Reads `Last-Event-ID` against the log's latest sequence number: absent or empty starts fresh;
 * a decimal at most `latest` resumes after it; anything else resyncs, keeping the client's
 * number as the cursor when it is one (so a reconnect before the resync frame resyncs again).
 * @example ServerSse.start("41", 57) // { kind: "resume", after: 41 }
 */
export const start = (lastEventID: string | undefined, latest: number): Start => {
  if (lastEventID === undefined || lastEventID === "") return { kind: "fresh" }
  const seq = /^(0|[1-9][0-9]*)$/.test(lastEventID) ? Number(lastEventID) : Number.NaN
  if (!Number.isSafeInteger(seq)) return { kind: "resync", reason: "unknown", cursor: 0 }
  if (seq > latest) return { kind: "resync", reason: "unknown", cursor: seq }
  return { kind: "resume", after: seq }
}

/**
 * One frame's bytes. JSON text never holds a raw CR or LF, so the data is one line; the id is a
 * number and the event name fixed, so neither can break the framing.
 * @example ServerSse.encode({ id: 3, type: "server.heartbeat", data: {} }) // 'id: 3\nevent: message\ndata: {"id":"3","type":"server.heartbeat","data":{}}\n\n'
 */
export const encode = (frame: Frame): string => {
  const event = { id: String(frame.id), type: frame.type, data: frame.data, ...(frame.directory === undefined ? {} : { location: { directory: frame.directory } }) }
  return `id: ${frame.id}\nevent: message\ndata: ${JSON.stringify(event)}\n\n`
}

/** A connection's input from a web request: `Last-Event-ID`, `?directory=`, `?session=` and its signal. */
export const inputOf = (request: Request): Input => {
  const query = new URL(request.url).searchParams
  const lastEventID = request.headers.get("last-event-id")
  const directory = query.get("directory")
  const session = query.get("session")
  return {
    ...(lastEventID === null ? {} : { lastEventID }),
    ...(directory === null ? {} : { directory }),
    ...(session === null ? {} : { session }),
    signal: request.signal,
  }
}

type Item =
  | { readonly kind: "connected"; readonly cursor: number }
  | { readonly kind: "event"; readonly event: EventLog.Stored }
  | { readonly kind: "resync"; readonly cursor: number; readonly reason: Reason }
  | { readonly kind: "heartbeat" }

const HEARTBEAT_ITEM: Item = { kind: "heartbeat" }

const toItem = (event: EventLog.Stored): Item => ({ kind: "event", event })

/** Advances the cursor: an event at or below it was delivered already (the backlog met the live part). */
const step = (cursor: number, item: Item): readonly [number, ReadonlyArray<Frame>] => {
  if (item.kind === "connected") return [item.cursor, [{ id: item.cursor, type: Types.connected, data: {} }]]
  if (item.kind === "heartbeat") return [cursor, [{ id: cursor, type: Types.heartbeat, data: {} }]]
  if (item.kind === "resync") return [item.cursor, [{ id: item.cursor, type: Types.resync, data: { reason: item.reason, message: Messages.resync[item.reason] } }]]
  const { event } = item
  if (event.seq <= cursor) return [cursor, []]
  return [event.seq, [{ id: event.seq, type: event.type, data: event.data, ...(event.directory === undefined ? {} : { directory: event.directory }) }]]
}

/** `?directory=` as a real path (relative to `root`, default the process's), or as given when it is gone. */
const realOf = (directory: string, root?: string) => {
  const absolute = root === undefined ? path.resolve(directory) : path.resolve(root, directory)
  return Location.resolve(absolute).pipe(Effect.catchTag("Location.DirectoryError", () => Effect.succeed(absolute)))
}

/** `?directory=` as a Location id: its real path's, or the path's as given when it is gone. */
const locationOf = (directory: string) => Effect.map(realOf(directory), Location.idOf)

/** Whether `real` lies in one of `allowed`. */
const within = (allowed: ReadonlyArray<string>, real: string) => allowed.some((root) => LocationMutation.contains(root, real))

/**
 * Whether an event may go to a client of a server with these roots: the process's own events, and
 * a Location's only when its directory lies in a root (one whose directory is unknown never).
 */
export const visible =
  (allowed: ReadonlyArray<string> | undefined) =>
  (event: EventLog.Stored): boolean =>
    allowed === undefined || event.locationID === undefined || (event.directory !== undefined && within(allowed, event.directory))

/** The stored events after `after` that `shown` passes, page by page; a resync at the latest sequence number once some are gone. */
const replay = (log: EventLog.Interface, after: number, filter: EventLog.Filter, shown: (event: EventLog.Stored) => boolean): Stream.Stream<Item> =>
  Stream.paginate(after, (cursor: number) =>
    log.after(cursor, filter, EventLog.PAGE).pipe(
      Effect.map((events): readonly [ReadonlyArray<Item>, Option.Option<number>] => {
        const last = events.at(-1)
        return [events.filter(shown).map(toItem), last === undefined || events.length < EventLog.PAGE ? Option.none() : Option.some(last.seq)]
      }),
      Effect.catchTag("EventLog.PrunedError", () =>
        Effect.map(log.latest, (latest): readonly [ReadonlyArray<Item>, Option.Option<number>] => [[{ kind: "resync", cursor: latest, reason: "pruned" }], Option.none()]),
      ),
    ),
  )

/**
 * The frames of one connection: `server.connected` first (its id the client's cursor: its own
 * `Last-Event-ID`, or the latest sequence number for a new client), then the backlog or a
 * resync, then live events, with `server.heartbeat` every interval after the first frame.
 */
export const frames = (input: Input, options: Options = {}): Stream.Stream<Frame, never, EventLog.Service> =>
  Stream.unwrap(
    Effect.gen(function* () {
      const log = yield* EventLog.Service
      const filter: EventLog.Filter = {
        ...(input.directory === undefined ? {} : { locationID: yield* locationOf(input.directory) }),
        ...(input.session === undefined ? {} : { sessionID: input.session }),
      }
      const shown = visible(input.allowed)
      // Live first, then the latest number and the backlog: nothing stored in between is missed.
      const live = yield* log.live
      const latest = yield* log.latest
      const plan = start(input.lastEventID, latest)
      const backlog: Stream.Stream<Item> =
        plan.kind === "fresh"
          ? Stream.empty
          : plan.kind === "resync"
            ? Stream.succeed<Item>({ kind: "resync", cursor: latest, reason: plan.reason })
            : replay(log, plan.after, filter, shown)
      const connected: Item = { kind: "connected", cursor: plan.kind === "fresh" ? latest : plan.kind === "resume" ? plan.after : plan.cursor }
      const body = Stream.concat(backlog, live.pipe(Stream.filter((event) => EventLog.matches(filter)(event) && shown(event)), Stream.map(toItem)))
      const heartbeats = Stream.tick(options.heartbeat ?? HEARTBEAT).pipe(
        Stream.drop(1),
        Stream.map(() => HEARTBEAT_ITEM),
      )
      return Stream.concat(Stream.succeed(connected), Stream.merge(body, heartbeats, { haltStrategy: "left" })).pipe(Stream.mapAccum(() => 0, step))
    }),
  )

const respond = (context: Context.Context<EventLog.Service>, input: Input, options: Options): Response =>
  new Response(
    Stream.toReadableStreamWith(frames(input, options).pipe(Stream.map(encode), Stream.encodeText), context, input.signal === undefined ? {} : { signal: input.signal }),
    { headers: HEADERS },
  )

/** The `Response` of one connection, its stream run with the services in context. */
export const response = (input: Input, options: Options = {}) => Effect.map(Effect.context<EventLog.Service>(), (context) => respond(context, input, options))

/** The 403 of a `?directory=` outside the server's roots, as the routes answer it (ServerHub.reply). */
const forbidden = (real: string) => Response.json({ _tag: "ForbiddenError", message: ServerHub.Messages.forbidden(real), directory: real }, { status: 403 })

/**
 * A fetch-style handler for `GET /api/event`, bound to the EventLog in context. With a `scope`, a
 * `?directory=` outside its roots is refused and only the roots' events are sent.
 * @example const events = yield* ServerSse.handler({ scope: { root, allowed } }); app.get("/api/event", (c) => events(c.req.raw))
 */
export const handler = (options: Options = {}) =>
  Effect.map(Effect.context<EventLog.Service>(), (context) => (request: Request): Response => {
    const input = inputOf(request)
    const scope = options.scope
    if (scope === undefined) return respond(context, input, options)
    if (input.directory === undefined) return respond(context, { ...input, allowed: scope.allowed }, options)
    const real = Effect.runSync(realOf(input.directory, scope.root))
    if (!within(scope.allowed, real)) return forbidden(real)
    return respond(context, { ...input, directory: real, allowed: scope.allowed }, options)
  })
