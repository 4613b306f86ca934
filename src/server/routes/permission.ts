/**
 * Permission routes in OpenCode V2's paths and shapes (its SDK and bridges call them unchanged):
 * pending requests of a Location or a session, one request, the reply, saved approvals and their
 * removal. A reply to a request that is unknown or already settled is 404 (never a silent
 * success, unlike OpenCode V1); to a request of another session, 409; the first valid reply wins.
 */
export * as PermissionRoutes from "./permission.js"

import { Effect, Option, Schema } from "effect"
import type { Locations } from "../../locations.js"
import { Approvals } from "../../permission/approvals.js"
import { Permission } from "../../permission/permission.js"
import { PermissionRequest } from "../../permission/request.js"
import { Project } from "../../project.js"
import { ServerHub } from "../hub.js"
import { ServerRoute } from "../route.js"
import { ServerWire } from "../wire.js"

export const Messages = {
  otherSession: (requestID: string, sessionID: string) => `Permission request ${requestID} belongs to session ${sessionID}, not to the session in the path`,
} as const

export const DirectoryQuery = Schema.Struct({
  directory: Schema.optionalKey(Schema.String.annotate({ description: "The working directory (default: where toolgate serve started)" })),
})

export const ReplyBody = Schema.Struct({
  reply: Schema.Literals(PermissionRequest.REPLIES).annotate({ description: "once, always or reject" }),
  message: Schema.optionalKey(Schema.String.annotate({ description: "With reject: feedback the model reads instead of stopping" })),
  scope: Schema.optionalKey(Schema.Literals(PermissionRequest.SCOPES).annotate({ description: "With always: session or project (default project)" })),
}).annotate({ identifier: "PermissionReply" })

export const SavedQuery = Schema.Struct({
  projectID: Schema.optionalKey(Schema.String.annotate({ description: "The project (default: that of directory)" })),
  directory: Schema.optionalKey(Schema.String.annotate({ description: "The working directory whose project is meant" })),
})

const notFound = (requestID: string) => ServerRoute.error(404, "PermissionNotFoundError", PermissionRequest.Messages.notFound(requestID), { requestID })

/** The pending requests of one Location, with the Location as V2 describes it. */
const pending = ServerRoute.make({
  method: "GET",
  path: "/api/permission/request",
  tag: "permission",
  summary: "Pending permission requests of a working directory",
  query: DirectoryQuery,
  responses: { 200: { description: "{ location, data: PermissionV2Request[] }" } },
  handle: ({ query }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(query.directory)
        const { list, project } = yield* handle.run(Effect.all({ list: Effect.flatMap(Permission.Service, (permission) => permission.list), project: Project.Service }))
        return ServerRoute.ok({ location: { directory: handle.directory, project: { id: project.id, directory: project.worktree } }, data: list.map(ServerWire.permission) })
      }),
    ),
})

const ofSession = ServerRoute.make({
  method: "GET",
  path: "/api/session/:sessionID/permission",
  tag: "permission",
  summary: "Pending permission requests of a session",
  responses: { 200: { description: "{ data: PermissionV2Request[] }" }, 404: { description: "SessionNotFoundError" } },
  handle: ({ params }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const { handle, info } = yield* (yield* ServerHub.Service).session(params.sessionID ?? "")
        const list = yield* handle.run(Effect.flatMap(Permission.Service, (permission) => permission.forSession(info.id)))
        return ServerRoute.ok({ data: list.map(ServerWire.permission) })
      }),
    ),
})

const pendingIn = (handle: Locations.Handle, requestID: string) =>
  handle.run(Effect.flatMap(Permission.Service, (permission) => Effect.option(permission.get(requestID))))

/**
 * The session whose pending request `requestID` is, in another Location open now than `directory`
 * (every open Location is one the server may open); undefined when none has it.
 */
const ownerElsewhere = (requestID: string, directory: string) =>
  Effect.gen(function* () {
    const hub = yield* ServerHub.Service
    for (const info of yield* hub.open) {
      if (info.directory === directory) continue
      // A Location that closed since, or that the server may not open, has nothing of this server's pending.
      const handle = yield* Effect.option(hub.location(info.directory))
      if (handle._tag === "None") continue
      const request = yield* Effect.catch(pendingIn(handle.value, requestID), () => Effect.succeed(Option.none()))
      if (request._tag === "Some") return request.value.sessionID
    }
    return undefined
  })

const conflict = (requestID: string, owner: string) => ServerRoute.error(409, "ConflictError", Messages.otherSession(requestID, owner), { requestID })

/** The request if it is pending and the session's; else the reply saying why not (409 when it is another session's, in any open Location). */
const requestOf = (sessionID: string, requestID: string) =>
  Effect.gen(function* () {
    const { handle } = yield* (yield* ServerHub.Service).session(sessionID)
    const request = yield* pendingIn(handle, requestID)
    if (request._tag === "None") {
      const owner = yield* ownerElsewhere(requestID, handle.directory)
      return { handle, refusal: owner === undefined ? notFound(requestID) : conflict(requestID, owner) }
    }
    if (request.value.sessionID !== sessionID) return { handle, refusal: conflict(requestID, request.value.sessionID) }
    return { handle, request: request.value }
  })

const one = ServerRoute.make({
  method: "GET",
  path: "/api/session/:sessionID/permission/:requestID",
  tag: "permission",
  summary: "One pending permission request of a session",
  responses: { 200: { description: "{ data: PermissionV2Request }" }, 404: { description: "SessionNotFoundError or PermissionNotFoundError" } },
  handle: ({ params }) =>
    ServerHub.replying(
      Effect.map(requestOf(params.sessionID ?? "", params.requestID ?? ""), (found) =>
        found.request === undefined ? (found.refusal.status === 409 ? notFound(params.requestID ?? "") : found.refusal) : ServerRoute.ok({ data: ServerWire.permission(found.request) }),
      ),
    ),
})

const reply = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/permission/:requestID/reply",
  tag: "permission",
  summary: "Reply to a pending permission request",
  body: ReplyBody,
  responses: {
    204: { description: "Replied" },
    400: { description: "InvalidRequestError: the body is not a reply" },
    404: { description: "SessionNotFoundError, or PermissionNotFoundError: unknown or already settled" },
    409: { description: "ConflictError: the request belongs to another session" },
    410: { description: "OwnerGoneError: the server that waited on the request (another server of the same PostgreSQL) is gone" },
  },
  handle: ({ params, body }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const requestID = params.requestID ?? ""
        const sessionID = params.sessionID ?? ""
        const input = { requestID, reply: body.reply, ...(body.scope === undefined ? {} : { scope: body.scope }), ...(body.message === undefined ? {} : { message: body.message }) }
        const hub = yield* ServerHub.Service
        // Not waiting here (not even a Location of this machine): perhaps another server of the same PostgreSQL waits on it.
        const elsewhere = hub.replyElsewhere(sessionID, requestID, PermissionRequest.answerOf(input))
        const found = yield* requestOf(sessionID, requestID).pipe(
          Effect.catch((error) => Effect.flatMap(elsewhere, (reply) => (reply === undefined ? Effect.fail(error) : Effect.succeed({ reply })))),
        )
        if ("reply" in found) return found.reply
        if (found.request === undefined) return (yield* elsewhere) ?? found.refusal
        const replied = yield* found.handle.run(Effect.flatMap(Permission.Service, (permission) => Effect.option(permission.reply(input))))
        return replied._tag === "None" ? notFound(requestID) : ServerRoute.NO_CONTENT
      }),
    ),
})

/** The project a saved-approval request means: projectID, else the directory's project; and whether the server may act for it. */
const projectOf = (query: typeof SavedQuery.Type) =>
  Effect.gen(function* () {
    const hub = yield* ServerHub.Service
    const handle = yield* hub.location(query.directory)
    if (query.projectID === undefined) return { handle, projectID: yield* handle.run(Effect.map(Project.Service, (project) => project.id)), allowed: true }
    return { handle, projectID: query.projectID, allowed: yield* hub.mayActFor(query.projectID) }
  })

const saved = ServerRoute.make({
  method: "GET",
  path: "/api/permission/saved",
  tag: "permission",
  summary: "Saved approvals of a project (both scopes)",
  query: SavedQuery,
  responses: { 200: { description: "{ data: PermissionSavedInfo[] } with scope, sessionID and createdAt" } },
  handle: ({ query }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const { handle, projectID, allowed } = yield* projectOf(query)
        // Another project's approvals are none of this server's business: as if it had none.
        if (!allowed) return ServerRoute.ok({ data: [] })
        const list = yield* handle.run(Effect.flatMap(Approvals.Service, (approvals) => approvals.list(projectID)))
        return ServerRoute.ok({ data: list })
      }),
    ),
})

const revoke = ServerRoute.make({
  method: "DELETE",
  path: "/api/permission/saved/:id",
  tag: "permission",
  summary: "Revoke a saved approval",
  responses: { 204: { description: "Revoked" }, 404: { description: "PermissionSavedNotFoundError" } },
  handle: ({ params }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const id = params.id ?? ""
        // Not through a Location: the directory serve started in may not be an allowed root.
        const removed = yield* Effect.option((yield* ServerHub.Service).removeApproval(id))
        return removed._tag === "None" ? ServerRoute.error(404, "PermissionSavedNotFoundError", Approvals.Messages.notFound(id), { id }) : ServerRoute.NO_CONTENT
      }),
    ),
})

export const ROUTES: ReadonlyArray<ServerRoute.Route> = [pending, ofSession, one, reply, saved, revoke]
