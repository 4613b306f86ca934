/**
 * A reply given to this server for an ask another server of the same PostgreSQL waits on
 * (interaction/shared.ts): the database decides whether it wins; the owner settles its call. A
 * reply to an ask whose server is gone is refused (410), and the ask's end recorded in the audit
 * log, so it is not left pending there. Without shared asks, or for an id no server waits on,
 * there is nothing here: the caller's own answer (404) stands.
 */
export * as ServerSharedReply from "./shared-reply.js"

import { Effect } from "effect"
import type { SharedAsks } from "../interaction/shared.js"
import { AuditLog } from "../permission/audit-log.js"
import { PermissionRequest } from "../permission/request.js"
import { Sql } from "../storage/sql.js"
import { ServerRoute } from "./route.js"

export const Messages = {
  otherSession: (requestID: string, sessionID: string) => `Permission request ${requestID} belongs to session ${sessionID}`,
  ownerGone: (requestID: string) => `The server waiting on permission request ${requestID} is gone: the ask ended unanswered, and the reply was not taken`,
} as const

/** The reply for `requestID` when another server owns it; undefined when no server does. */
export const reply = (shared: SharedAsks.Interface, sessionID: string, requestID: string, answer: PermissionRequest.Answer) =>
  Effect.gen(function* () {
    const found = yield* shared.foreign(requestID)
    if (found === undefined || found.ask.pending.kind !== "permission") return undefined
    const { ask } = found
    // Answered or ended already, on whichever server: as for a request settled here.
    if (!found.open) return ServerRoute.error(404, "PermissionNotFoundError", PermissionRequest.Messages.notFound(requestID), { requestID })
    if (ask.pending.sessionID !== sessionID) return ServerRoute.error(409, "ConflictError", Messages.otherSession(requestID, ask.pending.sessionID), { requestID })
    const outcome = yield* shared.reply(requestID, answer)
    if (outcome === "answered") return ServerRoute.NO_CONTENT
    if (outcome !== "owner-gone") return ServerRoute.error(404, "PermissionNotFoundError", PermissionRequest.Messages.notFound(requestID), { requestID })
    const request = ask.pending.payload as PermissionRequest.Request
    const sql = yield* Sql.Service
    const session = yield* sql.get<{ project_id: string }>("SELECT project_id FROM session WHERE id = ?", [sessionID])
    const audit = yield* Effect.provide(Effect.service(AuditLog.Service), AuditLog.layer)
    yield* audit.append({
      projectID: session?.project_id ?? "",
      sessionID,
      action: request.action,
      resources: request.resources,
      effect: "deny",
      decidedBy: "rule",
      reply: AuditLog.INTERRUPTED,
      requestID,
      ...(request.source?.toolCallID === undefined ? {} : { toolCallID: request.source.toolCallID }),
    })
    return ServerRoute.error(410, "OwnerGoneError", Messages.ownerGone(requestID), { requestID })
  })
