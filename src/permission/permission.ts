/**
 * The gate. `assert` decides a request with the pure evaluation (evaluate.ts): allow returns,
 * deny fails with `BlockedError`, ask adds a pending request to the interaction store
 * (interaction/store.ts, which owns the lifecycle), publishes `permission.asked` and waits for an
 * answer. An interrupted wait publishes `permission.replied` with `reject`. A reject without
 * feedback declines every other pending request of that session too; `always` saves the
 * request's save patterns for the session or the project and lets through every other pending
 * request (of the session, or of the project) that those now allow, never one a configured deny
 * blocks. Every decision is appended to the audit log. `reply`, `list`, `get`, `forSession` and
 * `close` are the permission view of the store.
 */
export * as Permission from "./permission.js"

import path from "node:path"
import { Clock, Context, Effect, Layer } from "effect"
import { Bus } from "../bus.js"
import { Config } from "../config.js"
import { Location } from "../location/location.js"
import { Project } from "../project.js"
import { Session } from "../session.js"
import { Id } from "../storage/id.js"
import { Sql } from "../storage/sql.js"
import { Interaction } from "../interaction/interaction.js"
import { InteractionStore } from "../interaction/store.js"
import { Agents } from "./agents.js"
import { Approvals } from "./approvals.js"
import { AuditLog } from "./audit-log.js"
import { PermissionCallRules } from "./call-rules.js"
import { PermissionEvaluate } from "./evaluate.js"
import { Policy } from "./policy.js"
import { Asked, BlockedError, CorrectedError, DeclinedError, Messages, NotFoundError, PermissionRequest, Replied } from "./request.js"
import type { AssertError, AssertInput, Reply, ReplyInput, Request } from "./request.js"
import { PermissionRule } from "./rule.js"
import { Tracing } from "../tracing.js"

export const { EFFECTS, Rule, PATH_ACTIONS } = PermissionRule
export type Rule = PermissionRule.Rule
export type Ruleset = PermissionRule.Ruleset
export type Sourced = PermissionRule.Sourced
export const { evaluate, evaluateIn, evaluateInput, deniesEverything } = PermissionEvaluate

/**
 * What to do when a request comes out `ask` in any session of the Location: queue it for an
 * answerer, or treat it as a deny. A session's own `deny` answerer (Answerer.policy) does the same for it.
 */
export type AskPolicy = "queue" | "deny"

export { Asked, BlockedError, CorrectedError, DeclinedError, Messages, NotFoundError, Raised, REPLIES, Replied, Request, SCOPES, Source, Why } from "./request.js"
export type { Answer, AssertError, AssertInput, Reply, ReplyInput, Scope } from "./request.js"

export interface Interface {
  readonly assert: (input: AssertInput) => Effect.Effect<void, AssertError>
  /** Answers a pending request (a plain `always` means the project); an unknown or settled id is not found. */
  readonly reply: (input: ReplyInput) => Effect.Effect<void, NotFoundError>
  readonly list: Effect.Effect<ReadonlyArray<Request>>
  readonly get: (requestID: string) => Effect.Effect<Request, NotFoundError>
  readonly forSession: (sessionID: string) => Effect.Effect<ReadonlyArray<Request>>
  /** Closes the interaction store: every pending ask, questions too, ends (declined) because the Location closed. */
  readonly close: Effect.Effect<void>
  /** How resources are compared here: the Location's directory and its file system's case rule. */
  readonly context: PermissionEvaluate.Context
  /** The agent a run uses when none is named (a project's choice counts once it is trusted). */
  readonly defaultAgent: Effect.Effect<string>
  /**
   * Whether a request would be allowed without asking anyone: evaluation only, nothing asked or
   * recorded. Tools use it to decide what they may show, never to decide what they may do.
   */
  readonly allows: (request: Pick<AssertInput, "sessionID" | "action" | "resources" | "opaque" | "namedBy" | "sandboxed">) => Effect.Effect<boolean>
  /**
   * `allows` for many resources one at a time, decided synchronously from the rules as they are
   * now (one snapshot): for filtering a stream (grep's lines of files the session may not read).
   * An `opaque` resource is allowed only by a rule or approval naming it exactly.
   */
  readonly allowsEach: (sessionID: string, action: string) => Effect.Effect<(resource: string, opaque?: boolean) => boolean>
  /** The decision `assert` would start from, with the deciding rule per resource: evaluation only. */
  readonly decide: (request: Pick<AssertInput, "sessionID" | "action" | "resources" | "opaque" | "namedBy" | "sandboxed">) => Effect.Effect<PermissionEvaluate.Decision>
  /** An agent's configured rules: built-in defaults, then config files, with trust applied. */
  readonly configured: (agent: string) => Effect.Effect<ReadonlyArray<Sourced>>
  /** The organization's policy as this Location judges it (policy.ts). */
  readonly policy: Effect.Effect<ReadonlyArray<Sourced>>
  /** The configured rules and session rules a session runs under. */
  readonly rulesFor: (sessionID: string) => Effect.Effect<SessionRules>
  /** The same for a session its caller has just read (`Session.find`, `Session.get`), without reading it again. */
  readonly rulesOf: (session: Session.Info | undefined, sessionID: string) => Effect.Effect<SessionRules>
}

export interface SessionRules {
  readonly configured: ReadonlyArray<Sourced>
  readonly session: ReadonlyArray<Sourced>
  readonly policy: ReadonlyArray<Sourced>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Permission") {}

export interface Options {
  readonly home: string
  readonly askPolicy?: AskPolicy
}

const NOTES: Readonly<Record<Interaction.EndCause, string>> = { interrupted: AuditLog.INTERRUPTED, closed: "closed", session: "session ended" }

/** What limits which rules may allow a request (PermissionEvaluate.Query). */
type Guard = { readonly opaque?: boolean; readonly namedBy?: string; readonly sandboxed?: boolean }

const guardOf = (request: Guard): Guard => ({
  ...(request.opaque === true ? { opaque: true } : {}),
  ...(request.sandboxed === true ? { sandboxed: true } : {}),
  ...(request.namedBy === undefined ? {} : { namedBy: request.namedBy }),
})

/** The audit log's reply note: an "always" for the session only says so. */
const noteOf = (answer: PermissionRequest.Answer) => (answer.reply === "always" && answer.scope === "session" ? "always:session" : answer.reply)

/** What an audit record says besides the decision: the reply that ended an ask, the request, the deciding rules. */
type Why = Pick<AuditLog.Entry, "reply" | "requestID" | "rules">

/** The rules an audit record names, each once: those that did not allow an ask; every matched rule otherwise. */
const decidingRules = (decision: PermissionEvaluate.Decision): ReadonlyArray<Sourced> => {
  const matched = decision.effect === "ask" ? decision.matched.filter(({ rule }) => rule.effect !== "allow") : decision.matched
  return [...new Map(matched.map(({ rule }) => [JSON.stringify([rule.action, rule.resource, rule.effect, rule.source]), rule] as const)).values()]
}

export const layer = (options: Options) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const bus = yield* Bus.Service
      const config = yield* Config.Service
      const project = yield* Project.Service
      const approvals = yield* Approvals.Service
      const audit = yield* AuditLog.Service
      const sessions = yield* Session.Service
      const location = yield* Location.Service
      const store = yield* InteractionStore.Service
      const sql = yield* Sql.Service
      const policy = Effect.provideService(Policy.rules(options.home, location.directory), Sql.Service, sql)
      /** Pending requests that only some rules let through: opaque resources, actions only a naming rule allows. */
      const guards = new Map<string, Guard>()
      const context: PermissionEvaluate.Context = {
        location: location.directory,
        caseInsensitive: process.platform === "win32",
        caseInsensitivePaths: location.caseInsensitive,
      }

      const configured = (agent: string) =>
        Effect.map(project.trusted, (trusted) => Agents.rules(config, agent, { home: options.home, trusted, location: location.directory }))

      const rulesOf = Effect.fnUntraced(function* (session: Session.Info | undefined, sessionID: string): Effect.fn.Return<SessionRules> {
        // A session this Location does not know, or one that ended, has no agent: it is denied everything.
        if (session === undefined) return { configured: Agents.denyAll(`unknown session ${sessionID}`), session: [], policy: [] }
        if (session.endedAt !== undefined) return { configured: Agents.denyAll(`ended session ${sessionID}`), session: [], policy: [] }
        return { configured: yield* configured(session.agent), session: session.rules, policy: yield* policy }
      })
      const rulesFor = Tracing.fn("Permission.rulesFor")(function* (sessionID: string) {
        return yield* rulesOf(yield* sessions.get(sessionID), sessionID)
      })

      type Rules = SessionRules
      // Rules with `when: "sandboxed"` match only a request for a command the sandbox runs.
      const sandboxedContext: PermissionEvaluate.Context = { ...context, sandboxed: true }
      const evaluateWith = (request: Pick<Request, "action" | "resources">, rules: Rules, saved: ReadonlyArray<Sourced>, guard: Guard = {}) =>
        PermissionEvaluate.evaluateInput({
          action: request.action,
          resources: request.resources,
          ...rules,
          saved,
          policy: rules.policy,
          context: guard.sandboxed === true ? sandboxedContext : context,
          ...(guard.opaque === true ? { opaque: true } : {}),
          ...(guard.namedBy === undefined ? {} : { namedBy: guard.namedBy }),
        })

      /** The project's approvals, then the session's own. */
      const savedFor = (sessionID: string) => approvals.rules(project.id, sessionID)

      const decide = Effect.fnUntraced(function* (request: Pick<AssertInput, "sessionID" | "action" | "resources" | "opaque" | "namedBy" | "sandboxed">) {
        // The call's first decision takes the rules its catalog was just built from (call-rules.ts).
        const rules = (yield* PermissionCallRules.Current)?.take(request.sessionID) ?? (yield* rulesFor(request.sessionID))
        const saved = yield* savedFor(request.sessionID)
        return evaluateWith(request, rules, saved, guardOf(request))
      })

      const record = (request: Pick<Request, "sessionID" | "action" | "resources" | "source">, effect: PermissionRule.Effect, decidedBy: AuditLog.DecidedBy, why: Why = {}) =>
        audit.append({ projectID: project.id, sessionID: request.sessionID, action: request.action, resources: request.resources, effect, decidedBy, toolCallID: request.source.toolCallID, ...why })

      const publish = (request: Request, answer: PermissionRequest.Answer) =>
        bus.publish(Replied, { sessionID: request.sessionID, requestID: request.id, reply: answer.reply, ...(answer.reply === "always" ? { scope: answer.scope } : {}) })

      /** The pending permission requests, optionally of one session only. */
      const pendingRequests = (sessionID?: string) =>
        Effect.map(sessionID === undefined ? store.list : store.forSession(sessionID), (entries) => entries.flatMap((entry) => (entry.kind === "permission" ? [entry.payload] : [])))

      /** After an "always": lets through the other pending requests that the saved patterns now allow (only the session's, for a session scope). */
      const release = Effect.fnUntraced(function* (scope: PermissionRequest.Scope, sessionID: string) {
        const bySession = new Map<string, { readonly rules: Rules; readonly saved: ReadonlyArray<Sourced> }>()
        for (const request of yield* pendingRequests(scope === "session" ? sessionID : undefined)) {
          const known = bySession.get(request.sessionID) ?? { rules: yield* rulesFor(request.sessionID), saved: yield* savedFor(request.sessionID) }
          bySession.set(request.sessionID, known)
          if (evaluateWith(request, known.rules, known.saved, guards.get(request.id)).effect !== "allow") continue
          yield* store.release(request.id, { reply: "always", scope })
        }
      })

      /** After a plain reject: declines every other pending request of the session. */
      const declineSession = Effect.fnUntraced(function* (sessionID: string) {
        for (const request of yield* pendingRequests(sessionID)) yield* store.release(request.id, { reply: "reject" })
      })

      /** An "always" stores the request's save patterns for its scope (none: it counts as once). */
      const save = (request: Request, answer: PermissionRequest.Answer) =>
        answer.reply === "always" && request.save.length > 0
          ? Effect.asVoid(approvals.add(project.id, request.action, request.save, answer.scope === "session" ? request.sessionID : undefined))
          : Effect.void

      /** What an answer sets off: an "always" that saved lets others through; a plain reject declines the session's other requests. */
      const followUp = (request: Request, answer: PermissionRequest.Answer) => {
        if (answer.reply === "always" && request.save.length > 0) return release(answer.scope, request.sessionID)
        if (answer.reply === "reject" && PermissionRequest.feedbackOf(answer) === undefined) return declineSession(request.sessionID)
        return Effect.void
      }

      /**
       * What a settled request leaves behind: the published reply, the saved approvals of an
       * "always", the audit record (by the person, a saved approval for one released by an
       * "always", or `rule` with a note when nobody answered), and the follow-ups of an answer.
       */
      const settled = (request: Request) => (settlement: Interaction.Settlement<"permission">) => {
        if (settlement.type === "ended") return publish(request, { reply: "reject" }).pipe(Effect.andThen(record(request, "deny", "rule", { reply: NOTES[settlement.cause], requestID: request.id })))
        const { answer } = settlement
        const answered = settlement.type === "answered"
        // A request let through by another's "always" stores nothing: its own patterns may be broader.
        const by: AuditLog.DecidedBy = !answered && answer.reply === "always" ? "saved" : "person"
        // The approval an "always" saves and the record of that decision: one transaction, so
        // neither is ever kept without the other.
        return publish(request, answer).pipe(
          Effect.andThen(
            sql.transaction(
              Effect.andThen(answered ? save(request, answer) : Effect.void, record(request, answer.reply === "reject" ? "deny" : "allow", by, { reply: noteOf(answer), requestID: request.id })),
            ),
          ),
          Effect.andThen(answered ? followUp(request, answer) : Effect.void),
        )
      }

      /**
       * What "always" stores. Path patterns are made absolute: approvals belong to the whole
       * repository, and `config.json` approved in one subfolder must not approve another's.
       */
      const stored = (action: string, patterns: ReadonlyArray<string>) =>
        PermissionRule.isPathAction(action)
          ? patterns.map((pattern) => (PermissionRule.isAbsolute(pattern) ? pattern : path.join(location.directory, pattern)))
          : patterns

      const wait = Effect.fnUntraced(function* (input: AssertInput, id: string, decision: PermissionEvaluate.Decision) {
        // An ask of the organization's policy is asked every time: no answer saves it away.
        const byPolicy = PermissionEvaluate.byPolicy(decision)
        const save = byPolicy ? [] : stored(input.action, input.save ?? [])
        const request: Request = {
          id,
          sessionID: input.sessionID,
          action: input.action,
          resources: [...input.resources],
          save: [...save],
          allows: {
            session: save.map((pattern) => Messages.saveAllows(input.action, pattern, "session")),
            project: save.map((pattern) => Messages.saveAllows(input.action, pattern, "project")),
          },
          metadata: { ...input.metadata },
          why: [...PermissionRequest.whyOf(input, decision, context)],
          ...(byPolicy ? { byPolicy: true as const } : {}),
          source: input.source,
          createdAt: yield* Clock.currentTimeMillis,
        }
        const guard = guardOf(input)
        if (guard.opaque === true || guard.namedBy !== undefined || guard.sandboxed === true) guards.set(request.id, guard)
        const settlement = yield* store
          .ask({ kind: "permission", id: request.id, sessionID: request.sessionID, payload: request, createdAt: request.createdAt, announce: bus.publish(Asked, request), settled: settled(request) })
          .pipe(Effect.ensuring(Effect.sync(() => guards.delete(request.id))))
        if (settlement.type === "ended") return yield* new DeclinedError({ requestID: request.id, action: request.action, reason: settlement.reason })
        if (settlement.answer.reply !== "reject") return
        const feedback = PermissionRequest.feedbackOf(settlement.answer)
        if (feedback !== undefined) return yield* new CorrectedError({ requestID: request.id, feedback })
        return yield* new DeclinedError({ requestID: request.id, action: request.action })
      })

      const assert = Tracing.fn("Permission.assert")(function* (input: AssertInput) {
        const decision = yield* decide(input)
        const denied = decision.effect === "ask" && (options.askPolicy === "deny" || (yield* store.denies(input.sessionID)))
        const effect = denied ? "deny" : decision.effect
        const requestID = effect === "ask" ? Id.create("per") : undefined
        yield* record(input, effect, decision.decidedBy, { rules: decidingRules(decision), ...(requestID === undefined ? {} : { requestID }) })
        if (effect === "allow") return
        if (effect === "deny") {
          const rules = decision.matched.map(({ resource, rule }) => ({ resource, rule: { action: rule.action, resource: rule.resource, effect: rule.effect } }))
          return yield* new BlockedError({ action: input.action, resources: [...input.resources], rules })
        }
        yield* wait(input, requestID as string, decision)
      })

      // The spec's view: an id that is unknown, already settled or not a permission request is not found here.
      const reply = Tracing.fn("Permission.reply")(function* (input: ReplyInput) {
        const notFound = () => Effect.fail(new NotFoundError({ requestID: input.requestID }))
        yield* store
          .answer(input.requestID, PermissionRequest.answerOf(input))
          .pipe(Effect.catchTags({ "Interaction.NotFoundError": notFound, "Interaction.AlreadyAnsweredError": notFound, "Interaction.InvalidAnswerError": notFound }))
      })

      const list = pendingRequests()
      const get = (requestID: string) =>
        Effect.flatMap(Effect.option(store.get(requestID)), (found) =>
          found._tag === "Some" && found.value.kind === "permission" ? Effect.succeed(found.value.payload) : Effect.fail(new NotFoundError({ requestID })),
        )
      const forSession = (sessionID: string) => pendingRequests(sessionID)
      const close = store.close(Interaction.Reasons.locationClosed)

      const defaultAgent = Effect.map(project.trusted, (trusted) => Config.defaultAgent(config.files, trusted))
      const allows = (request: Pick<AssertInput, "sessionID" | "action" | "resources" | "opaque" | "namedBy" | "sandboxed">) =>
        Effect.map(decide(request), (decision) => decision.effect === "allow")
      const allowsEach = Effect.fnUntraced(function* (sessionID: string, action: string) {
        const rules = yield* rulesFor(sessionID)
        const saved = yield* savedFor(sessionID)
        const known = new Map<string, boolean>()
        return (resource: string, opaque = false) => {
          const key = `${opaque ? "1" : "0"}${resource}`
          const hit = known.get(key)
          if (hit !== undefined) return hit
          const allowed = evaluateWith({ action, resources: [resource] }, rules, saved, opaque ? { opaque: true } : {}).effect === "allow"
          known.set(key, allowed)
          return allowed
        }
      })

      return Service.of({ assert, reply, list, get, forSession, close, context, defaultAgent, allows, allowsEach, decide, configured, policy, rulesFor, rulesOf })
    }),
  )
