/**
 * The gate. `assert` decides a request with the pure evaluation (evaluate.ts): allow returns,
 * deny fails with `BlockedError`, ask creates a pending request, publishes `permission.asked`
 * and waits for `reply`. The entry is created uninterruptibly and removed on every exit path;
 * an interrupted wait publishes `permission.replied` with `reject`. A reject without feedback
 * declines every other pending request of that session too; `always` saves the request's save
 * patterns and lets through every other pending request that those now allow (never one a
 * configured deny blocks). Every decision is appended to the audit log.
 */
export * as Permission from "./permission.js"

import path from "node:path"
import { Clock, Context, Deferred, Effect, Layer } from "effect"
import { Bus } from "../bus.js"
import { Config } from "../config.js"
import { Location } from "../location/location.js"
import { Project } from "../project.js"
import { Session } from "../session.js"
import { Id } from "../storage/id.js"
import { Agents } from "./agents.js"
import { Approvals } from "./approvals.js"
import { AuditLog } from "./audit-log.js"
import { PermissionEvaluate } from "./evaluate.js"
import { Asked, BlockedError, CorrectedError, DeclinedError, Messages, NotFoundError, Replied } from "./request.js"
import type { AssertError, AssertInput, Reply, ReplyInput, Request } from "./request.js"
import { PermissionRule } from "./rule.js"

export const { EFFECTS, Rule, PATH_ACTIONS } = PermissionRule
export type Rule = PermissionRule.Rule
export type Ruleset = PermissionRule.Ruleset
export type Sourced = PermissionRule.Sourced
export const { evaluate, evaluateIn, evaluateInput, deniesEverything } = PermissionEvaluate

/** What to do when a request comes out `ask`: queue it for a person, or treat it as a deny. */
export type AskPolicy = "queue" | "deny"

export { Asked, BlockedError, CorrectedError, DeclinedError, Messages, NotFoundError, REPLIES, Replied, Request, Source } from "./request.js"
export type { AssertError, AssertInput, Reply, ReplyInput } from "./request.js"

export interface Interface {
  readonly assert: (input: AssertInput) => Effect.Effect<void, AssertError>
  readonly reply: (input: ReplyInput) => Effect.Effect<void, NotFoundError>
  readonly list: Effect.Effect<ReadonlyArray<Request>>
  readonly get: (requestID: string) => Effect.Effect<Request, NotFoundError>
  readonly forSession: (sessionID: string) => Effect.Effect<ReadonlyArray<Request>>
  /** Rejects every pending request (declined); the Location's finalizer. */
  readonly close: Effect.Effect<void>
  /** How resources are compared here: the Location's directory and its file system's case rule. */
  readonly context: PermissionEvaluate.Context
  /** The agent a run uses when none is named (a project's choice counts once it is trusted). */
  readonly defaultAgent: Effect.Effect<string>
  /**
   * Whether a request would be allowed without asking anyone: evaluation only, nothing asked or
   * recorded. Tools use it to decide what they may show, never to decide what they may do.
   */
  readonly allows: (request: Pick<AssertInput, "sessionID" | "action" | "resources">) => Effect.Effect<boolean>
  /**
   * `allows` for many resources one at a time, decided synchronously from the rules as they are
   * now (one snapshot): for filtering a stream (grep's lines of files the session may not read).
   */
  readonly allowsEach: (sessionID: string, action: string) => Effect.Effect<(resource: string) => boolean>
  /** The decision `assert` would start from, with the deciding rule per resource: evaluation only. */
  readonly decide: (request: Pick<AssertInput, "sessionID" | "action" | "resources">) => Effect.Effect<PermissionEvaluate.Decision>
  /** An agent's configured rules: built-in defaults, then config files, with trust applied. */
  readonly configured: (agent: string) => Effect.Effect<ReadonlyArray<Sourced>>
  /** The configured rules and session rules a session runs under. */
  readonly rulesFor: (sessionID: string) => Effect.Effect<{ readonly configured: ReadonlyArray<Sourced>; readonly session: ReadonlyArray<Sourced> }>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Permission") {}

export interface Options {
  readonly home: string
  readonly askPolicy?: AskPolicy
}

interface Pending {
  readonly request: Request
  readonly opaque: boolean
  readonly deferred: Deferred.Deferred<void, DeclinedError | CorrectedError>
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
      const pending = new Map<string, Pending>()
      const context: PermissionEvaluate.Context = {
        location: location.directory,
        caseInsensitive: process.platform === "win32",
        caseInsensitivePaths: location.caseInsensitive,
      }

      const configured = (agent: string) =>
        Effect.map(project.trusted, (trusted) => Agents.rules(config, agent, { home: options.home, trusted }))

      const rulesFor = Effect.fn("Permission.rulesFor")(function* (sessionID: string) {
        const session = yield* sessions.get(sessionID)
        // A session this Location does not know has no agent: it is denied everything.
        if (session === undefined) return { configured: Agents.denyAll(`unknown session ${sessionID}`), session: [] }
        return { configured: yield* configured(session.agent), session: session.rules }
      })

      type Rules = { readonly configured: ReadonlyArray<Sourced>; readonly session: ReadonlyArray<Sourced> }
      const evaluateWith = (request: Pick<Request, "action" | "resources">, rules: Rules, saved: ReadonlyArray<Sourced>, opaque = false) =>
        PermissionEvaluate.evaluateInput({ action: request.action, resources: request.resources, ...rules, saved, context, opaque })

      const decide = Effect.fnUntraced(function* (request: Pick<AssertInput, "sessionID" | "action" | "resources" | "opaque">) {
        const rules = yield* rulesFor(request.sessionID)
        const saved = yield* approvals.rules(project.id)
        return evaluateWith(request, rules, saved, request.opaque === true)
      })

      const record = (request: Pick<Request, "sessionID" | "action" | "resources">, effect: PermissionRule.Effect, decidedBy: AuditLog.DecidedBy, reply?: string) =>
        audit.append({ projectID: project.id, sessionID: request.sessionID, action: request.action, resources: request.resources, effect, decidedBy, ...(reply === undefined ? {} : { reply }) })

      /** Removes a pending entry and reports whether this caller was the one that removed it. */
      const take = (requestID: string) =>
        Effect.sync(() => {
          const entry = pending.get(requestID)
          pending.delete(requestID)
          return entry
        })

      /**
       * Answers a taken entry: publishes the reply, records it, and wakes the waiter. `by` says who
       * decided for the audit log: the person, a saved approval (released after an always), or
       * nobody (`rule`, with the note `closed` or `interrupted`).
       */
      const settle = (
        entry: Pending,
        reply: Reply,
        outcome: "proceed" | DeclinedError | CorrectedError,
        by: AuditLog.DecidedBy = "person",
        note: string = reply,
        store: Effect.Effect<void> = Effect.void,
      ) => {
        const wake = outcome === "proceed" ? Deferred.succeed(entry.deferred, undefined) : Deferred.fail(entry.deferred, outcome)
        // The entry is already taken: whatever happens to the bookkeeping, the waiter must wake.
        return bus.publish(Replied, { sessionID: entry.request.sessionID, requestID: entry.request.id, reply }).pipe(
          Effect.andThen(store),
          Effect.andThen(record(entry.request, reply === "reject" ? "deny" : "allow", by, note)),
          Effect.ensuring(wake),
          Effect.uninterruptible,
        )
      }

      const decline = (entry: Pending, by: AuditLog.DecidedBy = "person", note = "reject") =>
        settle(entry, "reject", new DeclinedError({ requestID: entry.request.id, action: entry.request.action }), by, note)

      /**
       * What "always" stores. Path patterns are made absolute: approvals belong to the whole
       * repository, and `config.json` approved in one subfolder must not approve another's.
       */
      const stored = (action: string, patterns: ReadonlyArray<string>) =>
        PermissionRule.isPathAction(action)
          ? patterns.map((pattern) => (PermissionRule.isAbsolute(pattern) ? pattern : path.join(location.directory, pattern)))
          : patterns

      const wait = Effect.fnUntraced(function* (input: AssertInput) {
        const save = stored(input.action, input.save ?? [])
        const request: Request = {
          id: Id.create("per"),
          sessionID: input.sessionID,
          action: input.action,
          resources: [...input.resources],
          save: [...save],
          allows: save.map((pattern) => Messages.saveAllows(input.action, pattern)),
          metadata: { ...input.metadata },
          source: input.source,
          createdAt: yield* Clock.currentTimeMillis,
        }
        const deferred = yield* Deferred.make<void, DeclinedError | CorrectedError>()
        // Only the wait is interruptible: an interruption can never fall between creating the
        // entry and installing what removes it.
        yield* Effect.uninterruptibleMask((restore) =>
          Effect.sync(() => pending.set(request.id, { request, deferred, opaque: input.opaque === true })).pipe(
            Effect.andThen(bus.publish(Asked, request)),
            Effect.andThen(restore(Deferred.await(deferred))),
            Effect.onInterrupt(() =>
              Effect.flatMap(take(request.id), (entry) =>
                entry === undefined ? Effect.void : bus.publish(Replied, { sessionID: request.sessionID, requestID: request.id, reply: "reject" }).pipe(
                  Effect.andThen(record(request, "deny", "rule", "interrupted")),
                ),
              ),
            ),
            Effect.ensuring(Effect.sync(() => pending.delete(request.id))),
          ),
        )
      })

      /** Set by `close`: the Location is going away, so no new request may start waiting. */
      const state = { closed: false }

      const assert = Effect.fn("Permission.assert")(function* (input: AssertInput) {
        const decision = yield* decide(input)
        const effect = decision.effect === "ask" && options.askPolicy === "deny" ? "deny" : decision.effect
        yield* record(input, effect, decision.decidedBy)
        if (effect === "allow") return
        if (effect === "deny") {
          const rules = decision.matched.map(({ resource, rule }) => ({ resource, rule: { action: rule.action, resource: rule.resource, effect: rule.effect } }))
          return yield* new BlockedError({ action: input.action, resources: [...input.resources], rules })
        }
        if (state.closed) return yield* new DeclinedError({ requestID: "", action: input.action })
        yield* wait(input)
      })

      /** After an "always": lets through the other pending requests that the saved patterns now allow. */
      const release = Effect.fnUntraced(function* () {
        const saved = yield* approvals.rules(project.id)
        const bySession = new Map<string, Rules>()
        for (const entry of [...pending.values()]) {
          const rules = bySession.get(entry.request.sessionID) ?? (yield* rulesFor(entry.request.sessionID))
          bySession.set(entry.request.sessionID, rules)
          if (evaluateWith(entry.request, rules, saved, entry.opaque).effect !== "allow") continue
          const taken = yield* take(entry.request.id)
          if (taken !== undefined) yield* settle(taken, "always", "proceed", "saved", "always")
        }
      })

      const reply = Effect.fn("Permission.reply")(function* (input: ReplyInput) {
        const entry = yield* take(input.requestID)
        if (entry === undefined) return yield* new NotFoundError({ requestID: input.requestID })
        const { request } = entry
        if (input.reply === "reject" && input.message !== undefined && input.message.trim() !== "") {
          return yield* settle(entry, "reject", new CorrectedError({ requestID: request.id, feedback: input.message }))
        }
        if (input.reply === "reject") {
          yield* decline(entry)
          const others = [...pending.values()].filter((other) => other.request.sessionID === request.sessionID)
          for (const other of others) {
            const taken = yield* take(other.request.id)
            if (taken !== undefined) yield* decline(taken)
          }
          return
        }
        const saving = input.reply === "always" && request.save.length > 0
        yield* settle(entry, input.reply, "proceed", "person", input.reply, saving ? Effect.asVoid(approvals.add(project.id, request.action, request.save)) : Effect.void)
        if (saving) yield* release()
        // Taking an entry and waking its waiter are one uninterruptible step: never one without the other.
      }, Effect.uninterruptible)

      const list = Effect.sync(() => [...pending.values()].map((entry) => entry.request))
      const get = (requestID: string) =>
        Effect.suspend(() => {
          const entry = pending.get(requestID)
          return entry === undefined ? Effect.fail(new NotFoundError({ requestID })) : Effect.succeed(entry.request)
        })
      const forSession = (sessionID: string) => Effect.map(list, (requests) => requests.filter((request) => request.sessionID === sessionID))
      const close = Effect.gen(function* () {
        state.closed = true
        for (const id of [...pending.keys()]) {
          const entry = yield* take(id)
          if (entry !== undefined) yield* decline(entry, "rule", "closed")
        }
      })

      yield* Effect.addFinalizer(() => close)
      const defaultAgent = Effect.map(project.trusted, (trusted) => Config.defaultAgent(config.files, trusted))
      const allows = (request: Pick<AssertInput, "sessionID" | "action" | "resources">) =>
        Effect.map(decide(request), (decision) => decision.effect === "allow")
      const allowsEach = Effect.fnUntraced(function* (sessionID: string, action: string) {
        const rules = yield* rulesFor(sessionID)
        const saved = yield* approvals.rules(project.id)
        const known = new Map<string, boolean>()
        return (resource: string) => {
          const hit = known.get(resource)
          if (hit !== undefined) return hit
          const allowed = evaluateWith({ action, resources: [resource] }, rules, saved).effect === "allow"
          known.set(resource, allowed)
          return allowed
        }
      })

      return Service.of({ assert, reply, list, get, forSession, close, context, defaultAgent, allows, allowsEach, decide, configured, rulesFor })
    }),
  )
