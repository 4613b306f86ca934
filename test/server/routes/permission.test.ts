/**
 * Permission routes in OpenCode V2's paths and shapes against a real server (issue 17, item 3):
 * the pending requests of a directory (`?directory=` and OpenCode's `location[directory]`) and of
 * a session, one request, the reply (204; 400 bad body; 404 unknown or already settled; 409
 * another session's), a reject that declines the session's other asks, and saved approvals with
 * their removal. Calls wait over HTTP while their asks are answered over HTTP.
 */
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Approvals } from "../../../src/permission/approvals.js"
import { Permission } from "../../../src/permission/permission.js"
import { ServerHub } from "../../../src/server/hub.js"
import { PermissionRoutes } from "../../../src/server/routes/permission.js"
import { ASK_BASH, call, pendingOf, session, start } from "../../lib/server.js"
import type { Server } from "../../lib/server.js"

/** The V2 request a call `call_<n>` of message `msg_<n>` makes for `command` in `directory`. */
const requestFor = (sessionID: string, command: string, directory: string, n: string) => ({
  id: expect.stringMatching(/^per_/),
  sessionID,
  action: "bash",
  resources: [command],
  save: [`${command.split(" ")[0]} *`],
  allows: {
    session: [Permission.Messages.saveAllows("bash", `${command.split(" ")[0]} *`, "session")],
    project: [Permission.Messages.saveAllows("bash", `${command.split(" ")[0]} *`, "project")],
  },
  metadata: { command, workdir: directory },
  why: [{ resource: command, rule: { action: "bash", resource: "*", effect: "ask", source: expect.any(String) } }],
  createdAt: expect.any(Number),
  source: { type: "tool", messageID: `msg_${n}`, callID: `call_${n}` },
})

/** A bash call in `sessionID` whose id and message are numbered `n`. */
const bash = (server: Server, sessionID: string, command: string, n: string) =>
  server.api(`/api/session/${sessionID}/call`, { body: { messageID: `msg_${n}`, call: { id: `call_${n}`, name: "bash", input: { command } } } })

const reply = (server: Server, sessionID: string, requestID: string, body: unknown) =>
  Effect.promise(() => server.api(`/api/session/${sessionID}/permission/${requestID}/reply`, { body })).pipe(Effect.map(({ status, body }) => ({ status, body })))

const decodeError = (body: unknown) => Schema.decodeUnknownEffect(PermissionRoutes.ReplyBody)(body).pipe(Effect.flip, Effect.map((error) => error.message))

describe("PermissionRoutes", () => {
  it.live("lists a directory's pending requests by ?directory= and by location[directory], and a session's", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server, { rules: ASK_BASH })
      const running = bash(server, id, "echo hi", "1")
      const [pending] = yield* pendingOf(server, id)
      expect(pending).toEqual(requestFor(id, "echo hi", server.root, "1"))
      const byDirectory = yield* Effect.promise(() => server.api(`/api/permission/request?directory=${encodeURIComponent(server.root)}`))
      const byLocation = yield* Effect.promise(() => server.api(`/api/permission/request?location%5Bdirectory%5D=${encodeURIComponent(server.root)}`))
      const byDefault = yield* Effect.promise(() => server.api("/api/permission/request"))
      for (const answer of [byDirectory, byLocation, byDefault]) {
        expect(answer.status).toBe(200)
        expect(answer.body).toEqual({ location: { directory: server.root, project: { id: expect.any(String), directory: server.root } }, data: [pending] })
      }
      expect(yield* Effect.promise(() => server.api(`/api/session/${id}/permission/${pending.id}`).then(({ status, body }) => ({ status, body })))).toEqual({ status: 200, body: { data: pending } })
      expect(yield* reply(server, id, pending.id, { reply: "once" })).toEqual({ status: 204, body: undefined })
      const outcome = (yield* Effect.promise(() => running)).body
      expect(outcome).toMatchObject({ kind: "success", toolCallID: "call_1", exitCode: 0 })
      expect((yield* Effect.promise(() => server.api(`/api/session/${id}/permission`))).body).toEqual({ data: [] })
    }))

  it.live("answers unknown sessions and requests with 404 in V2's shapes", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server)
      const noSession = { status: 404, body: { _tag: "SessionNotFoundError", message: ServerHub.Messages.sessionNotFound("ses_nope"), sessionID: "ses_nope" } }
      const noRequest = { status: 404, body: { _tag: "PermissionNotFoundError", message: Permission.Messages.notFound("per_nope"), requestID: "per_nope" } }
      const get = (route: string) => Effect.promise(() => server.api(route).then(({ status, body }) => ({ status, body })))
      expect(yield* get("/api/session/ses_nope/permission")).toEqual(noSession)
      expect(yield* get("/api/session/ses_nope/permission/per_nope")).toEqual(noSession)
      expect(yield* get(`/api/session/${id}/permission/per_nope`)).toEqual(noRequest)
      expect(yield* reply(server, "ses_nope", "per_nope", { reply: "once" })).toEqual(noSession)
      expect(yield* reply(server, id, "per_nope", { reply: "once" })).toEqual(noRequest)
    }))

  it.live("refuses a bad reply body with 400 and the schema's message, another session's request with 409, and a settled one with 404", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server, { rules: ASK_BASH })
      const other = yield* session(server)
      const running = bash(server, id, "echo hi", "1")
      const [pending] = yield* pendingOf(server, id)
      for (const body of [{ reply: "maybe" }, {}, { reply: "always", scope: "forever" }, { reply: "once", message: 3 }])
        expect(yield* reply(server, id, pending.id, body)).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: yield* decodeError(body), field: "body" } })
      expect(yield* reply(server, other, pending.id, { reply: "once" })).toEqual({
        status: 409,
        body: { _tag: "ConflictError", message: PermissionRoutes.Messages.otherSession(pending.id, id), requestID: pending.id },
      })
      // Another session's request is not found through that session.
      expect((yield* Effect.promise(() => server.api(`/api/session/${other}/permission/${pending.id}`))).status).toBe(404)
      // Nothing was settled by the refused replies.
      expect(yield* pendingOf(server, id)).toEqual([pending])
      expect(yield* reply(server, id, pending.id, { reply: "once" })).toEqual({ status: 204, body: undefined })
      expect(yield* reply(server, id, pending.id, { reply: "once" })).toEqual({
        status: 404,
        body: { _tag: "PermissionNotFoundError", message: Permission.Messages.notFound(pending.id), requestID: pending.id },
      })
      expect((yield* Effect.promise(() => running)).body.kind).toBe("success")
    }))

  it.live("a plain reject declines the call and every other pending ask of the session", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server, { rules: ASK_BASH })
      const bystander = yield* session(server, { rules: ASK_BASH })
      const first = bash(server, id, "echo one", "1")
      const second = bash(server, id, "echo two", "2")
      const third = bash(server, bystander, "echo three", "3")
      const pending = yield* pendingOf(server, id, 2)
      yield* pendingOf(server, bystander)
      const rejected = pending.find((request) => request.resources[0] === "echo one")
      expect(yield* reply(server, id, rejected.id, { reply: "reject" })).toEqual({ status: 204, body: undefined })
      const outcomes = yield* Effect.promise(() => Promise.all([first, second]))
      expect(outcomes.map(({ status, body }) => ({ status, body }))).toEqual([
        { status: 200, body: { kind: "declined", toolCallID: "call_1", message: Permission.Messages.declined("bash") } },
        { status: 200, body: { kind: "declined", toolCallID: "call_2", message: Permission.Messages.declined("bash") } },
      ])
      // Another session's ask is not touched.
      const [left] = yield* pendingOf(server, bystander)
      expect(left.resources).toEqual(["echo three"])
      expect(yield* reply(server, bystander, left.id, { reply: "once" })).toEqual({ status: 204, body: undefined })
      expect((yield* Effect.promise(() => third)).body.kind).toBe("success")
    }))

  it.live("a reject with a message tells the model and leaves the session's other asks pending", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server, { rules: ASK_BASH })
      const first = bash(server, id, "echo one", "1")
      const second = bash(server, id, "echo two", "2")
      const pending = yield* pendingOf(server, id, 2)
      const rejected = pending.find((request) => request.resources[0] === "echo one")
      expect(yield* reply(server, id, rejected.id, { reply: "reject", message: "use printf" })).toEqual({ status: 204, body: undefined })
      expect((yield* Effect.promise(() => first)).body).toEqual({ kind: "failed", toolCallID: "call_1", message: Permission.Messages.corrected("use printf") })
      const [left] = yield* pendingOf(server, id)
      expect(left.resources).toEqual(["echo two"])
      expect(yield* reply(server, id, left.id, { reply: "once" })).toEqual({ status: 204, body: undefined })
      expect((yield* Effect.promise(() => second)).body.kind).toBe("success")
    }))

  it.live("saves an always of project scope, lists it, and revokes it with DELETE (204, then 404)", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server, { rules: ASK_BASH })
      const running = bash(server, id, "echo hi", "1")
      const [pending] = yield* pendingOf(server, id)
      expect(yield* reply(server, id, pending.id, { reply: "always", scope: "project" })).toEqual({ status: 204, body: undefined })
      expect((yield* Effect.promise(() => running)).body.kind).toBe("success")
      const listed = yield* Effect.promise(() => server.api("/api/permission/saved"))
      const projectID = listed.body.data[0]?.projectID as string
      expect({ status: listed.status, body: listed.body }).toEqual({
        status: 200,
        body: { data: [{ id: expect.any(String), projectID: expect.any(String), scope: "project", action: "bash", resource: "echo *", createdAt: expect.any(Number) }] },
      })
      const saved = listed.body.data[0].id as string
      expect((yield* Effect.promise(() => server.api(`/api/permission/saved?projectID=${projectID}`))).body).toEqual(listed.body)
      expect((yield* Effect.promise(() => server.api(`/api/permission/saved?directory=${encodeURIComponent(server.root)}`))).body).toEqual(listed.body)
      // The saved approval lets the next such command through without asking.
      expect((yield* Effect.promise(() => bash(server, id, "echo again", "2"))).body.kind).toBe("success")
      const remove = () => server.api(`/api/permission/saved/${saved}`, { method: "DELETE" }).then(({ status, body }) => ({ status, body }))
      expect(yield* Effect.promise(remove)).toEqual({ status: 204, body: undefined })
      expect(yield* Effect.promise(remove)).toEqual({ status: 404, body: { _tag: "PermissionSavedNotFoundError", message: Approvals.Messages.notFound(saved), id: saved } })
      expect((yield* Effect.promise(() => server.api("/api/permission/saved"))).body).toEqual({ data: [] })
    }))

  it.live("an always of session scope is listed with its session and lets the session's other pending asks through", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server, { rules: ASK_BASH })
      const first = bash(server, id, "echo one", "1")
      const second = bash(server, id, "echo two", "2")
      const pending = yield* pendingOf(server, id, 2)
      expect(yield* reply(server, id, pending[0].id, { reply: "always", scope: "session" })).toEqual({ status: 204, body: undefined })
      const outcomes = yield* Effect.promise(() => Promise.all([first, second]))
      expect(outcomes.map(({ body }) => body.kind)).toEqual(["success", "success"])
      expect((yield* Effect.promise(() => server.api("/api/permission/saved"))).body.data).toEqual([
        { id: expect.any(String), projectID: expect.any(String), scope: "session", sessionID: id, action: "bash", resource: "echo *", createdAt: expect.any(Number) },
      ])
    }))

  it.live("lists the pending requests of a subdirectory by its path, relative or absolute", () =>
    Effect.gen(function* () {
      const server = yield* start({ setup: ({ root }) => import("node:fs/promises").then((fs) => fs.mkdir(path.join(root, "sub"))) })
      const sub = path.join(server.root, "sub")
      const id = yield* session(server, { directory: "sub", rules: ASK_BASH })
      const running = call(server, id, "bash", { command: "echo hi" })
      const [pending] = yield* pendingOf(server, id)
      expect((yield* Effect.promise(() => server.api("/api/permission/request?directory=sub"))).body.data).toEqual([pending])
      expect((yield* Effect.promise(() => server.api(`/api/permission/request?directory=${encodeURIComponent(sub)}`))).body.location.directory).toBe(sub)
      expect((yield* Effect.promise(() => server.api("/api/permission/request"))).body.data).toEqual([])
      yield* reply(server, id, pending.id, { reply: "reject" })
      expect((yield* Effect.promise(() => running)).body.kind).toBe("declined")
    }))
})
