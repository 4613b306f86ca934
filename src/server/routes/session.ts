/**
 * toolgate's own session routes: create and list sessions, run one call through the one call path
 * (`SessionTurn.settle`), and a session's todo list, diff, revert and unrevert. A call answers 200
 * with its outcome whatever the tool did: `kind` says success, failed, blocked, declined,
 * dismissed or cancelled; HTTP errors are only for requests that cannot be a call (a bad body, an
 * unknown session). A call waits while it asks: its asks are answered by the permission routes.
 */
export * as SessionRoutes from "./session.js"

import { Effect, Schema } from "effect"
import { Config } from "../../config.js"
import { Agents } from "../../permission/agents.js"
import { PermissionRule } from "../../permission/rule.js"
import { CallLog } from "../../session/call-log.js"
import { SessionOverview } from "../../session/overview.js"
import { SessionTurn } from "../../session/turn.js"
import { History } from "../../snapshot/history.js"
import { Id } from "../../storage/id.js"
import { Todo } from "../../todo.js"
import { ServerHub } from "../hub.js"
import { ServerRoute } from "../route.js"

export const Messages = {
  unknownAgent: (agent: string, known: ReadonlyArray<string>) => `Unknown agent: ${agent} (agents: ${known.join(", ")})`,
  unknownCall: (sessionID: string, toolCallID: string) => `No call ${toolCallID} recorded in session ${sessionID}`,
} as const

export const CreateBody = Schema.Struct({
  directory: Schema.optionalKey(Schema.String.annotate({ description: "The working directory (default: where toolgate serve started)" })),
  agent: Schema.optionalKey(Schema.String.annotate({ description: "The agent whose rules judge the session's calls (default: the configured default)" })),
  id: Schema.optionalKey(Schema.String.annotate({ description: "Create the session with this id, or reuse it" })),
  rules: Schema.optionalKey(Schema.Array(PermissionRule.Rule).annotate({ description: "Rules after the agent's, for this session only" })),
}).annotate({ identifier: "SessionCreate" })

export const CallBody = Schema.Struct({
  messageID: Schema.optionalKey(Schema.String.annotate({ description: "The assistant message the call belongs to (revert rewinds by message); new when absent" })),
  model: Schema.optionalKey(Schema.String.annotate({ description: "The model the catalog is materialized for" })),
  call: Schema.Struct({
    id: Schema.optionalKey(Schema.String.annotate({ description: "The tool call id (new when absent)" })),
    name: Schema.String.annotate({ description: "The tool" }),
    input: Schema.Unknown.annotate({ description: "The tool's arguments" }),
  }),
}).annotate({ identifier: "SessionCall" })

export const RevertBody = Schema.Struct({
  messageID: Schema.String.annotate({ description: "Rewind to before this message" }),
  dryRun: Schema.optionalKey(Schema.Boolean.annotate({ description: "Report what would be written, write nothing" })),
}).annotate({ identifier: "SessionRevert" })

const historyError = (error: History.Error) => ServerRoute.error(error._tag === "History.NotFoundError" ? 404 : 409, error._tag.replace("History.", ""), error.message)

const create = ServerRoute.make({
  method: "POST",
  path: "/api/session",
  tag: "session",
  summary: "Create a session (or take up one by id) in a working directory",
  body: CreateBody,
  responses: { 201: { description: "{ data: Session }" }, 400: { description: "InvalidRequestError: bad body, directory or agent" }, 403: { description: "ForbiddenError: directory not allowed" } },
  handle: ({ body }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(body.directory)
        return yield* handle.run(
          Effect.gen(function* () {
            const config = yield* Config.Service
            if (body.agent !== undefined && !Agents.exists(config, body.agent)) return ServerRoute.invalid(Messages.unknownAgent(body.agent, Agents.names(config)), "agent")
            const info = yield* SessionTurn.session({ ...(body.id === undefined ? {} : { id: body.id }), ...(body.agent === undefined ? {} : { agent: body.agent }), ...(body.rules === undefined ? {} : { rules: body.rules }) })
            return ServerRoute.created({ data: info })
          }).pipe(Effect.catch((error) => Effect.succeed(ServerRoute.error(409, error._tag.replace("Session.", ""), error.message)))),
        )
      }),
    ),
})

const list = ServerRoute.make({
  method: "GET",
  path: "/api/session",
  tag: "session",
  summary: "Sessions of the project of a working directory, newest activity first",
  query: Schema.Struct({ directory: Schema.optionalKey(Schema.String) }),
  responses: { 200: { description: "{ data: SessionSummary[] }" } },
  handle: ({ query }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(query.directory)
        return ServerRoute.ok({ data: yield* handle.run(SessionOverview.list) })
      }),
    ),
})

const call = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/call",
  tag: "session",
  summary: "Run one tool call in the session; answers when it settles",
  body: CallBody,
  responses: { 200: { description: "The outcome: { kind, toolCallID, content… | message }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params, body }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const { handle, info } = yield* (yield* ServerHub.Service).session(params.sessionID ?? "")
        const outcome = yield* handle.run(
          SessionTurn.settle({
            session: info,
            // Read by the hub for this request: its rules judge the call's first decision too.
            current: true,
            ...(body.messageID === undefined ? {} : { message: body.messageID }),
            ...(body.model === undefined ? {} : { model: body.model }),
            call: { id: body.call.id ?? Id.create("call"), name: body.call.name, input: body.call.input },
          }),
        )
        return ServerRoute.ok(outcome)
      }),
    ),
})

const settled = ServerRoute.make({
  method: "GET",
  path: "/api/session/:sessionID/call/:toolCallID",
  tag: "session",
  summary: "A settled call of the session: the tool, its input and its outcome (kind and the text the model read), each cut to a bounded size",
  responses: { 200: { description: "{ data: { sessionID, toolCallID, tool, input, kind, text, at } }" }, 404: { description: "SessionNotFoundError, CallNotFoundError" } },
  handle: ({ params }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const { handle, info } = yield* (yield* ServerHub.Service).session(params.sessionID ?? "")
        const toolCallID = params.toolCallID ?? ""
        const record = yield* handle.run(Effect.flatMap(CallLog.Service, (calls) => calls.get(info.id, toolCallID)))
        return record === undefined ? ServerRoute.error(404, "CallNotFoundError", Messages.unknownCall(info.id, toolCallID)) : ServerRoute.ok({ data: record })
      }),
    ),
})

const todo = ServerRoute.make({
  method: "GET",
  path: "/api/session/:sessionID/todo",
  tag: "session",
  summary: "The session's todo list",
  responses: { 200: { description: "{ data: Todo[] }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const { handle, info } = yield* (yield* ServerHub.Service).session(params.sessionID ?? "")
        return ServerRoute.ok({ data: yield* handle.run(Effect.flatMap(Todo.Service, (todos) => todos.get(info.id))) })
      }),
    ),
})

/** Runs a History operation of the session; its failure is a reply too. */
const history = (sessionID: string, operation: (history: History.Interface, id: string) => Effect.Effect<unknown, History.Error>) =>
  ServerHub.replying(
    Effect.gen(function* () {
      const { handle, info } = yield* (yield* ServerHub.Service).session(sessionID)
      return yield* handle.run(
        Effect.flatMap(History.Service, (service) => operation(service, info.id)).pipe(
          Effect.map((data) => ServerRoute.ok({ data })),
          Effect.catch((error) => Effect.succeed(historyError(error))),
        ),
      )
    }),
  )

const diff = ServerRoute.make({
  method: "GET",
  path: "/api/session/:sessionID/diff",
  tag: "session",
  summary: "What the session's calls changed",
  responses: { 200: { description: "{ data: FileDiff[] }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params }) => history(params.sessionID ?? "", (service, id) => service.diff(id)),
})

const messages = ServerRoute.make({
  method: "GET",
  path: "/api/session/:sessionID/message",
  tag: "session",
  summary: "The messages whose calls changed files, oldest first: what a revert can rewind to",
  responses: { 200: { description: "{ data: [{ messageID, paths }] }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params }) => history(params.sessionID ?? "", (service, id) => service.messages(id)),
})

const revert = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/revert",
  tag: "session",
  summary: "Rewind the files the session wrote to before a message (a file changed since is kept and reported)",
  body: RevertBody,
  responses: { 200: { description: "{ data: RevertPlan }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params, body }) => history(params.sessionID ?? "", (service, id) => (body.dryRun === true ? service.plan(id, body.messageID) : service.revert(id, body.messageID))),
})

const unrevert = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/unrevert",
  tag: "session",
  summary: "Undo the session's last revert",
  responses: { 200: { description: "{ data: RevertPlan }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params }) => history(params.sessionID ?? "", (service, id) => service.unrevert(id)),
})

export const ROUTES: ReadonlyArray<ServerRoute.Route> = [create, list, call, settled, todo, diff, messages, revert, unrevert]

