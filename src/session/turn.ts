/**
 * The one call path every surface uses (CLI, MCP, HTTP, the AI SDK runner): the session a call
 * belongs to, the catalog that session sees now (its agent's rules and the model), and `settle`,
 * which runs one model call through that catalog and always answers with one `Outcome`. Its
 * `kind` is what surfaces map to their own terms, each in one place: CLI exit codes
 * (cli/exit-code.ts), later HTTP statuses and MCP `isError`.
 * - `success`: the tool ran; `content` is what the model reads.
 * - `failed`: the model reads `message` (a tool failure, an unknown or stale call, a reject with
 *   feedback); the agent may go on.
 * - `blocked`: a configured deny; the model reads `message`.
 * - `declined`: a person rejected an ask; the agent stops.
 * - `dismissed`: a person dismissed a question; the agent stops.
 * - `cancelled`: the call was interrupted from inside (a tool that stopped itself) before it
 *   settled; `Toolgate.settle` reports a call cut off by its Location closing the same way. An
 *   interruption of the caller (a signal) is not an outcome: it stops the caller.
 */
export * as SessionTurn from "./turn.js"

import { Cause, Effect, Exit } from "effect"
import { Config } from "../config.js"
import { ExternalServers } from "../external/servers.js"
import { PermissionCallRules } from "../permission/call-rules.js"
import { Permission } from "../permission/permission.js"
import type { PermissionRule } from "../permission/rule.js"
import { Session } from "../session.js"
import { History } from "../snapshot/history.js"
import { CallLog } from "./call-log.js"
import { Id } from "../storage/id.js"
import { Sql } from "../storage/sql.js"
import type { Tool } from "../tool/tool.js"
import { ToolRegistry } from "../tool/registry.js"
import { Tracing } from "../tracing.js"

export const KINDS = ["success", "failed", "blocked", "declined", "dismissed", "cancelled"] as const
export type Kind = (typeof KINDS)[number]

export const Messages = {
  cancelled: (tool: string) => `The call to ${tool} was cancelled before it finished`,
} as const

export type Outcome =
  | ({ readonly kind: "success"; readonly toolCallID: string } & Tool.Settled)
  | { readonly kind: Exclude<Kind, "success">; readonly toolCallID: string; readonly message: string }

/** Whether the agent must stop after this outcome (a person said no). */
export const stops = (outcome: Outcome): boolean => outcome.kind === "declined" || outcome.kind === "dismissed" || outcome.kind === "cancelled"

/** The text parts of a successful outcome, else its message: what the model reads. */
export const text = (outcome: Outcome): string =>
  outcome.kind === "success" ? outcome.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n") : outcome.message

export interface SessionInput {
  /** Reuse this session, or create it with this id; a new id when absent. */
  readonly id?: string
  /** The agent; default: the project's choice once trusted, else `build`. */
  readonly agent?: string
  readonly rules?: Session.EnsureInput["rules"]
}

/** The session a call runs in, created when new (its agent fixed from then on). */
export const session = Tracing.fn("SessionTurn.session")(function* (input: SessionInput = {}) {
  const sessions = yield* Session.Service
  const permission = yield* Permission.Service
  const agent = input.agent ?? (yield* permission.defaultAgent)
  return yield* sessions.ensure({ agent, ...(input.id === undefined ? {} : { id: input.id }), ...(input.rules === undefined ? {} : { rules: input.rules }) })
})

/** The tools `rules` and `model` see now, with the Location's tool switches and apply_patch rule. */
export const catalogFor = Tracing.fn("SessionTurn.catalogFor")(function* (rules: ReadonlyArray<PermissionRule.Rule>, model?: string) {
  // External MCP servers start the first time a catalog is needed, and their tools are in it.
  yield* (yield* ExternalServers.Service).ready
  const registry = yield* ToolRegistry.Service
  const config = yield* Config.Service
  return yield* registry.materialize({ rules, ...ToolRegistry.fromConfig(config), ...(model === undefined ? {} : { model }) })
})

/** The tools `session` sees now for `model`: its agent's configured rules and its own rules. */
export const catalog = Tracing.fn("SessionTurn.catalog")(function* (info: Session.Info, model?: string) {
  return yield* catalogOf(yield* rulesOf(info), model)
})

/** The rules of a session its caller has just read, not read again. */
const rulesOf = (info: Session.Info) => Effect.flatMap(Permission.Service, (permission) => permission.rulesOf(info, info.id))

/** The policy's denies hide what they deny; its other rules only ever add asks, never show a tool. */
const catalogOf = (rules: Permission.SessionRules, model?: string) =>
  catalogFor([...rules.configured, ...rules.session, ...rules.policy.filter((rule) => rule.effect === "deny")], model)

export interface SettleInput {
  readonly session: Session.Info
  /** The assistant message the call belongs to (revert rewinds by message); a new id when absent. */
  readonly message?: string
  readonly call: Tool.Call
  /** The catalog the model was shown (materialized at turn start); materialized now when absent. */
  readonly catalog?: ToolRegistry.Catalog
  readonly model?: string
  /**
   * `session` was read from storage for this call (the server reads it per request): the rules
   * the catalog is built from also judge the call's first decision (permission/call-rules.ts).
   * Without it that decision reads the session again, as one passed in may be stale.
   */
  readonly current?: true
}

/** Runs one call and settles it into an Outcome; only a defect is left to fail. */
// Untraced: a traced Effect.fn captures a stack per call, several µs on every call (docs/benchmarks.md).
export const settle = Effect.fnUntraced(function* (input: SettleInput) {
  // The database down fails the call closed, saying so: whatever needed it (a decision and its
  // record, an ask) did not happen.
  const outcome = yield* run(input).pipe(Sql.catchUnavailable((error) => Effect.succeed({ kind: "failed", toolCallID: input.call.id, message: error.message } satisfies Outcome)))
  // Kept so an audit record of this call leads to what it was given and what it answered; the
  // call has happened, so a database that cannot keep it costs the record, not the outcome.
  yield* (yield* CallLog.Service)
    .record({ sessionID: input.session.id, toolCallID: outcome.toolCallID, tool: input.call.name, input: input.call.input, kind: outcome.kind, text: text(outcome) })
    .pipe(Sql.catchUnavailable((error) => Effect.logWarning(error.message)))
  return outcome
})

/** The catalog of the session now, and the rules of a session read for this call, handed over. */
const fresh = Tracing.fn("SessionTurn.catalog")(function* (input: SettleInput) {
  const rules = yield* rulesOf(input.session)
  return { shown: yield* catalogOf(rules, input.model), handed: input.current === true ? PermissionCallRules.hand(input.session.id, rules) : undefined }
})

const run = Effect.fnUntraced(function* (input: SettleInput) {
  const { shown, handed } = input.catalog === undefined ? yield* fresh(input) : { shown: input.catalog, handed: undefined }
  const context: Tool.Context = {
    sessionID: input.session.id,
    agent: input.session.agent,
    assistantMessageID: input.message ?? Id.create("msg"),
    toolCallID: input.call.id,
  }
  const toolCallID = input.call.id
  const history = yield* History.Service
  // The call's own interruption (a tool that stops itself) is an outcome; an interruption of the
  // caller is not caught here, it stops the caller as it should. Either way the session's shell
  // changes end with the call, so what the command changed is its own.
  const exit = yield* Effect.exit(shown.settle(input.call, context).pipe(Effect.provideService(PermissionCallRules.Current, handed), Effect.ensuring(history.settle(input.session.id, toolCallID))))
  if (Exit.isSuccess(exit)) {
    const settled = exit.value
    if (settled.type === "success") {
      const { type: _type, ...rest } = settled
      return { kind: "success", toolCallID, ...rest } satisfies Outcome
    }
    return { kind: settled.blocked === true ? "blocked" : "failed", toolCallID, message: settled.message } satisfies Outcome
  }
  const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (error !== undefined && error._tag === "Fail") {
    const failure = error.error
    const kind = failure._tag === "Question.DismissedError" ? "dismissed" : "declined"
    return { kind, toolCallID, message: failure.message } satisfies Outcome
  }
  if (Exit.hasInterrupts(exit)) return { kind: "cancelled", toolCallID, message: Messages.cancelled(input.call.name) } satisfies Outcome
  // Anything else is a defect: it ends the caller as it would have without this path.
  return yield* Effect.die(Cause.squash(exit.cause))
})
