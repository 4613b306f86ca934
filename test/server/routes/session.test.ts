/**
 * toolgate's own session routes against a real server (issue 17, item 3): creating a session
 * (201; 400 for a bad agent or body; 409 for an id that belongs elsewhere), one call through the
 * one call path (200 with its kind whatever the tool did; 404 for an unknown session; 400 with
 * the schema's message for a bad body, never a stack), the todo list, and diff, revert and
 * unrevert after a write.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule, Schema } from "effect"
import { Permission } from "../../../src/permission/permission.js"
import { Session } from "../../../src/session.js"
import { CallLog } from "../../../src/session/call-log.js"
import { ServerHub } from "../../../src/server/hub.js"
import { SessionRoutes } from "../../../src/server/routes/session.js"
import { History } from "../../../src/snapshot/history.js"
import { ReadTool } from "../../../src/tool/builtin/read.js"
import { ToolRegistry } from "../../../src/tool/registry.js"
import { Tool } from "../../../src/tool/tool.js"
import { guardMarker, marker, withMarker } from "../../lib/process-group.js"
import { start } from "../../lib/server.js"
import type { Server } from "../../lib/server.js"

const post = (server: Server, route: string, body: unknown = {}) =>
  Effect.promise(() => server.api(route, { method: "POST", body })).pipe(Effect.map(({ status, body }) => ({ status, body })))
const get = (server: Server, route: string) => Effect.promise(() => server.api(route)).pipe(Effect.map(({ status, body }) => ({ status, body })))

const schemaMessage = <A>(schema: Schema.Codec<A, unknown>, body: unknown) => Schema.decodeUnknownEffect(schema)(body).pipe(Effect.flip, Effect.map((error) => error.message))

const made = (server: Server, body: Record<string, unknown> = {}) => post(server, "/api/session", body).pipe(Effect.map(({ body }) => body.data.id as string))

describe("SessionRoutes", () => {
  it.live("creates a session with 201, takes one up by id, and lists them", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const created = yield* post(server, "/api/session", { agent: "plan", rules: [{ action: "bash", resource: "git *", effect: "allow" }] })
      expect(created).toEqual({
        status: 201,
        body: {
          data: {
            id: expect.stringMatching(/^ses_/),
            projectID: expect.any(String),
            location: server.root,
            agent: "plan",
            rules: [{ action: "bash", resource: "git *", effect: "allow", source: expect.anything() }],
            createdAt: expect.any(Number),
          },
        },
      })
      const mine = yield* post(server, "/api/session", { id: "ses_mine" })
      expect(mine.status).toBe(201)
      expect(mine.body.data).toMatchObject({ id: "ses_mine", agent: "build", location: server.root })
      expect(yield* post(server, "/api/session", { id: "ses_mine" })).toEqual(mine)
      expect(yield* post(server, "/api/session", { id: "ses_mine", agent: "plan" })).toEqual({
        status: 409,
        body: { _tag: "AgentMismatchError", message: Session.Messages.agentMismatch("ses_mine", "build", "plan") },
      })
      const listed = yield* get(server, "/api/session")
      expect(listed.status).toBe(200)
      expect(listed.body.data.map((entry: { readonly id: string }) => entry.id).sort()).toEqual([created.body.data.id, "ses_mine"].sort())
    }))

  it.live("refuses to take up a session of another directory with 409", () =>
    Effect.gen(function* () {
      const server = yield* start({ setup: ({ root }) => mkdir(path.join(root, "sub")) })
      expect((yield* post(server, "/api/session", { id: "ses_here" })).status).toBe(201)
      expect(yield* post(server, "/api/session", { id: "ses_here", directory: "sub" })).toEqual({
        status: 409,
        body: { _tag: "ForeignProjectError", message: Session.Messages.foreignProject("ses_here", server.root) },
      })
    }))

  it.live("refuses an unknown agent and a body that is not a session with 400", () =>
    Effect.gen(function* () {
      const server = yield* start()
      expect(yield* post(server, "/api/session", { agent: "biuld" })).toEqual({
        status: 400,
        body: { _tag: "InvalidRequestError", message: SessionRoutes.Messages.unknownAgent("biuld", ["build", "plan"]), field: "agent" },
      })
      for (const body of [{ rules: "allow" }, { rules: [{ action: "bash", resource: "*", effect: "sure" }] }, { directory: 7 }, []]) {
        const answer = yield* post(server, "/api/session", body)
        expect(answer).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: yield* schemaMessage(SessionRoutes.CreateBody, body), field: "body" } })
      }
    }))

  it.live("runs a call and answers 200 with its kind, for a failing tool too", () =>
    Effect.gen(function* () {
      const server = yield* start({ setup: ({ root }) => writeFile(path.join(root, "notes.txt"), "one\ntwo\n") })
      const id = yield* made(server)
      const read = yield* post(server, `/api/session/${id}/call`, { call: { id: "call_read", name: "read", input: { path: "notes.txt" } } })
      expect(read.status).toBe(200)
      expect(read.body).toMatchObject({
        kind: "success",
        toolCallID: "call_read",
        content: [{ type: "text", text: [ReadTool.Messages.fileHeader("notes.txt", 1, 2), ReadTool.Messages.line(1, "one"), ReadTool.Messages.line(2, "two")].join("\n") }],
      })
      const missing = yield* post(server, `/api/session/${id}/call`, { call: { id: "call_missing", name: "read", input: { path: "nope.txt" } } })
      expect(missing.status).toBe(200)
      expect(missing.body).toEqual({ kind: "failed", toolCallID: "call_missing", message: ReadTool.Messages.notFound("nope.txt") })
      const unknown = yield* post(server, `/api/session/${id}/call`, { call: { id: "call_unknown", name: "nope", input: {} } })
      expect(unknown).toEqual({ status: 200, body: { kind: "failed", toolCallID: "call_unknown", message: ToolRegistry.Messages.unknownTool("nope") } })
      const badInput = yield* post(server, `/api/session/${id}/call`, { call: { id: "call_bad", name: "read", input: { path: 3 } } })
      const detail = yield* schemaMessage(ReadTool.Input, { path: 3 })
      expect(badInput).toEqual({ status: 200, body: { kind: "failed", toolCallID: "call_bad", message: Tool.Messages.invalidInput(detail) } })
      // A call without an id gets one.
      const anonymous = yield* post(server, `/api/session/${id}/call`, { call: { name: "read", input: { path: "notes.txt" } } })
      expect(anonymous.body.toolCallID).toMatch(/^call_/)
    }))

  it.live("answers a call a rule denies with kind blocked (a tool denied everywhere is not in the catalog: failed)", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* made(server, { rules: [{ action: "bash", resource: "rm *", effect: "deny" }] })
      expect(yield* post(server, `/api/session/${id}/call`, { call: { id: "call_1", name: "bash", input: { command: "rm -rf build" } } })).toEqual({
        status: 200,
        body: { kind: "blocked", toolCallID: "call_1", message: Permission.Messages.blocked("bash") },
      })
      const hidden = yield* made(server, { rules: [{ action: "bash", resource: "*", effect: "deny" }] })
      expect((yield* post(server, `/api/session/${hidden}/call`, { call: { id: "call_2", name: "bash", input: { command: "echo hi" } } })).body.kind).toBe("failed")
    }))

  it.live("leads from an audit record to its call: the input and the outcome, long strings cut with a note; 404 for a call never settled", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* made(server, { rules: [{ action: "bash", resource: "rm *", effect: "deny" }, { action: "edit", resource: "*", effect: "allow" }] })
      yield* post(server, `/api/session/${id}/call`, { call: { id: "call_rm", name: "bash", input: { command: "rm -rf build" } } })
      const content = "x".repeat(CallLog.MAX_STRING + 1000)
      yield* post(server, `/api/session/${id}/call`, { call: { id: "call_write", name: "write", input: { path: "big.txt", content } } })
      const audit = yield* get(server, `/api/audit?session=${id}`)
      const denied = audit.body.data.find((record: { readonly effect: string }) => record.effect === "deny")
      expect(denied).toMatchObject({ action: "bash", toolCallID: "call_rm" })
      expect(audit.body.data.find((record: { readonly action: string }) => record.action === "edit")).toMatchObject({ effect: "allow", toolCallID: "call_write" })
      expect(yield* get(server, `/api/session/${id}/call/${denied.toolCallID}`)).toEqual({
        status: 200,
        body: { data: { sessionID: id, toolCallID: "call_rm", tool: "bash", input: { command: "rm -rf build" }, kind: "blocked", text: Permission.Messages.blocked("bash"), at: expect.any(Number) } },
      })
      const written = yield* get(server, `/api/session/${id}/call/call_write`)
      expect(written.body.data).toMatchObject({ tool: "write", kind: "success", input: { path: "big.txt", content: "x".repeat(CallLog.MAX_STRING) + CallLog.Messages.cut(1000) } })
      expect(yield* Effect.promise(() => readFile(path.join(server.root, "big.txt"), "utf8"))).toBe(content)
      expect(yield* get(server, `/api/session/${id}/call/call_never`)).toEqual({
        status: 404,
        body: { _tag: "CallNotFoundError", message: SessionRoutes.Messages.unknownCall(id, "call_never") },
      })
    }))

  it.live("answers a call in an unknown session with 404 and a bad call body with 400 and the schema's message, never a stack", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* made(server)
      expect(yield* post(server, "/api/session/ses_nope/call", { call: { name: "read", input: { path: "a" } } })).toEqual({
        status: 404,
        body: { _tag: "SessionNotFoundError", message: ServerHub.Messages.sessionNotFound("ses_nope"), sessionID: "ses_nope" },
      })
      for (const body of [{}, { call: { input: {} } }, { call: { name: 3, input: {} } }, { messageID: 1, call: { name: "read", input: {} } }, "[1,2]"]) {
        const sent = typeof body === "string" ? JSON.parse(body) : body
        const answer = yield* post(server, `/api/session/${id}/call`, body)
        expect(answer).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: yield* schemaMessage(SessionRoutes.CallBody, sent), field: "body" } })
        expect(answer.body.message).not.toMatch(/:\d+:\d+\)?$/m)
      }
    }))

  it.live("interrupts a call whose client went away, killing its command", () =>
    Effect.gen(function* () {
      const token = marker()
      yield* guardMarker(token)
      const server = yield* start()
      const id = yield* made(server)
      const controller = new AbortController()
      const call = fetch(`${server.url}/api/session/${id}/call`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
        body: JSON.stringify({ call: { name: "bash", input: { command: `sleep 451.${token}` } } }),
        signal: controller.signal,
      }).catch((error: Error) => error.name)
      yield* Effect.sync(() => withMarker(token).length).pipe(Effect.repeat({ until: (count) => count > 0, schedule: Schedule.spaced("25 millis") }))
      controller.abort()
      expect(yield* Effect.promise(() => call)).toBe("AbortError")
      yield* Effect.sync(() => withMarker(token).length).pipe(Effect.repeat({ until: (count) => count === 0, schedule: Schedule.spaced("25 millis") }))
      expect(withMarker(token)).toEqual([])
      // The session goes on.
      expect((yield* post(server, `/api/session/${id}/call`, { call: { name: "bash", input: { command: "echo after" } } })).body.kind).toBe("success")
    }))

  it.live("keeps the session's todo list", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* made(server)
      expect(yield* get(server, `/api/session/${id}/todo`)).toEqual({ status: 200, body: { data: [] } })
      const todos = [
        { content: "write the tests", status: "in_progress", priority: "high" },
        { id: "b", content: "ship", status: "pending" },
      ]
      expect((yield* post(server, `/api/session/${id}/call`, { call: { name: "todowrite", input: { todos } } })).body.kind).toBe("success")
      expect(yield* get(server, `/api/session/${id}/todo`)).toEqual({ status: 200, body: { data: todos } })
      expect((yield* get(server, "/api/session/ses_nope/todo")).status).toBe(404)
    }))

  it.live("shows the diff of a write, reverts to before its message and unreverts", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* made(server)
      const file = path.join(server.root, "a.txt")
      const write = yield* post(server, `/api/session/${id}/call`, { messageID: "msg_1", call: { name: "write", input: { path: "a.txt", content: "hello\n" } } })
      expect(write.body.kind).toBe("success")
      const diff = yield* get(server, `/api/session/${id}/diff`)
      expect(diff).toEqual({ status: 200, body: { data: [{ path: "a.txt", status: "added", additions: 1, deletions: 0, patch: expect.stringContaining("+hello") }] } })
      expect(yield* post(server, `/api/session/${id}/revert`, { messageID: "msg_1", dryRun: true })).toEqual({ status: 200, body: { data: [{ path: "a.txt", action: "delete" }] } })
      expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("hello\n")
      expect(yield* post(server, `/api/session/${id}/revert`, { messageID: "msg_1" })).toEqual({ status: 200, body: { data: [{ path: "a.txt", action: "delete" }] } })
      expect(yield* Effect.promise(() => readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => error.code))).toBe("ENOENT")
      expect(yield* post(server, `/api/session/${id}/unrevert`)).toEqual({ status: 200, body: { data: [{ path: "a.txt", action: "recreate" }] } })
      expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("hello\n")
      expect(yield* post(server, `/api/session/${id}/unrevert`)).toEqual({ status: 404, body: { _tag: "NotFoundError", message: History.Messages.nothingToUnrevert(id) } })
      expect(yield* post(server, `/api/session/${id}/revert`, { messageID: "msg_nope" })).toEqual({ status: 404, body: { _tag: "NotFoundError", message: History.Messages.noSnapshot(id, "msg_nope") } })
      expect((yield* post(server, `/api/session/${id}/revert`, {})).status).toBe(400)
      for (const route of ["diff", "revert", "unrevert"]) {
        const answer = route === "diff" ? yield* get(server, "/api/session/ses_nope/diff") : yield* post(server, `/api/session/ses_nope/${route}`, { messageID: "msg_1" })
        expect({ route, ...answer }).toEqual({ route, status: 404, body: { _tag: "SessionNotFoundError", message: ServerHub.Messages.sessionNotFound("ses_nope"), sessionID: "ses_nope" } })
      }
    }))
})
