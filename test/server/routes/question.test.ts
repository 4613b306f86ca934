/**
 * Question routes in OpenCode V2's paths and shapes against a real server (issue 17, item 3): a
 * call of the `question` tool waits over HTTP while its question is listed (by directory and by
 * session), answered with `{ answers: string[][] }` or rejected; wrong answers are 400 and leave
 * it pending, another session's is 409, an unknown or settled one 404.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Question } from "../../../src/question.js"
import { QuestionRoutes } from "../../../src/server/routes/question.js"
import { QuestionTool } from "../../../src/tool/builtin/question.js"
import { DATABASE, FEATURES } from "../../lib/questions.js"
import { session, start, waitFor } from "../../lib/server.js"
import type { Server } from "../../lib/server.js"

/** Asks `questions` in `sessionID` as call `call_<n>` of `msg_<n>`; settles when the call does. */
const ask = (server: Server, sessionID: string, n: string, questions: ReadonlyArray<Question.Info> = [DATABASE]) =>
  server.api(`/api/session/${sessionID}/call`, { body: { messageID: `msg_${n}`, call: { id: `call_${n}`, name: QuestionTool.name, input: { questions } } } })

const pendingQuestions = (server: Server, sessionID: string) =>
  waitFor(() => server.api(`/api/session/${sessionID}/question`), (answer) => (answer.body?.data?.length ?? 0) > 0).pipe(Effect.map((answer) => answer.body.data as ReadonlyArray<any>))

const post = (server: Server, route: string, body?: unknown) =>
  Effect.promise(() => server.api(route, { method: "POST", ...(body === undefined ? {} : { body }) })).pipe(Effect.map(({ status, body }) => ({ status, body })))

describe("QuestionRoutes", () => {
  it.live("lists a waiting question in V2's shape, by directory and by session, and answers it", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server)
      const running = ask(server, id, "1", [DATABASE, FEATURES])
      const [pending] = yield* pendingQuestions(server, id)
      expect(pending).toEqual({ id: expect.stringMatching(/^que_/), sessionID: id, questions: [DATABASE, FEATURES], tool: { messageID: "msg_1", callID: "call_1" } })
      for (const query of [`?directory=${encodeURIComponent(server.root)}`, `?location%5Bdirectory%5D=${encodeURIComponent(server.root)}`, ""]) {
        const listed = yield* Effect.promise(() => server.api(`/api/question/request${query}`))
        expect({ status: listed.status, body: listed.body }).toEqual({ status: 200, body: { location: { directory: server.root, project: { id: expect.any(String), directory: server.root } }, data: [pending] } })
      }
      const answers = [["Postgres"], ["Search", "Export"]]
      expect(yield* post(server, `/api/session/${id}/question/${pending.id}/reply`, { answers })).toEqual({ status: 204, body: undefined })
      const outcome = (yield* Effect.promise(() => running)).body
      expect(outcome.kind).toBe("success")
      expect(outcome.content).toEqual([{ type: "text", text: QuestionTool.format([DATABASE, FEATURES], answers) }])
      expect((yield* Effect.promise(() => server.api(`/api/session/${id}/question`))).body).toEqual({ data: [] })
    }))

  it.live("refuses answers that do not fit with 400 and keeps the question pending", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server)
      const running = ask(server, id, "1")
      const [pending] = yield* pendingQuestions(server, id)
      const route = `/api/session/${id}/question/${pending.id}/reply`
      expect(yield* post(server, route, { answers: [["Postgres"], ["SQLite"]] })).toEqual({
        status: 400,
        body: { _tag: "InvalidRequestError", message: Question.Messages.invalidReply(pending.id, Question.Messages.wrongCount(1, 2)), field: "answers" },
      })
      expect(yield* post(server, route, { answers: [["Postgres", "SQLite"]] })).toEqual({
        status: 400,
        body: { _tag: "InvalidRequestError", message: Question.Messages.invalidReply(pending.id, Question.Messages.notMultiple(0, 2)), field: "answers" },
      })
      for (const body of [{ answers: "Postgres" }, { answers: [[1]] }, {}]) {
        const message = yield* Schema.decodeUnknownEffect(QuestionRoutes.ReplyBody)(body).pipe(Effect.flip, Effect.map((error) => error.message))
        expect(yield* post(server, route, body)).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message, field: "body" } })
      }
      expect(yield* pendingQuestions(server, id)).toEqual([pending])
      expect(yield* post(server, route, { answers: [["SQLite"]] })).toEqual({ status: 204, body: undefined })
      expect((yield* Effect.promise(() => running)).body.kind).toBe("success")
    }))

  it.live("rejects a question: without a message the call is dismissed, with one the model reads it", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server)
      const plain = ask(server, id, "1")
      const [first] = yield* pendingQuestions(server, id)
      // OpenCode's SDK sends the reject without a body.
      expect(yield* post(server, `/api/session/${id}/question/${first.id}/reject`)).toEqual({ status: 204, body: undefined })
      expect((yield* Effect.promise(() => plain)).body).toEqual({ kind: "dismissed", toolCallID: "call_1", message: Question.Messages.dismissed })
      const told = ask(server, id, "2")
      const [second] = yield* pendingQuestions(server, id)
      expect(yield* post(server, `/api/session/${id}/question/${second.id}/reject`, { message: "ask me after lunch" })).toEqual({ status: 204, body: undefined })
      expect((yield* Effect.promise(() => told)).body).toEqual({ kind: "failed", toolCallID: "call_2", message: "ask me after lunch" })
    }))

  it.live("answers 404 for an unknown or settled question, and 409 for another session's", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const id = yield* session(server)
      const other = yield* session(server)
      const running = ask(server, id, "1")
      const [pending] = yield* pendingQuestions(server, id)
      const notFound = (requestID: string) => ({ status: 404, body: { _tag: "QuestionNotFoundError", message: Question.Messages.notFound(requestID), requestID } })
      expect(yield* post(server, `/api/session/${id}/question/que_nope/reply`, { answers: [["Postgres"]] })).toEqual(notFound("que_nope"))
      expect(yield* post(server, `/api/session/${id}/question/que_nope/reject`)).toEqual(notFound("que_nope"))
      for (const action of ["reply", "reject"])
        expect(yield* post(server, `/api/session/${other}/question/${pending.id}/${action}`, action === "reply" ? { answers: [["Postgres"]] } : undefined)).toEqual({
          status: 409,
          body: { _tag: "ConflictError", message: QuestionRoutes.Messages.otherSession(pending.id, id), requestID: pending.id },
        })
      expect((yield* Effect.promise(() => server.api(`/api/session/${other}/question`))).body).toEqual({ data: [] })
      expect(yield* post(server, `/api/session/${id}/question/${pending.id}/reply`, { answers: [["Postgres"]] })).toEqual({ status: 204, body: undefined })
      expect(yield* post(server, `/api/session/${id}/question/${pending.id}/reject`)).toEqual(notFound(pending.id))
      expect((yield* Effect.promise(() => running)).body.kind).toBe("success")
      expect((yield* Effect.promise(() => server.api("/api/session/ses_nope/question"))).status).toBe(404)
    }))
})
