/**
 * Shared asks between two real `toolgate serve` processes (the built executable) on one
 * PostgreSQL, each with its own home and data folder: an ask created on A is answered through
 * B's HTTP API and the call resumes on A; replies racing from A and B: exactly one wins; A killed
 * with its ask waiting: B refuses a reply to it (410).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import pg from "pg"
import { clusterForFile, unavailable } from "../lib/postgres.js"
import { listening } from "../lib/serve-process.js"
import { send, waitFor } from "../lib/server.js"
import { tmpdir } from "../lib/tmp.js"

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "cli", "bin.cjs")
const TOKEN = "shared-asks-test-token-0123456789"
const ASK_BASH = [{ action: "bash", resource: "*", effect: "ask" }]

const server = clusterForFile()

interface Serving {
  readonly child: ChildProcess
  readonly api: (route: string, body?: unknown) => Promise<{ status: number; body: any }>
}

/** `toolgate serve --port 0` in its own folders, until the scope ends; its address read from what it prints. */
const serve = (url: string) =>
  Effect.gen(function* () {
    const base = yield* tmpdir
    const root = path.join(base, "work")
    yield* Effect.promise(() => mkdir(root, { recursive: true }))
    const env = { PATH: process.env.PATH ?? "", HOME: base, TOOLGATE_DATA_DIR: path.join(base, "data"), TOOLGATE_DATABASE_URL: url, TOOLGATE_SERVER_TOKEN: TOKEN }
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => spawn(process.execPath, [BIN, "serve", "--port", "0"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })),
      (spawned) => Effect.sync(() => spawned.kill("SIGKILL")),
    )
    const address = yield* Effect.promise(() => listening(child).url)
    const api: Serving["api"] = (route, body) =>
      send(`${address}${route}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    return { child, api } satisfies Serving
  })

const sessionOn = (target: Serving) => Effect.promise(() => target.api("/api/session", { rules: ASK_BASH })).pipe(Effect.map((answer) => answer.body.data.id as string))
const callOn = (target: Serving, sessionID: string, command: string) => target.api(`/api/session/${sessionID}/call`, { call: { name: "bash", input: { command } } })
const pendingOn = (target: Serving, sessionID: string) =>
  waitFor(() => target.api(`/api/session/${sessionID}/permission`), (answer) => (answer.body?.data?.length ?? 0) > 0).pipe(Effect.map((answer) => answer.body.data[0]))

describe.skipIf(unavailable !== undefined)("asks shared by two toolgate serve processes on one PostgreSQL", () => {
  it.live("answered on B, resumed on A; racing replies: one wins; A killed: B refuses", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const a = yield* serve(url)
      const b = yield* serve(url)

      const first = yield* sessionOn(a)
      const running = callOn(a, first, "echo resumed-on-a")
      const ask = yield* pendingOn(a, first)
      expect((yield* Effect.promise(() => b.api(`/api/session/${first}/permission/${ask.id}/reply`, { reply: "once" }))).status).toBe(204)
      const result = yield* Effect.promise(() => running)
      expect([result.body.kind, JSON.stringify(result.body).includes("resumed-on-a")]).toEqual(["success", true])

      for (let round = 0; round < 5; round++) {
        const id = yield* sessionOn(a)
        const call = callOn(a, id, `echo round-${round}`)
        const pending = yield* pendingOn(a, id)
        const route = `/api/session/${id}/permission/${pending.id}/reply`
        const [fromA, fromB] = yield* Effect.promise(() => Promise.all([a.api(route, { reply: "once" }), b.api(route, { reply: "reject" })]))
        expect([fromA.status, fromB.status].sort(), `round ${round}`).toEqual([204, 404])
        expect((yield* Effect.promise(() => call)).body.kind).toBe(fromA.status === 204 ? "success" : "declined")
      }

      const orphan = yield* sessionOn(a)
      void callOn(a, orphan, "echo never").catch(() => undefined)
      const left = yield* pendingOn(a, orphan)
      a.child.kill("SIGKILL")
      yield* Effect.promise(() => new Promise((resolve) => a.child.once("exit", resolve)))
      // The killed server's listening connection leaves PostgreSQL's activity within moments: wait for that, then reply once.
      const client = new pg.Client({ connectionString: url })
      yield* Effect.promise(() => client.connect())
      yield* Effect.addFinalizer(() => Effect.promise(() => client.end()))
      const ownerAlive = () =>
        client
          .query<{ n: number }>(
            "SELECT count(*)::int AS n FROM shared_ask s JOIN pg_stat_activity a ON a.pid = split_part(s.owner, ':', 2)::int AND extract(epoch FROM a.backend_start)::text = split_part(s.owner, ':', 3) WHERE s.id = $1",
            [left.id],
          )
          .then((result) => result.rows[0]?.n ?? 0)
      yield* waitFor(ownerAlive, (n) => n === 0)
      const refused = yield* Effect.promise(() => b.api(`/api/session/${orphan}/permission/${left.id}/reply`, { reply: "once" }))
      expect([refused.status, refused.body._tag]).toEqual([410, "OwnerGoneError"])
    }), 120_000)
})
