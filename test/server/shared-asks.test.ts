/**
 * Asks shared by two servers on one PostgreSQL (issue 21), each a whole `toolgate serve` with its
 * own data folder, pool and listening connection, against a throwaway cluster: an ask created on
 * A is announced on B's event stream and answered through B's HTTP API, and the call resumes on
 * A; replies racing from A and B: exactly one wins; a reply to an ask whose server is gone is
 * refused (410) and the ask's end recorded.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import pg from "pg"
import { AuditLog } from "../../src/permission/audit-log.js"
import { ServerSharedReply } from "../../src/server/shared-reply.js"
import { clusterForFile, unavailable } from "../lib/postgres.js"
import { ASK_BASH, call, pendingOf, type Server, session, start } from "../lib/server.js"

const server = clusterForFile()

/** Two servers on one new database, sharing the same working directory path (one machine here). */
const twoServers = Effect.gen(function* () {
  const url = yield* Effect.promise(() => server().database())
  const a = yield* start({ env: { TOOLGATE_DATABASE_URL: url } })
  const b = yield* start({ env: { TOOLGATE_DATABASE_URL: url } })
  return { a, b }
})

/** What B's event stream says, read until `count` events of `type` arrived. */
const eventsOf = (target: Server, type: string, count: number) =>
  Effect.promise(async () => {
    const controller = new AbortController()
    const response = await fetch(`${target.url}/api/event`, { headers: { authorization: `Bearer ${target.token}` }, signal: controller.signal })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    const found: any[] = []
    let text = ""
    while (found.length < count) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      const blocks = text.split("\n\n")
      text = blocks.pop() ?? ""
      for (const block of blocks) {
        const data = block.split("\n").find((line) => line.startsWith("data: "))
        if (data === undefined) continue
        const event = JSON.parse(data.slice(6))
        if (event.type === type) found.push(event)
      }
    }
    controller.abort()
    return found
  })

describe.skipIf(unavailable !== undefined)("asks shared by two servers on one PostgreSQL", () => {
  it.live("an ask created on A shows on B's event stream, is answered through B's HTTP API, and the call resumes on A", () =>
    Effect.gen(function* () {
      const { a, b } = yield* twoServers
      const onB = yield* Effect.forkChild(eventsOf(b, "permission.v2.asked", 1))
      yield* Effect.sleep("200 millis")
      const id = yield* session(a, { rules: ASK_BASH })
      const running = call(a, id, "bash", { command: "echo resumed-on-a" })
      const [ask] = yield* pendingOf(a, id)
      const seen = yield* Fiber.join(onB).pipe(Effect.timeout("20 seconds"))
      expect(JSON.stringify(seen[0])).toContain(`"id":"${ask.id}"`)
      const replied = yield* Effect.promise(() => b.api(`/api/session/${id}/permission/${ask.id}/reply`, { body: { reply: "once" } }))
      expect(replied.status).toBe(204)
      const result = yield* Effect.promise(() => running)
      expect(result.body.kind).toBe("success")
      expect(JSON.stringify(result.body)).toContain("resumed-on-a")
      // Answered once: a second reply, on either server, finds nothing to answer.
      expect((yield* Effect.promise(() => b.api(`/api/session/${id}/permission/${ask.id}/reply`, { body: { reply: "once" } }))).status).toBe(404)
      expect((yield* Effect.promise(() => a.api(`/api/session/${id}/permission/${ask.id}/reply`, { body: { reply: "reject" } }))).status).toBe(404)
      // A recorded the decision, as the owner of the call.
      const log = yield* Effect.promise(() => a.api(`/api/audit?session=${id}`))
      expect(JSON.stringify(log.body)).toContain('"reply":"once"')
    }))

  it.live("replies racing from A and B: exactly one wins", () =>
    Effect.gen(function* () {
      const { a, b } = yield* twoServers
      for (let round = 0; round < 20; round++) {
        const id = yield* session(a, { rules: ASK_BASH })
        const running = call(a, id, "bash", { command: `echo round-${round}` })
        const [ask] = yield* pendingOf(a, id)
        const route = `/api/session/${id}/permission/${ask.id}/reply`
        const [fromA, fromB] = yield* Effect.promise(() => Promise.all([a.api(route, { body: { reply: "once" } }), b.api(route, { body: { reply: "reject" } })]))
        const statuses = [fromA.status, fromB.status].sort()
        expect(statuses, `round ${round}`).toEqual([204, 404])
        const result = yield* Effect.promise(() => running)
        expect(result.body.kind).toBe(fromA.status === 204 ? "success" : "declined")
      }
    }))

  it.live("an ask another server ended (it found its owner unreachable) ends the owner's call instead of leaving it waiting", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const a = yield* start({ env: { TOOLGATE_DATABASE_URL: url } })
      const id = yield* session(a, { rules: ASK_BASH })
      const running = call(a, id, "bash", { command: "echo never" })
      const [ask] = yield* pendingOf(a, id)
      const client = new pg.Client({ connectionString: url })
      yield* Effect.promise(() => client.connect())
      yield* Effect.addFinalizer(() => Effect.promise(() => client.end()))
      // What B does to an orphan's ask: end the row and say so.
      yield* Effect.promise(() => client.query("UPDATE shared_ask SET ended_at = 1 WHERE id = $1", [ask.id]))
      yield* Effect.promise(() => client.query("SELECT pg_notify('toolgate_ask', $1)", [`ended:${ask.id}`]))
      const result = yield* Effect.promise(() => running)
      expect(result.body.kind).toBe("declined")
      expect((yield* Effect.promise(() => a.api(`/api/session/${id}/permission`))).body.data).toEqual([])
    }))

  it.live("a reply to an ask whose server is gone is refused, and the ask's end recorded", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const b = yield* start({ env: { TOOLGATE_DATABASE_URL: url } })
      const id = yield* session(b)
      // An ask a server left when it died: its owner, a listening connection, exists no more.
      const request = { id: "per_orphan", sessionID: id, action: "bash", resources: ["make"], save: [], allows: { session: [], project: [] }, metadata: {}, source: { toolCallID: "call_o", messageID: "msg_o" }, createdAt: 1 }
      const client = new pg.Client({ connectionString: url })
      yield* Effect.promise(() => client.connect())
      yield* Effect.addFinalizer(() => Effect.promise(() => client.end()))
      yield* Effect.promise(() =>
        client.query("INSERT INTO shared_ask (id, kind, session_id, payload, owner, created_at) VALUES ($1, 'permission', $2, $3, 'pg:2147483000:0', 1)", ["per_orphan", id, JSON.stringify(request)]),
      )
      const refused = yield* Effect.promise(() => b.api(`/api/session/${id}/permission/per_orphan/reply`, { body: { reply: "once" } }))
      expect(refused.status).toBe(410)
      expect(refused.body).toEqual({ _tag: "OwnerGoneError", message: ServerSharedReply.Messages.ownerGone("per_orphan"), requestID: "per_orphan" })
      const recorded = yield* Effect.promise(() => client.query("SELECT effect, reply, session_id FROM audit_log WHERE request_id = 'per_orphan'"))
      expect(recorded.rows).toEqual([{ effect: "deny", reply: AuditLog.INTERRUPTED, session_id: id }])
      const row = yield* Effect.promise(() => client.query("SELECT answer, ended_at IS NOT NULL AS ended FROM shared_ask WHERE id = 'per_orphan'"))
      expect(row.rows).toEqual([{ answer: null, ended: true }])
      // Ended: a second reply finds nothing to answer.
      expect((yield* Effect.promise(() => b.api(`/api/session/${id}/permission/per_orphan/reply`, { body: { reply: "once" } }))).status).toBe(404)
    }))
})
