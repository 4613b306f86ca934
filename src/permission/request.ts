/**
 * The shapes the permission gate exchanges: pending requests as a person sees them, the events
 * that announce them, the replies, and the errors an assertion ends with. Messages are derived
 * from the data; the gate itself lives in permission.ts, which re-exports all of this.
 */
export * as PermissionRequest from "./request.js"

import { Schema } from "effect"
import { Bus } from "../bus.js"
import { PermissionRule } from "./rule.js"

export const REPLIES = ["once", "always", "reject"] as const
export type Reply = (typeof REPLIES)[number]


export const Messages = {
  blocked: (action: string) => `Permission denied: ${action}`,
  declined: (action: string) => `Permission declined by the user: ${action}`,
  closed: (action: string, reason: string) => `Permission request for ${action} declined: ${reason}`,
  corrected: (feedback: string) => `The user rejected this call with feedback: ${feedback}`,
  notFound: (requestID: string) => `No pending permission request with id ${requestID}`,
  saveAllows: (action: string, pattern: string) =>
    /[*?]/.test(pattern)
      ? `always allow ${action} on anything matching ${pattern} in this project`
      : `always allow ${action} on exactly ${pattern} in this project`,
} as const

export const Source = Schema.Struct({ toolCallID: Schema.String, messageID: Schema.String })

export const Request = Schema.Struct({
  id: Schema.String,
  sessionID: Schema.String,
  action: Schema.String,
  resources: Schema.Array(Schema.String),
  save: Schema.Array(Schema.String),
  /** For each save pattern, what answering "always" would allow. */
  allows: Schema.Array(Schema.String),
  metadata: Schema.Record(Schema.String, Schema.Unknown),
  source: Source,
  createdAt: Schema.Number,
}).annotate({ identifier: "Permission.Request" })
export type Request = typeof Request.Type

export const Asked = Bus.event("permission.asked", Request)
export const Replied = Bus.event(
  "permission.replied",
  Schema.Struct({ sessionID: Schema.String, requestID: Schema.String, reply: Schema.Literals(REPLIES) }),
)

export class BlockedError extends Schema.TaggedError<BlockedError>()("Permission.BlockedError", {
  action: Schema.String,
  resources: Schema.Array(Schema.String),
  /** The rules that denied, for explain. */
  rules: Schema.Array(Schema.Struct({ resource: Schema.String, rule: PermissionRule.Rule })),
}) {
  override get message() {
    return Messages.blocked(this.action)
  }
}

export class DeclinedError extends Schema.TaggedError<DeclinedError>()("Permission.DeclinedError", {
  requestID: Schema.String,
  action: Schema.String,
  /** Why it was declined, when it was not a person (the Location closed). */
  reason: Schema.optional(Schema.String),
}) {
  override get message() {
    return this.reason === undefined ? Messages.declined(this.action) : Messages.closed(this.action, this.reason)
  }
}

export class CorrectedError extends Schema.TaggedError<CorrectedError>()("Permission.CorrectedError", {
  requestID: Schema.String,
  feedback: Schema.String,
}) {
  override get message() {
    return Messages.corrected(this.feedback)
  }
}

export class NotFoundError extends Schema.TaggedError<NotFoundError>()("Permission.NotFoundError", { requestID: Schema.String }) {
  override get message() {
    return Messages.notFound(this.requestID)
  }
}

export type AssertError = BlockedError | DeclinedError | CorrectedError

export interface AssertInput {
  readonly sessionID: string
  readonly action: string
  readonly resources: ReadonlyArray<string>
  readonly save?: ReadonlyArray<string>
  readonly metadata?: Readonly<Record<string, unknown>>
  readonly source: { readonly toolCallID: string; readonly messageID: string }
  /** Opaque resources (see `PermissionEvaluate.Query.opaque`): only exact rules allow them. */
  readonly opaque?: boolean
}

export interface ReplyInput {
  readonly requestID: string
  readonly reply: Reply
  readonly message?: string
}

