/**
 * The shapes the permission gate exchanges: pending requests as a person sees them, the events
 * that announce them, the replies, and the errors an assertion ends with. Messages are derived
 * from the data; the gate itself lives in permission.ts, which re-exports all of this. An
 * "always" has a scope: `session` keeps the approval while the session exists, `project` saves
 * it for the project until revoked; a plain `"always"` from older callers means `project`.
 */
export * as PermissionRequest from "./request.js"

import { Schema } from "effect"
import { Bus } from "../bus.js"
import { PermissionRule } from "./rule.js"

export const REPLIES = ["once", "always", "reject"] as const
export type Reply = (typeof REPLIES)[number]

/** How long an "always" holds: while the session exists, or for the project until revoked. */
export const SCOPES = ["session", "project"] as const
export type Scope = (typeof SCOPES)[number]

export const Messages = {
  blocked: (action: string) => `Permission denied: ${action}`,
  declined: (action: string) => `Permission declined by the user: ${action}`,
  corrected: (feedback: string) => `The user rejected this call with feedback: ${feedback}`,
  /** A request that ended without an answer: the Location closed, the session ended. */
  unanswered: (action: string, reason: string) => `Permission request for ${action} ended unanswered: ${reason}`,
  notFound: (requestID: string) => `No pending permission request with id ${requestID}`,
  /** What answering "always" with `scope` would allow through one save pattern. */
  saveAllows: (action: string, pattern: string, scope: Scope) => {
    const what = /[*?]/.test(pattern) ? `anything matching ${pattern}` : `exactly ${pattern}`
    return scope === "session" ? `allow ${action} on ${what} for the rest of this session` : `always allow ${action} on ${what} in this project`
  },
} as const

export const Source = Schema.Struct({ toolCallID: Schema.String, messageID: Schema.String })

export const Request = Schema.Struct({
  id: Schema.String,
  sessionID: Schema.String,
  action: Schema.String,
  resources: Schema.Array(Schema.String),
  save: Schema.Array(Schema.String),
  /** For each save pattern, what answering "always" with each scope would allow. */
  allows: Schema.Struct({ session: Schema.Array(Schema.String), project: Schema.Array(Schema.String) }),
  metadata: Schema.Record(Schema.String, Schema.Unknown),
  source: Source,
  createdAt: Schema.Number,
}).annotate({ identifier: "Permission.Request" })
export type Request = typeof Request.Type

export const Asked = Bus.event("permission.asked", Request)
export const Replied = Bus.event(
  "permission.replied",
  Schema.Struct({ sessionID: Schema.String, requestID: Schema.String, reply: Schema.Literals(REPLIES), scope: Schema.optionalKey(Schema.Literals(SCOPES)) }),
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

/** Refused by a person (a plain reject), or ended unanswered (`reason`: the Location closed, the session ended). */
export class DeclinedError extends Schema.TaggedError<DeclinedError>()("Permission.DeclinedError", {
  requestID: Schema.String,
  action: Schema.String,
  reason: Schema.optionalKey(Schema.String),
}) {
  override get message() {
    return this.reason === undefined ? Messages.declined(this.action) : Messages.unanswered(this.action, this.reason)
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
  /** Only rules whose action starts with this allow (see `PermissionEvaluate.Query.namedBy`). */
  readonly namedBy?: string
}

/** An answer to a permission request, as the interaction store takes it. */
export type Answer =
  | { readonly reply: "once" }
  | { readonly reply: "always"; readonly scope: Scope }
  /** With a message (not blank), the model reads it and continues; without, the agent stops. */
  | { readonly reply: "reject"; readonly message?: string }

export interface ReplyInput {
  readonly requestID: string
  readonly reply: Reply
  /** For `always`; absent means `project`, as before scopes existed. */
  readonly scope?: Scope
  readonly message?: string
}

/** The answer a reply means. */
export const answerOf = (input: ReplyInput): Answer => {
  if (input.reply === "always") return { reply: "always", scope: input.scope ?? "project" }
  if (input.reply === "reject") return input.message === undefined ? { reply: "reject" } : { reply: "reject", message: input.message }
  return { reply: "once" }
}

/** A reject's feedback for the model, or undefined for a plain reject (a blank message is none). */
export const feedbackOf = (answer: Answer): string | undefined =>
  answer.reply === "reject" && answer.message !== undefined && answer.message.trim() !== "" ? answer.message : undefined

