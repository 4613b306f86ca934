/**
 * toolgate's shapes as OpenCode V2 clients read them (`@opencode-ai/sdk` v2, its bridges): a
 * pending permission request (`PermissionV2Request`: `source` is `{ type: "tool", messageID,
 * callID }`), a pending question (`QuestionV2Request`: `tool` instead of `source`), a saved
 * approval (`PermissionSavedInfo`) and the bus's event names. Our own fields (`why`, `allows`,
 * `createdAt`) ride along: V2 clients ignore what they do not know. Events OpenCode has keep its
 * names; ours are `toolgate.<name>`.
 */
export * as ServerWire from "./wire.js"

import type { Approvals } from "../permission/approvals.js"
import type { PermissionRequest } from "../permission/request.js"
import type { Question } from "../question.js"

/** Bus event types → wire names, where OpenCode V2 has one. */
export const EVENT_NAMES: Readonly<Record<string, string>> = {
  "permission.asked": "permission.v2.asked",
  "permission.replied": "permission.v2.replied",
  "question.asked": "question.v2.asked",
}

/** The wire name of a bus event: OpenCode's where it has one, else `toolgate.<type>`. */
export const eventName = (type: string, payload?: unknown): string => {
  // OpenCode tells a rejected question from a replied one by the event's name.
  if (type === "question.replied") return (payload as { readonly reply?: string } | undefined)?.reply === "dismissed" ? "question.v2.rejected" : "question.v2.replied"
  return EVENT_NAMES[type] ?? `toolgate.${type}`
}

/** A pending permission request in V2's shape, with toolgate's own fields kept. */
export const permission = (request: PermissionRequest.Request) => {
  const { source, ...rest } = request
  return { ...rest, source: { type: "tool" as const, messageID: source.messageID, callID: source.toolCallID } }
}

/** A pending question in V2's shape. */
export const question = (request: Question.Request) => {
  const { source, ...rest } = request
  return { ...rest, tool: { messageID: source.messageID, callID: source.toolCallID } }
}

/** A saved approval in V2's shape (`PermissionSavedInfo`), with its scope, session and time kept. */
export const saved = (approval: Approvals.Approval) => approval
