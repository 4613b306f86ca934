/**
 * OpenCode's own client (`@opencode-ai/sdk` v2) driving the server unchanged (issue 17, item 3):
 * pending permissions by location and by session, a reply `once` while the call waits, saved
 * approvals listed and removed, questions listed, answered and rejected, and V2's error bodies,
 * with the token passed in the client's headers.
 */
import { describe, expect, it } from "@effect/vitest"
import { createOpencodeClient } from "@opencode-ai/sdk/v2/client"
import { Effect } from "effect"
import { Approvals } from "../../src/permission/approvals.js"
import { Permission } from "../../src/permission/permission.js"
import { Question } from "../../src/question.js"
import { ServerGuard } from "../../src/server/guard.js"
import { QuestionTool } from "../../src/tool/builtin/question.js"
import { DATABASE } from "../lib/questions.js"
import { ASK_BASH, call, pendingOf, session, start, waitFor } from "../lib/server.js"
import type { Server } from "../lib/server.js"

const clientOf = (server: Server, options: { readonly directory?: string } = {}) =>
  createOpencodeClient({ baseUrl: server.url, headers: { Authorization: `Bearer ${server.token}` }, ...options })

const sdk = <A>(thunk: () => Promise<A>) => Effect.promise(thunk)

describe("OpenCode SDK v2 against toolgate serve", () => {
  it.live("lists pending permissions by location and by session, and replies once while the call waits", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const client = clientOf(server)
      const id = yield* session(server, { rules: ASK_BASH })
      const running = call(server, id, "bash", { command: "echo hi" })
      const [pending] = yield* pendingOf(server, id)
      const byLocation = yield* sdk(() => client.v2.permission.request.list({ location: { directory: server.root } }))
      expect(byLocation.response.status).toBe(200)
      expect(byLocation.data).toEqual({ location: { directory: server.root, project: { id: expect.any(String), directory: server.root } }, data: [pending] })
      // The client's directory rides along as a header it rewrites into the query.
      const byDirectory = yield* sdk(() => clientOf(server, { directory: server.root }).v2.permission.request.list())
      expect(byDirectory.data?.data).toEqual([pending])
      expect((yield* sdk(() => client.v2.session.permission.list({ sessionID: id }))).data).toEqual({ data: [pending] })
      expect((yield* sdk(() => client.v2.session.permission.get({ sessionID: id, requestID: pending.id }))).data).toEqual({ data: pending })
      const replied = yield* sdk(() => client.v2.session.permission.reply({ sessionID: id, requestID: pending.id, reply: "once" }))
      expect({ status: replied.response.status, error: replied.error }).toEqual({ status: 204, error: undefined })
      expect((yield* Effect.promise(() => running)).body.kind).toBe("success")
      const again = yield* sdk(() => client.v2.session.permission.reply({ sessionID: id, requestID: pending.id, reply: "once" }))
      expect({ status: again.response.status, error: again.error }).toEqual({
        status: 404,
        error: { _tag: "PermissionNotFoundError", message: Permission.Messages.notFound(pending.id), requestID: pending.id },
      })
    }))

  it.live("lists saved approvals of a project and removes one", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const client = clientOf(server)
      const id = yield* session(server, { rules: ASK_BASH })
      const running = call(server, id, "bash", { command: "echo hi" })
      const [pending] = yield* pendingOf(server, id)
      // V2's reply has no scope: a plain always saves for the project.
      expect((yield* sdk(() => client.v2.session.permission.reply({ sessionID: id, requestID: pending.id, reply: "always" }))).response.status).toBe(204)
      expect((yield* Effect.promise(() => running)).body.kind).toBe("success")
      const listed = yield* sdk(() => client.v2.permission.saved.list())
      const [saved] = listed.data?.data ?? []
      expect(saved).toMatchObject({ projectID: expect.any(String), action: "bash", resource: "echo *", scope: "project" })
      expect((yield* sdk(() => client.v2.permission.saved.list({ projectID: saved?.projectID ?? "" }))).data).toEqual(listed.data)
      expect((yield* sdk(() => client.v2.permission.saved.list({ projectID: "prj_other" }))).data).toEqual({ data: [] })
      expect((yield* sdk(() => client.v2.permission.saved.remove({ id: saved?.id ?? "" }))).response.status).toBe(204)
      const gone = yield* sdk(() => client.v2.permission.saved.remove({ id: saved?.id ?? "" }))
      expect({ status: gone.response.status, error: gone.error }).toEqual({
        status: 404,
        error: { _tag: "PermissionSavedNotFoundError", message: Approvals.Messages.notFound(saved?.id ?? ""), id: saved?.id },
      })
      expect((yield* sdk(() => client.v2.permission.saved.list())).data).toEqual({ data: [] })
    }))

  it.live("lists questions by location and by session, answers one and rejects another", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const client = clientOf(server)
      const id = yield* session(server)
      const ask = () => call(server, id, QuestionTool.name, { questions: [DATABASE] })
      const waiting = () => waitFor(() => client.v2.session.question.list({ sessionID: id }), (answer) => (answer.data?.data.length ?? 0) === 1).pipe(Effect.map((answer) => answer.data?.data[0]))
      const answered = ask()
      const first = yield* waiting()
      expect(first).toMatchObject({ sessionID: id, questions: [DATABASE], tool: { messageID: expect.any(String), callID: expect.any(String) } })
      expect((yield* sdk(() => client.v2.question.request.list({ location: { directory: server.root } }))).data?.data).toEqual([first])
      const reply = yield* sdk(() => client.v2.session.question.reply({ sessionID: id, requestID: first?.id ?? "", questionV2Reply: { answers: [["Postgres"]] } }))
      expect(reply.response.status).toBe(204)
      expect((yield* Effect.promise(() => answered)).body.content).toEqual([{ type: "text", text: QuestionTool.format([DATABASE], [["Postgres"]]) }])
      const rejected = ask()
      const second = yield* waiting()
      expect((yield* sdk(() => client.v2.session.question.reject({ sessionID: id, requestID: second?.id ?? "" }))).response.status).toBe(204)
      expect((yield* Effect.promise(() => rejected)).body).toMatchObject({ kind: "dismissed", message: Question.Messages.dismissed })
    }))

  it.live("gets V2's 401 without the token", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const answer = yield* sdk(() => createOpencodeClient({ baseUrl: server.url }).v2.permission.request.list())
      expect(answer.response.status).toBe(401)
      expect(answer.error).toEqual({ _tag: "UnauthorizedError", message: ServerGuard.Messages.unauthorized })
    }))
})
