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
import { PermissionEvaluate } from "./evaluate.js"
import { PermissionRule } from "./rule.js"
import { Subcommand } from "./subcommand.js"

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
  /** Why an allow asks instead (`Raised`), in the words every surface that explains a decision uses. */
  raised: (raised: Raised): string => {
    switch (raised.kind) {
      case "untrusted":
        return "a project allow applied as ask: the project is not trusted yet; run toolgate trust"
      case "opaque":
        return "opaque: it could not be read with certainty, so a wildcard allow counts as ask; only a rule or approval naming this exact text allows it"
      case "protected":
        return `a protected path: only an allow rule naming ${raised.names.join(" and ")} allows it; other allows apply as ask`
      case "named":
        return `a tool of an MCP server a project file adds: only a rule whose action starts with ${raised.prefix} allows it; other allows apply as ask`
      case "subcommand":
        return `${raised.prefix} is no sub-command the program ships: an alias or autocorrect in its config may run it as one a rule denies or asks about, so only a rule or approval naming ${raised.prefix} allows it; other allows apply as ask`
    }
  },
  /** What answering "always" with `scope` would allow through one save pattern. */
  saveAllows: (action: string, pattern: string, scope: Scope) => {
    const what = /[*?]/.test(pattern) ? `anything matching ${pattern}` : `exactly ${pattern}`
    return scope === "session" ? `allow ${action} on ${what} for the rest of this session` : `always allow ${action} on ${what} in this project`
  },
} as const

export const Source = Schema.Struct({ toolCallID: Schema.String, messageID: Schema.String })

/**
 * What turned a rule that allows into an ask: a project file's allow while the project is not
 * trusted, an opaque text (a command the parser could not read with certainty), a protected path
 * (`names`: its protected names), an action only rules naming `prefix` allow, or a command whose
 * sub-command (`prefix`: the words naming it) the program's config may run as another.
 */
export const Raised = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("untrusted") }),
  Schema.Struct({ kind: Schema.Literal("opaque") }),
  Schema.Struct({ kind: Schema.Literal("protected"), names: Schema.Array(Schema.String) }),
  Schema.Struct({ kind: Schema.Literal("named"), prefix: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("subcommand"), prefix: Schema.String }),
]).annotate({ identifier: "Permission.Raised" })
export type Raised = typeof Raised.Type

/**
 * Why one resource of a request asks: the deciding rule as written (a raised rule is the allow it
 * was) with its source in words (`PermissionRule.describeSource`), or no rule when none matched
 * and the default ask stands; and what raised an allow to ask, if anything did.
 */
export const Why = Schema.Struct({
  resource: Schema.String,
  rule: Schema.optionalKey(Schema.Struct({ action: Schema.String, resource: Schema.String, effect: PermissionRule.Effect, source: Schema.String })),
  raised: Schema.optionalKey(Raised),
}).annotate({ identifier: "Permission.Why" })
export type Why = typeof Why.Type

export const Request = Schema.Struct({
  id: Schema.String,
  sessionID: Schema.String,
  action: Schema.String,
  resources: Schema.Array(Schema.String),
  save: Schema.Array(Schema.String),
  /** For each save pattern, what answering "always" with each scope would allow. */
  allows: Schema.Struct({ session: Schema.Array(Schema.String), project: Schema.Array(Schema.String) }),
  /** What the call will do, as the tool describes it (the well-known keys are PermissionShown's). */
  metadata: Schema.Record(Schema.String, Schema.Unknown),
  /** Why it asks: one entry per resource that asks, set by the gate (absent on requests made elsewhere). */
  why: Schema.optionalKey(Schema.Array(Why)),
  /** Asked by the organization's policy (permission/policy.ts): a person answers it, nothing automatic lets it through. */
  byPolicy: Schema.optionalKey(Schema.Literal(true)),
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
  /** A command the OS sandbox runs: rules with `when: "sandboxed"` apply (PermissionEvaluate.Context). */
  readonly sandboxed?: boolean
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


/** What raised one decided resource to ask, if anything did. */
const raisedOf = (query: Pick<AssertInput, "action" | "namedBy">, entry: PermissionEvaluate.Decision["matched"][number], context: PermissionEvaluate.Context): Raised | undefined => {
  if (entry.rule.downgraded === true) return { kind: "untrusted" }
  if (entry.raised === "named") return { kind: "named", prefix: query.namedBy ?? "" }
  if (entry.raised === "protected") return { kind: "protected", names: [...PermissionEvaluate.protectedNames(query.action, entry.resource, context)] }
  if (entry.raised === "opaque") return { kind: "opaque" }
  if (entry.raised === "subcommand") return { kind: "subcommand", prefix: Subcommand.standsFor(entry.resource)?.prefix ?? entry.resource }
  return undefined
}

/**
 * Why a request that asks does: each resource whose deciding rule is not an allow, in order.
 * @example PermissionRequest.whyOf({ action: "bash" }, PermissionEvaluate.evaluateInput(query)) // [{ resource: "git push", rule: { action: "bash", resource: "git *", effect: "ask", source: "…" } }]
 */
export const whyOf = (query: Pick<AssertInput, "action" | "namedBy">, decision: PermissionEvaluate.Decision, context: PermissionEvaluate.Context = {}): ReadonlyArray<Why> =>
  decision.matched
    .filter(({ rule }) => rule.effect !== "allow")
    .map((entry) => {
      const raised = raisedOf(query, entry, context)
      const { action, resource, effect, source } = entry.rule
      // A raised rule is shown as the allow it was written as; the reason says what asks instead.
      const rule = source.kind === "default" ? undefined : { action, resource, effect: raised === undefined ? effect : "allow", source: PermissionRule.describeSource(source) }
      return { resource: entry.resource, ...(rule === undefined ? {} : { rule }), ...(raised === undefined ? {} : { raised }) }
    })
