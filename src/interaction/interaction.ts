/**
 * The shapes of the interaction store (store.ts): everything a person is asked in a session is a
 * pending interaction of one kind, a permission request or a business question, answered with
 * that kind's answer. Answers are told apart by their `reply` (`once`, `always`, `reject` for
 * permissions; `answered`, `dismissed` for questions), so an answer of the wrong kind is refused
 * before anything is settled. A settlement is what ended a pending interaction: an answer, a
 * follow-up of another answer (`released`), or its end without one (interrupted, the session
 * ended, the store closed), with a reason a person can read.
 */
export * as Interaction from "./interaction.js"

import { Schema } from "effect"
import type { PermissionRequest } from "../permission/request.js"
import type { Question } from "../question.js"

export const KINDS = ["permission", "question"] as const
export type Kind = (typeof KINDS)[number]

/** Why an interaction ended without an answer: shown to whoever waited on it. */
export const Reasons = {
  interrupted: "the call was interrupted",
  sessionEnded: "the session ended",
  locationClosed: "the Location closed",
  serverStopped: "the server stopped",
} as const

export const Messages = {
  notFound: (id: string) => `No pending interaction with id ${id}`,
  alreadyAnswered: (id: string) => `Interaction ${id} was already answered`,
  invalidAnswer: (id: string, detail: string) => `Invalid answer to ${id}: ${detail}`,
  wrongKind: (kind: Kind, reply: string) => `a ${kind} cannot be answered with ${reply}`,
} as const

/** What an interaction carries, by kind. */
export interface Payloads {
  readonly permission: PermissionRequest.Request
  readonly question: Question.Request
}

/** How an interaction is answered, by kind. */
export interface Answers {
  readonly permission: PermissionRequest.Answer
  readonly question: Question.Answer
}

/** A pending interaction as every answerer and listing sees it. */
export type Pending<K extends Kind = Kind> = {
  readonly [k in K]: { readonly id: string; readonly sessionID: string; readonly kind: k; readonly payload: Payloads[k]; readonly createdAt: number }
}[K]

export type Answer<K extends Kind = Kind> = Answers[K]

/** What ended an interaction without an answer. */
export type EndCause = "interrupted" | "session" | "closed"

export type Settlement<K extends Kind = Kind> =
  /** Answered by an answerer (a person, a policy, a remote client). */
  | { readonly type: "answered"; readonly answer: Answers[K] }
  /** Settled by its own kind as a consequence of another answer (a reject declining the session, an "always" letting others through). */
  | { readonly type: "released"; readonly answer: Answers[K] }
  | { readonly type: "ended"; readonly cause: EndCause; readonly reason: string }

const QUESTION_REPLIES: ReadonlyArray<string> = ["answered", "dismissed"]

/** The kind an answer belongs to, read from its reply. */
export const kindOf = (answer: Answer): Kind => (QUESTION_REPLIES.includes(answer.reply) ? "question" : "permission")

/** What an answerer that cannot give a valid answer gives instead: it fails closed. */
export const refusal = (kind: Kind): Answer => (kind === "permission" ? { reply: "reject" } : { reply: "dismissed" })

export class NotFoundError extends Schema.TaggedError<NotFoundError>()("Interaction.NotFoundError", { id: Schema.String }) {
  override get message() {
    return Messages.notFound(this.id)
  }
}

/** The interaction was settled before this answer arrived: the first valid answer won. */
export class AlreadyAnsweredError extends Schema.TaggedError<AlreadyAnsweredError>()("Interaction.AlreadyAnsweredError", { id: Schema.String }) {
  override get message() {
    return Messages.alreadyAnswered(this.id)
  }
}

/** The answer cannot settle this interaction (wrong kind, wrong number of answers); it stays pending. */
export class InvalidAnswerError extends Schema.TaggedError<InvalidAnswerError>()("Interaction.InvalidAnswerError", { id: Schema.String, detail: Schema.String }) {
  override get message() {
    return Messages.invalidAnswer(this.id, this.detail)
  }
}

export type AnswerError = NotFoundError | AlreadyAnsweredError | InvalidAnswerError
