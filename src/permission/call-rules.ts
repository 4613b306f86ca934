/**
 * The rules a call's catalog was built from, handed to that call's first permission decision, so
 * a served call reads its session, its project's trust and the policy once, not once for the
 * catalog and again for the decision (docs/decisions.md, "Issue 17: the cost of one served call").
 * The hand-over is one-shot and per call: the first decision for the call's session takes it, and
 * every later decision (after an ask was answered, a page fetched, a tool's second request) reads
 * the rules anew, as every decision did before. Nothing outlives the call, so a change made by
 * another process (trust, the policy, a session ended) is seen by the next call's catalog. Only a
 * session read for the call is handed over (`SessionTurn.SettleInput.current`): one a library
 * caller kept from earlier may have ended since.
 */
export * as PermissionCallRules from "./call-rules.js"

import { Context } from "effect"
import type { SessionRules } from "./permission.js"

/** Rules handed over by a call, taken at most once. */
export interface Handed {
  /** The rules of `sessionID` the first time it is asked for; undefined afterwards, and for another session. */
  readonly take: (sessionID: string) => SessionRules | undefined
}

/** The running call's hand-over; none outside a call (`SessionTurn.settle`) or when its catalog was given. */
export const Current = Context.Reference<Handed | undefined>("@toolgate/PermissionCallRules/Current", { defaultValue: () => undefined })

/**
 * The hand-over of `rules`, just read for `sessionID`.
 * @example Effect.provideService(tool, PermissionCallRules.Current, PermissionCallRules.hand(session.id, rules))
 */
export const hand = (sessionID: string, rules: SessionRules): Handed => {
  const left = [rules]
  return { take: (wanted) => (wanted === sessionID ? left.pop() : undefined) }
}
