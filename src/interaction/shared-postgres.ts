/**
 * The shared asks (interaction/shared.ts) on PostgreSQL: the `shared_ask` table, a listening
 * connection per server (`LISTEN toolgate_ask`) whose backend is the server's identity, and the
 * conditional UPDATE that lets exactly one reply win.
 */
export * as SharedAsksPostgres from "./shared-postgres.js"

import { Clock, Effect, Layer, Queue, Stream } from "effect"
import pg from "pg"
import { Sql } from "../storage/sql.js"
import type { Interaction } from "./interaction.js"
import { SharedAsks } from "./shared.js"

/** The channel every server listens on. */
export const CHANNEL = "toolgate_ask"
/** How long to wait before listening again after the connection was lost. */
export const RECONNECT_MS = 1_000

type Foreign = SharedAsks.Foreign
type Heard = SharedAsks.Heard
const { Service } = SharedAsks

interface Row {
  readonly id: string
  readonly kind: string
  readonly session_id: string
  readonly payload: string
  readonly owner: string
  readonly created_at: number
  readonly answer: string | null
}

const toForeign = (row: Row): Foreign => ({
  pending: { id: row.id, sessionID: row.session_id, kind: row.kind, payload: JSON.parse(row.payload), createdAt: row.created_at } as Interaction.Pending,
  owner: row.owner,
})

/**
 * Stores a new ask and tells every server, in one statement: the row and its notice commit
 * together, so no server holds an ask the others were never told of. `noticed` is 1, or 0 when
 * the id was stored already.
 */
const OPEN = `WITH opened AS (
    INSERT INTO shared_ask (id, kind, session_id, payload, owner, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
  ), noticed AS (SELECT pg_notify(?, 'asked:' || id) FROM opened)
  SELECT (SELECT count(*) FROM noticed) AS noticed`

/** Ends an open ask and notifies, in one statement: `ended` is 1, or 0 when it had ended already. */
const END = `WITH ended AS (
    UPDATE shared_ask SET ended_at = ? WHERE id = ? AND ended_at IS NULL RETURNING id
  ), noticed AS (SELECT pg_notify(?, 'ended:' || id) FROM ended)
  SELECT (SELECT count(*) FROM ended) AS ended, (SELECT count(*) FROM noticed) AS noticed`

/** Claims an open ask for an answer and notifies, in one statement: `claimed` is 1 or 0. */
const CLAIM = `WITH claimed AS (
    UPDATE shared_ask SET answer = ?, answered_at = ? WHERE id = ? AND answer IS NULL AND ended_at IS NULL RETURNING id
  ), noticed AS (SELECT pg_notify(?, 'answered:' || id) FROM claimed)
  SELECT (SELECT count(*) FROM claimed) AS claimed, (SELECT count(*) FROM noticed) AS noticed`

/**
 * A claim made only while the owner's listening connection (pg:<pid>:<backend start>) exists. A
 * role without pg_read_all_stats sees another role's backends with their pid and no start time:
 * then the pid alone says the owner lives (a reused pid keeps an ask open, it never ends a live one).
 */
const REPLY = `WITH target AS (
    SELECT id, owner FROM shared_ask WHERE id = ? AND answer IS NULL AND ended_at IS NULL
  ), alive AS (
    SELECT target.id FROM target JOIN pg_stat_activity AS activity
      ON activity.pid = split_part(target.owner, ':', 2)::int AND (activity.backend_start IS NULL OR extract(epoch FROM activity.backend_start)::text = split_part(target.owner, ':', 3))
  ), claimed AS (
    UPDATE shared_ask SET answer = ?, answered_at = ? WHERE id IN (SELECT id FROM alive) AND answer IS NULL AND ended_at IS NULL RETURNING id
  ), noticed AS (SELECT pg_notify(?, 'answered:' || id) FROM claimed)
  SELECT (SELECT count(*) FROM target) AS open, (SELECT count(*) FROM alive) AS alive, (SELECT count(*) FROM claimed) AS claimed, (SELECT count(*) FROM noticed) AS noticed`

/** The servers of the PostgreSQL at `url`: this process's part. */
export const layer = (url: string) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const sql = yield* Sql.Service
      const notices = yield* Queue.unbounded<string>()
      const listeners = new Set<Queue.Queue<Heard>>()
      const handlers = new Map<string, { readonly answered: (answer: Interaction.Answer) => Effect.Effect<void>; readonly ended: Effect.Effect<void> }>()
      const state: { client?: pg.Client; owner: string; closed: boolean } = { owner: "", closed: false }

      /** A listening connection; its backend is this server's identity while it lives. */
      const connect = async () => {
        const client = new pg.Client({ connectionString: url })
        client.on("error", () => undefined)
        await client.connect()
        const me = await client.query<{ pid: number; started: string }>("SELECT pid, extract(epoch FROM backend_start)::text AS started FROM pg_stat_activity WHERE pid = pg_backend_pid()")
        await client.query(`LISTEN ${CHANNEL}`)
        client.on("notification", (message) => {
          if (message.payload !== undefined) Queue.offerUnsafe(notices, message.payload)
        })
        const row = me.rows[0]
        return { client, owner: `pg:${row?.pid}:${row?.started}` }
      }
      const first = yield* Effect.tryPromise({ try: connect, catch: (error) => new Sql.UnavailableError({ location: sql.location, detail: (error as Error).message }) }).pipe(Effect.orDie)
      state.client = first.client
      state.owner = first.owner

      /** Delivers what another server did to an ask of ours: its reply, or its end; nothing when it is not ours or still open. */
      const deliver = Effect.fnUntraced(function* (id: string) {
        const handler = handlers.get(id)
        if (handler === undefined) return
        const row = yield* sql.get<{ answer: string | null; ended: number }>("SELECT answer, CASE WHEN ended_at IS NULL THEN 0 ELSE 1 END AS ended FROM shared_ask WHERE id = ?", [id])
        if (row === undefined || (row.answer === null && row.ended === 0)) return
        handlers.delete(id)
        yield* row.answer === null ? handler.ended : handler.answered(JSON.parse(row.answer) as Interaction.Answer)
      })

      const tell = (heard: Heard) => Effect.sync(() => listeners.forEach((queue) => Queue.offerUnsafe(queue, heard)))

      const hear = Effect.fnUntraced(function* (notice: string) {
        const at = notice.indexOf(":")
        const what = notice.slice(0, at)
        const id = notice.slice(at + 1)
        if (what === "answered" || what === "ended") yield* deliver(id)
        if (handlers.has(id) || listeners.size === 0) return
        const row = yield* sql.get<Row>("SELECT * FROM shared_ask WHERE id = ?", [id])
        if (row === undefined || row.owner === state.owner) return
        if (what === "asked") {
          if (row.answer === null) yield* tell({ type: "asked", ask: toForeign(row) })
        } else yield* tell({ type: "settled", id, kind: row.kind as Interaction.Kind, sessionID: row.session_id, ...(row.answer === null ? {} : { answer: JSON.parse(row.answer) as Interaction.Answer }) })
      })

      // A lost listening connection is made again; then every ask of ours answered meanwhile is delivered.
      const relisten: Effect.Effect<void> = Effect.gen(function* () {
        yield* Effect.sleep(RECONNECT_MS)
        if (state.closed) return
        const made = yield* Effect.option(Effect.tryPromise(connect))
        if (made._tag === "None") return yield* relisten
        if (state.closed) return void made.value.client.end().catch(() => undefined)
        const old = state.client
        const before = state.owner
        state.client = made.value.client
        state.owner = made.value.owner
        old?.end().catch(() => undefined)
        watchEnd(made.value.client)
        // Our waiting asks now belong to the new connection: a reply to them is not refused as an orphan's.
        yield* Effect.ignoreCause(sql.run("UPDATE shared_ask SET owner = ? WHERE owner = ? AND answer IS NULL AND ended_at IS NULL", [state.owner, before]))
        yield* Effect.forEach([...handlers.keys()], (id) => Effect.ignoreCause(deliver(id)), { discard: true })
      })
      const watchEnd = (client: pg.Client) =>
        client.once("end", () => {
          if (!state.closed) Effect.runFork(relisten)
        })
      watchEnd(first.client)

      yield* Queue.take(notices).pipe(
        Effect.flatMap((notice) => hear(notice).pipe(Effect.catchCause((cause) => Effect.logWarning("SharedAsks: a notice could not be handled", cause)))),
        Effect.forever,
        Effect.forkScoped,
      )
      yield* Effect.addFinalizer(() =>
        Effect.promise(async () => {
          state.closed = true
          await state.client?.end().catch(() => undefined)
        }),
      )

      const open = Effect.fnUntraced(function* (pending: Interaction.Pending, answered: (answer: Interaction.Answer) => Effect.Effect<void>, ended: Effect.Effect<void>) {
        handlers.set(pending.id, { answered, ended })
        yield* sql.get(OPEN, [pending.id, pending.kind, pending.sessionID, JSON.stringify(pending.payload), state.owner, pending.createdAt, CHANNEL])
      })

      // One statement, one round trip: the claim and its notice (sent when the claim commits).
      // Our own claim's notice must not deliver it back to us: the handler is set aside while we
      // claim, and if another server's claim won, it is delivered then (its notice may have passed).
      const claim = Effect.fnUntraced(function* (id: string, answer: Interaction.Answer) {
        const at = yield* Clock.currentTimeMillis
        const handler = handlers.get(id)
        handlers.delete(id)
        const row = yield* sql.get<{ claimed: number }>(CLAIM, [JSON.stringify(answer), at, id, CHANNEL]).pipe(Effect.onError(() => Effect.sync(() => handler !== undefined && handlers.set(id, handler))))
        const won = (row?.claimed ?? 0) === 1
        if (!won && handler !== undefined) {
          handlers.set(id, handler)
          yield* deliver(id)
        }
        return won
      })

      const close = Effect.fnUntraced(function* (id: string) {
        handlers.delete(id)
        const at = yield* Clock.currentTimeMillis
        yield* sql.get(END, [at, id, CHANNEL])
      })

      // The owner is alive while its listening connection exists; the claim, the check and the
      // notice are one statement. Open, alive and not claimed: another reply won meanwhile.
      const reply = Effect.fnUntraced(function* (id: string, answer: Interaction.Answer) {
        const at = yield* Clock.currentTimeMillis
        const row = yield* sql.get<{ open: number; alive: number; claimed: number }>(REPLY, [id, JSON.stringify(answer), at, CHANNEL])
        if ((row?.open ?? 0) === 0) return "not-found" as const
        if ((row?.claimed ?? 0) === 1) return "answered" as const
        if ((row?.alive ?? 0) === 1) return "already-answered" as const
        yield* close(id)
        return "owner-gone" as const
      })

      const foreign = (id: string) =>
        Effect.map(sql.get<Row & { open: number }>("SELECT *, CASE WHEN answer IS NULL AND ended_at IS NULL THEN 1 ELSE 0 END AS open FROM shared_ask WHERE id = ? AND owner <> ?", [id, state.owner]), (row) =>
          row === undefined ? undefined : { ask: toForeign(row), open: row.open === 1 },
        )

      const heard = Effect.gen(function* () {
        const queue = yield* Queue.unbounded<Heard>()
        yield* Effect.acquireRelease(Effect.sync(() => listeners.add(queue)), () => Effect.sync(() => listeners.delete(queue)))
        return Stream.fromQueue(queue)
      })

      return Service.of({ open, claim, close, reply, foreign, heard })
    }),
  )
