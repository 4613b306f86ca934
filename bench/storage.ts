/**
 * storage (issue 21), on SQLite and on PostgreSQL (a throwaway local cluster, fsync off as in the
 * tests) in one run:
 * - audit append throughput: `AuditLog.append` of a decision, sequential, against the same INSERT
 *   sent straight to the database by its own driver (better-sqlite3, pg);
 * - permission decisions per second: `Permission.assert` of a request a rule allows (it reads the
 *   session, the approvals and the policy, and appends its audit record), against the same raw INSERT;
 * - cross-server ask latency on PostgreSQL: two `toolgate serve` on one database; a call on A asks,
 *   B's event stream shows it, B's HTTP API answers, the call resumes on A; p50/p99 over 500 asks
 *   (target ≤ 20 ms p99), against a bare LISTEN/NOTIFY round trip between two connections.
 * `npm run bench -- storage [--asks N]`.
 */
import { mkdir, realpath } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import BetterSqlite3 from "better-sqlite3"
import { Deferred, Effect, Exit, Layer } from "effect"
import pg from "pg"
import { Bus } from "../src/bus.js"
import { Config } from "../src/config.js"
import { InteractionStore } from "../src/interaction/store.js"
import { Location } from "../src/location/location.js"
import { Approvals } from "../src/permission/approvals.js"
import { AuditLog } from "../src/permission/audit-log.js"
import { Permission } from "../src/permission/permission.js"
import { Project } from "../src/project.js"
import { ServerServe } from "../src/server/serve.js"
import { Session } from "../src/session.js"
import { Database } from "../src/storage/database.js"
import { PostgresSql } from "../src/storage/postgres.js"
import { cluster } from "../test/lib/postgres.js"

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? fallback : Number(process.argv[at + 1])
}
const ASKS = argument("--asks", 500)
const APPENDS = 2_000
const DECISIONS = 2_000

const percentile = (values: ReadonlyArray<number>, p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] as number
const rate = (count: number, ms: number) => Math.round((count / ms) * 1000)

const base = await realpath(os.tmpdir()).then((tmp) => path.join(tmp, `toolgate-bench-storage-${process.pid}`))
await mkdir(path.join(base, "work"), { recursive: true })
const server = await cluster()

const gate = (storage: Layer.Layer<any, any, never>, root: string) =>
  Permission.layer({ home: path.join(root, "home") }).pipe(
    Layer.provideMerge(Layer.mergeAll(Session.layer, Approvals.layer, AuditLog.layer)),
    Layer.provideMerge(InteractionStore.layer),
    Layer.provideMerge(Project.layer),
    Layer.provideMerge(Layer.mergeAll(Bus.layer, storage, Location.layer(path.join(root, "work")), Config.layerOf(Config.merge([])))),
  )

const ENTRY = { sessionID: "ses_bench", action: "bash", resources: ["git status"], effect: "allow" as const, decidedBy: "rule" as const }
const RAW_INSERT = "INSERT INTO audit_log (id, at, project_id, session_id, action, resources, effect, decided_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

/** toolgate's appends and decisions on one backend, timed. */
const measure = (storage: Layer.Layer<any, any, never>, root: string) =>
  Effect.gen(function* () {
    const audit = yield* AuditLog.Service
    const project = yield* Project.Service
    const permission = yield* Permission.Service
    const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build", rules: [{ action: "bash", resource: "git *", effect: "allow" }] }))
    for (let index = 0; index < 200; index++) yield* audit.append({ ...ENTRY, projectID: project.id })
    let started = performance.now()
    for (let index = 0; index < APPENDS; index++) yield* audit.append({ ...ENTRY, projectID: project.id })
    const appendMs = performance.now() - started
    const request = { sessionID: session.id, action: "bash", resources: ["git status"], source: { toolCallID: "call_b", messageID: "msg_b" } }
    for (let index = 0; index < 200; index++) yield* permission.assert(request)
    started = performance.now()
    for (let index = 0; index < DECISIONS; index++) yield* permission.assert(request)
    const decideMs = performance.now() - started
    return { appendMs, decideMs }
  }).pipe(Effect.provide(gate(storage, root)), Effect.scoped)

/** The same INSERT straight through the driver: the baseline. */
const rawSqlite = (file: string) => {
  const db = new BetterSqlite3(file)
  const insert = db.prepare(RAW_INSERT)
  const started = performance.now()
  for (let index = 0; index < APPENDS; index++) insert.run(`aud_raw_${index}`, Date.now(), "prj_raw", "ses_raw", "bash", '["git status"]', "allow", "rule")
  const ms = performance.now() - started
  db.close()
  return ms
}
const rawPostgres = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const text = PostgresSql.numbered(RAW_INSERT)
  const started = performance.now()
  for (let index = 0; index < APPENDS; index++) await client.query(text, [`aud_raw_${index}`, Date.now(), "prj_raw", "ses_raw", "bash", '["git status"]', "allow", "rule"])
  const ms = performance.now() - started
  await client.end()
  return ms
}

const rows: string[] = []
const sqliteFile = path.join(base, "data", "toolgate.db")
const sqlite = await Effect.runPromise(measure(Database.layer(sqliteFile), base))
const sqliteRaw = rawSqlite(sqliteFile)
const pgUrl = await server.database()
const postgres = await Effect.runPromise(measure(PostgresSql.layer(pgUrl), base))
const postgresRaw = await rawPostgres(pgUrl)
for (const [name, ours, raw] of [["SQLite", sqlite, sqliteRaw], ["PostgreSQL", postgres, postgresRaw]] as const) {
  rows.push(`| audit append, ${name} | ${rate(APPENDS, ours.appendMs)}/s | ${rate(APPENDS, raw)}/s raw INSERT | ${(ours.appendMs / raw).toFixed(2)}× |`)
  rows.push(`| permission decision (allow + record), ${name} | ${rate(DECISIONS, ours.decideMs)}/s | ${rate(APPENDS, raw)}/s raw INSERT | ${(ours.decideMs / raw).toFixed(2)}× |`)
}

// Cross-server asks: two servers on one database.
const serve = (name: string, url: string) =>
  Effect.gen(function* () {
    const home = path.join(base, name, "home")
    const root = path.join(base, name, "work")
    yield* Effect.promise(() => mkdir(home, { recursive: true }).then(() => mkdir(root, { recursive: true })))
    const log: string[] = []
    const listening = yield* Deferred.make<string>()
    yield* Effect.forkScoped(
      Effect.scoped(
        ServerServe.serve({
          port: 0,
          hostname: "127.0.0.1",
          hostnameGiven: false,
          root,
          environment: { env: { HOME: home, TOOLGATE_DATA_DIR: path.join(base, name, "data"), TOOLGATE_DATABASE_URL: url, TOOLGATE_SERVER_TOKEN: "bench-token-0123456789" }, home },
          log: (line) => log.push(line),
          until: Effect.never,
          onListening: (address) => Deferred.doneUnsafe(listening, Exit.succeed(address)),
        }),
      ).pipe(Effect.exit, Effect.flatMap((exit) => Deferred.die(listening, new Error(`serve ${name} ended: ${JSON.stringify(exit)} ${log.join("\n")}`)))),
    )
    const address = yield* Deferred.await(listening)
    const api = (route: string, body?: unknown) =>
      fetch(`${address}${route}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: "Bearer bench-token-0123456789", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then(async (response) => ({ status: response.status, body: (response.status === 204 ? undefined : await response.json()) as any }))
    return { address, api }
  })

/** When each ask's event of `type` showed on a server's stream (ms, performance clock), and a waiter per id. */
const watch = (address: string, type: string) => {
  const at = new Map<string, number>()
  const waiters = new Map<string, () => void>()
  void fetch(`${address}/api/event`, { headers: { authorization: "Bearer bench-token-0123456789" } })
    .then(async (response) => {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader()
      const decoder = new TextDecoder()
      let text = ""
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        text += decoder.decode(value, { stream: true })
        const blocks = text.split("\n\n")
        text = blocks.pop() ?? ""
        const now = performance.now()
        for (const block of blocks) {
          if (!block.includes(type)) continue
          const id = /"(?:id|requestID)":"(per_[^"]+)"/.exec(block)?.[1]
          if (id === undefined || at.has(id)) continue
          at.set(id, now)
          waiters.get(id)?.()
        }
      }
    })
    // The stream ends when its server stops, after the last ask.
    .catch(() => undefined)
  const when = (id: string) => new Promise<number>((resolve) => (at.has(id) ? resolve(at.get(id) as number) : waiters.set(id, () => resolve(at.get(id) as number))))
  return { when }
}

const crossUrl = await server.database()
const latencies = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const a = yield* serve("a", crossUrl)
      const b = yield* serve("b", crossUrl)
      // A's stream tells when an ask was created and when it was answered (the call resumes); B's when B shows it.
      const created = watch(a.address, "permission.v2.asked")
      const resumed = watch(a.address, "permission.v2.replied")
      const shown = watch(b.address, "permission.v2.asked")
      yield* Effect.sleep("300 millis")
      const made = yield* Effect.promise(() => a.api("/api/session", { rules: [{ action: "bash", resource: "*", effect: "ask" }] }))
      const sessionID = made.body.data.id as string
      const times: number[] = []
      const parts = { visible: [] as number[], resumed: [] as number[] }
      for (let round = 0; round < ASKS + 20; round++) {
        const running = a.api(`/api/session/${sessionID}/call`, { call: { name: "bash", input: { command: "true" } } })
        const id = yield* Effect.promise(
          () =>
            new Promise<string>((resolve) => {
              const poll = async () => {
                const list = await a.api(`/api/session/${sessionID}/permission`)
                const pending = list.body.data[0]
                if (pending === undefined) return void setTimeout(poll, 1)
                resolve(pending.id as string)
              }
              void poll()
            }),
        )
        const start = yield* Effect.promise(() => created.when(id))
        const visible = yield* Effect.promise(() => shown.when(id))
        const replied = yield* Effect.promise(() => b.api(`/api/session/${sessionID}/permission/${id}/reply`, { reply: "once" }))
        if (replied.status !== 204) throw new Error(`reply ${round}: ${replied.status}`)
        const end = yield* Effect.promise(() => resumed.when(id))
        const result = yield* Effect.promise(() => running)
        if (result.body.kind !== "success") throw new Error(`ask ${round} ended ${result.body.kind}`)
        if (round < 20) continue
        times.push(end - start)
        parts.visible.push(visible - start)
        parts.resumed.push(end - visible)
      }
      console.error(`created → visible on B: p50 ${percentile(parts.visible, 50).toFixed(2)} ms, p99 ${percentile(parts.visible, 99).toFixed(2)} ms; visible → answered → resumed on A: p50 ${percentile(parts.resumed, 50).toFixed(2)} ms, p99 ${percentile(parts.resumed, 99).toFixed(2)} ms`)
      return times
    }),
  ),
)

/** The floor: a NOTIFY from one connection heard on another, and the answer back. */
const notifyRoundTrip = async (url: string, rounds: number) => {
  const listener = new pg.Client({ connectionString: url })
  const sender = new pg.Client({ connectionString: url })
  await Promise.all([listener.connect(), sender.connect()])
  await Promise.all([listener.query("LISTEN bench_ping"), sender.query("LISTEN bench_pong")])
  listener.on("notification", (message) => void listener.query("SELECT pg_notify('bench_pong', $1)", [message.payload ?? ""]))
  const times: number[] = []
  for (let round = 0; round < rounds + 20; round++) {
    const started = performance.now()
    await new Promise<void>((resolve) => {
      sender.once("notification", () => resolve())
      void sender.query("SELECT pg_notify('bench_ping', $1)", [String(round)])
    })
    if (round >= 20) times.push(performance.now() - started)
  }
  await Promise.all([listener.end(), sender.end()])
  return times
}
const floor = await notifyRoundTrip(crossUrl, ASKS)
const p50 = percentile(latencies, 50)
const p99 = percentile(latencies, 99)
rows.push(
  `| cross-server ask: created on A → visible on B → answered on B → call resumes on A (${ASKS} asks) | p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms | NOTIFY round trip p50 ${percentile(floor, 50).toFixed(2)} ms, p99 ${percentile(floor, 99).toFixed(2)} ms | p99 ${(p99 / percentile(floor, 99)).toFixed(1)}× (target ≤ 20 ms p99: ${p99 <= 20 ? "met" : "missed"}) |`,
)

console.log(`storage: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`)
console.log("| | toolgate | baseline | ratio |")
console.log("| --- | --- | --- | --- |")
for (const row of rows) console.log(row)
server.destroy()
process.exit(0)
