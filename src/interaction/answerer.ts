/**
 * Who answers what a session is asked. An answerer is attached to one session (or to every
 * session of the Location) with `InteractionStore.attach`; it sees each pending interaction of
 * those sessions, one at a time in ask order, and returns an answer or `undefined` to leave it to
 * others. Several answerers may watch one session: the store takes the first valid answer and the
 * others are told it was already answered. Policies answer by themselves: `once`, `always` (saved
 * for the project), `reject`, and `deny`, which also makes asks of its sessions fail at once as
 * denies instead of waiting; an ask of the organization's policy they all reject. Questions have no automatic answer: every policy dismisses them.
 */
export * as Answerer from "./answerer.js"

import { Effect } from "effect"
import type { PermissionRequest } from "../permission/request.js"
import type { Question } from "../question.js"
import type { Interaction } from "./interaction.js"

export const POLICIES = ["once", "always", "reject", "deny"] as const
export type Policy = (typeof POLICIES)[number]

export interface Answerer {
  /** Asks of the watched sessions are denies at once, without waiting (the `deny` policy). */
  readonly denies?: boolean
  /** One pending interaction: its answer, or `undefined` to leave it pending for someone else. */
  readonly handle: (pending: Interaction.Pending) => Effect.Effect<Interaction.Answer | undefined>
}

export interface Handlers {
  readonly permission?: (request: PermissionRequest.Request) => Effect.Effect<PermissionRequest.Answer | undefined>
  readonly question?: (request: Question.Request) => Effect.Effect<Question.Answer | undefined>
}

/**
 * An answerer from one handler per kind; a kind without a handler is left to others.
 * @example Answerer.make({ permission: (request) => Effect.succeed({ reply: "once" }) })
 */
export const make = (handlers: Handlers, options: { readonly denies?: boolean } = {}): Answerer => ({
  ...(options.denies === true ? { denies: true } : {}),
  handle: (pending) => {
    if (pending.kind === "permission") return handlers.permission?.(pending.payload) ?? Effect.succeed(undefined)
    return handlers.question?.(pending.payload) ?? Effect.succeed(undefined)
  },
})

const ANSWERS: Readonly<Record<Policy, PermissionRequest.Answer>> = {
  once: { reply: "once" },
  always: { reply: "always", scope: "project" },
  reject: { reply: "reject" },
  deny: { reply: "reject" },
}

/**
 * An ask of the organization's policy is for a person: no policy lets it through, each rejects it.
 * @example yield* store.attach(Answerer.policy("reject"), session.id)
 */
export const policy = (policy: Policy): Answerer =>
  make(
    { permission: (request) => Effect.succeed(request.byPolicy === true ? ANSWERS.reject : ANSWERS[policy]), question: () => Effect.succeed({ reply: "dismissed" }) },
    { denies: policy === "deny" },
  )
