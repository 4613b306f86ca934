/**
 * Asks shared between the servers of one PostgreSQL (issue 21). An ask stays in the memory of the
 * process whose call waits on it (InteractionStore); with PostgreSQL it is also a row of
 * `shared_ask` from the moment it is pending, and `NOTIFY toolgate_ask` (ids only, never the
 * payload) tells every server. A reply given on any server claims the row with one conditional
 * UPDATE: of racing replies, on any servers, exactly one wins. The owner hears of it by the same
 * channel and settles its call as if the reply had been given to it (its bookkeeping: the audit
 * record, a saved approval). An owner is its listening connection (backend pid and start): when
 * the owner dies its connection ends, and a reply to its ask is refused (the ask is ended, and
 * the refusal recorded by the caller).
 *
 * Notifications are a hint, not the record: an owner that lost its connection looks for answers
 * to its asks when it is back, so a reply given during an outage still reaches its call.
 * This file is the service; interaction/shared-postgres.ts makes it (and loads the client).
 */
export * as SharedAsks from "./shared.js"

import { Context, type Effect, type Scope, type Stream } from "effect"
import type { Interaction } from "./interaction.js"

export type Outcome = "answered" | "not-found" | "already-answered" | "owner-gone"

/** An ask another server owns, as this one sees it. */
export interface Foreign {
  readonly pending: Interaction.Pending
  readonly owner: string
}

/** What this server hears of asks it does not own. */
export type Heard =
  | { readonly type: "asked"; readonly ask: Foreign }
  /** Answered (with the answer that won) or ended without one. */
  | { readonly type: "settled"; readonly id: string; readonly kind: Interaction.Kind; readonly sessionID: string; readonly answer?: Interaction.Answer }

export interface Interface {
  /**
   * Stores a pending ask of this server and tells the others; `answered` settles it when a reply is
   * given elsewhere, `ended` when another server ended it (it found this server unreachable:
   * the call must not wait for a reply no server can give any more).
   */
  readonly open: (pending: Interaction.Pending, answered: (answer: Interaction.Answer) => Effect.Effect<void>, ended: Effect.Effect<void>) => Effect.Effect<void>
  /** Claims the ask for `answer`; false when it was answered or ended already (anywhere). */
  readonly claim: (id: string, answer: Interaction.Answer) => Effect.Effect<boolean>
  /** Ends an ask of this server however it settled (it is no longer offered anywhere). */
  readonly close: (id: string) => Effect.Effect<void>
  /** A reply given here to an ask of another server. */
  readonly reply: (id: string, answer: Interaction.Answer) => Effect.Effect<Outcome>
  /** An ask another server owns, and whether it still waits on it; undefined when no server asked it. */
  readonly foreign: (id: string) => Effect.Effect<{ readonly ask: Foreign; readonly open: boolean } | undefined>
  /** What this server hears of the others' asks from now on. */
  readonly heard: Effect.Effect<Stream.Stream<Heard>, never, Scope.Scope>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/SharedAsks") {}

