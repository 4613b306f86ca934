/**
 * Question routes in OpenCode V2's paths and shapes: pending questions of a Location or a session,
 * the answer (`{ answers: string[][] }`, one list of chosen labels per question) and the reject.
 * A question is not a permission: an answer goes back to the model and authorizes nothing.
 */
export * as QuestionRoutes from "./question.js"

import { Effect, Schema } from "effect"
import { Project } from "../../project.js"
import { Question } from "../../question.js"
import { ServerHub } from "../hub.js"
import { ServerRoute } from "../route.js"
import { ServerWire } from "../wire.js"
import { PermissionRoutes } from "./permission.js"

export const Messages = {
  otherSession: (requestID: string, sessionID: string) => `Question ${requestID} belongs to session ${sessionID}, not to the session in the path`,
} as const

export const ReplyBody = Schema.Struct({
  answers: Question.Answers.annotate({ description: "One list of chosen labels per question, in order" }),
}).annotate({ identifier: "QuestionReply" })

export const RejectBody = Schema.Struct({
  message: Schema.optionalKey(Schema.String.annotate({ description: "Said to the model instead of an answer; without one the turn stops" })),
}).annotate({ identifier: "QuestionReject" })

const notFound = (requestID: string) => ServerRoute.error(404, "QuestionNotFoundError", Question.Messages.notFound(requestID), { requestID })

const pending = ServerRoute.make({
  method: "GET",
  path: "/api/question/request",
  tag: "question",
  summary: "Pending questions of a working directory",
  query: PermissionRoutes.DirectoryQuery,
  responses: { 200: { description: "{ location, data: QuestionV2Request[] }" } },
  handle: ({ query }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(query.directory)
        const { list, project } = yield* handle.run(Effect.all({ list: Effect.flatMap(Question.Service, (questions) => questions.list), project: Project.Service }))
        return ServerRoute.ok({ location: { directory: handle.directory, project: { id: project.id, directory: project.worktree } }, data: list.map(ServerWire.question) })
      }),
    ),
})

const ofSession = ServerRoute.make({
  method: "GET",
  path: "/api/session/:sessionID/question",
  tag: "question",
  summary: "Pending questions of a session",
  responses: { 200: { description: "{ data: QuestionV2Request[] }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const { handle, info } = yield* (yield* ServerHub.Service).session(params.sessionID ?? "")
        const list = yield* handle.run(Effect.flatMap(Question.Service, (questions) => questions.forSession(info.id)))
        return ServerRoute.ok({ data: list.map(ServerWire.question) })
      }),
    ),
})

/** Settles the session's pending question with `settle`, or says why it cannot. */
const settling = (sessionID: string, requestID: string, settle: (questions: Question.Interface) => Effect.Effect<void, Question.NotFoundError | Question.InvalidReplyError>) =>
  ServerHub.replying(
    Effect.gen(function* () {
      const { handle } = yield* (yield* ServerHub.Service).session(sessionID)
      return yield* handle.run(
        Effect.gen(function* () {
          const questions = yield* Question.Service
          const found = yield* Effect.option(questions.get(requestID))
          if (found._tag === "None") return notFound(requestID)
          if (found.value.sessionID !== sessionID) return ServerRoute.error(409, "ConflictError", Messages.otherSession(requestID, found.value.sessionID), { requestID })
          return yield* settle(questions).pipe(
            Effect.as(ServerRoute.NO_CONTENT),
            Effect.catchTags({
              "Question.NotFoundError": () => Effect.succeed(notFound(requestID)),
              "Question.InvalidReplyError": (error) => Effect.succeed(ServerRoute.invalid(error.message, "answers")),
            }),
          )
        }),
      )
    }),
  )

const reply = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/question/:requestID/reply",
  tag: "question",
  summary: "Answer a pending question",
  body: ReplyBody,
  responses: { 204: { description: "Answered" }, 400: { description: "InvalidRequestError" }, 404: { description: "QuestionNotFoundError" }, 409: { description: "ConflictError" } },
  handle: ({ params, body }) => settling(params.sessionID ?? "", params.requestID ?? "", (questions) => questions.reply({ requestID: params.requestID ?? "", answers: body.answers })),
})

const reject = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/question/:requestID/reject",
  tag: "question",
  summary: "Reject (dismiss) a pending question",
  body: RejectBody,
  responses: { 204: { description: "Rejected" }, 404: { description: "QuestionNotFoundError" }, 409: { description: "ConflictError" } },
  handle: ({ params, body }) =>
    settling(params.sessionID ?? "", params.requestID ?? "", (questions) => questions.dismiss({ requestID: params.requestID ?? "", ...(body?.message === undefined ? {} : { message: body.message }) })),
})

export const ROUTES: ReadonlyArray<ServerRoute.Route> = [pending, ofSession, reply, reject]
