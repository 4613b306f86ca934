/**
 * Business questions put to a person. Not a permission: an answer is written back to the model's
 * context and never authorizes anything. `ask` adds a pending question to the interaction store
 * (interaction/store.ts, which owns the lifecycle), publishes `question.asked` and waits; `reply`
 * and `dismiss` (or any answerer) settle it, and every settlement, an interrupted wait included,
 * publishes `question.replied` once. A reply must hold one answer list per question (at most one
 * answer for a single-choice question); otherwise it fails with `InvalidReplyError` and the
 * question stays pending. Of concurrent replies exactly one wins (the store checks and takes in
 * one step). `reply`, `dismiss`, `list`, `get` and `forSession` are the question view of the store.
 */
export * as Question from "./question.js"

import { Clock, Context, Effect, Layer, Schema } from "effect"
import { Bus } from "./bus.js"
import type { Interaction } from "./interaction/interaction.js"
import { InteractionStore } from "./interaction/store.js"
import { Id } from "./storage/id.js"
import { Tracing } from "./tracing.js"

/** The longest header, in characters: headers are shown as short chips or prefixes. */
export const MAX_HEADER_LENGTH = 30

export const Messages = {
  dismissed: "The user dismissed the question",
  /** A question that ended without an answer: the Location closed, the session ended. */
  unanswered: (reason: string) => `The question ended unanswered: ${reason}`,
  notFound: (requestID: string) => `No pending question with id ${requestID}`,
  wrongCount: (questions: number, answers: number) => `expected ${questions} answer lists (one per question), got ${answers}`,
  notMultiple: (index: number, answers: number) => `question ${index + 1} takes one answer, got ${answers}`,
  invalidReply: (requestID: string, detail: string) => `Invalid reply to question ${requestID}: ${detail}`,
} as const

export const Option = Schema.Struct({
  label: Schema.String.annotate({ description: "The option as shown to the user (1–5 words)" }),
  description: Schema.String.annotate({ description: "What choosing this option means" }),
})
export type Option = typeof Option.Type

export const Info = Schema.Struct({
  question: Schema.String.annotate({ description: "The complete question" }),
  header: Schema.String.check(Schema.isMaxLength(MAX_HEADER_LENGTH)).annotate({
    description: `A very short label for the question (at most ${MAX_HEADER_LENGTH} characters)`,
  }),
  options: Schema.Array(Option).check(Schema.isMinLength(1)).annotate({ description: "The choices offered (at least one)" }),
  multiple: Schema.optional(Schema.Boolean).annotate({ description: "Whether several options may be chosen. Default false" }),
})
export type Info = typeof Info.Type

export const Source = Schema.Struct({ toolCallID: Schema.String, messageID: Schema.String })
export type Source = typeof Source.Type

/** A pending question as a person sees it. */
export const Request = Schema.Struct({
  id: Schema.String,
  sessionID: Schema.String,
  questions: Schema.Array(Info),
  source: Source,
}).annotate({ identifier: "Question.Request" })
export type Request = typeof Request.Type

/** One list of answers per question, in order; an empty list means unanswered. */
export const Answers = Schema.Array(Schema.Array(Schema.String))
export type Answers = typeof Answers.Type

/** How the interaction store takes an answer to a question: the answer lists, or a dismissal. */
export type Answer = { readonly reply: "answered"; readonly answers: Answers } | { readonly reply: "dismissed"; readonly message?: string }

export const Asked = Bus.event("question.asked", Request)
/** How a question was settled: answered, or dismissed (with the person's message, if any; an interrupted wait has none). */
export const Replied = Bus.event(
  "question.replied",
  Schema.Union([
    Schema.Struct({ sessionID: Schema.String, requestID: Schema.String, reply: Schema.Literal("answered"), answers: Answers }),
    Schema.Struct({ sessionID: Schema.String, requestID: Schema.String, reply: Schema.Literal("dismissed"), message: Schema.optionalKey(Schema.String) }),
  ]),
)
export type Replied = typeof Replied.payload.Type

/** Dismissed without a message, or ended unanswered (`reason`): like a permission decline, it stops the turn. */
export class DismissedError extends Schema.TaggedError<DismissedError>()("Question.DismissedError", {
  requestID: Schema.String,
  reason: Schema.optionalKey(Schema.String),
}) {
  override get message() {
    return this.reason === undefined ? Messages.dismissed : Messages.unanswered(this.reason)
  }
}

/** Dismissed with a message for the model; the tool turns it into a `Tool.Failure` with that message. */
export class CorrectedError extends Schema.TaggedError<CorrectedError>()("Question.CorrectedError", {
  requestID: Schema.String,
  feedback: Schema.String,
}) {
  override get message() {
    return this.feedback
  }
}

export class NotFoundError extends Schema.TaggedError<NotFoundError>()("Question.NotFoundError", { requestID: Schema.String }) {
  override get message() {
    return Messages.notFound(this.requestID)
  }
}

export class InvalidReplyError extends Schema.TaggedError<InvalidReplyError>()("Question.InvalidReplyError", {
  requestID: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.invalidReply(this.requestID, this.detail)
  }
}

export type AskError = DismissedError | CorrectedError

export interface AskInput {
  readonly sessionID: string
  readonly questions: ReadonlyArray<Info>
  readonly source: Source
}

export interface ReplyInput {
  readonly requestID: string
  readonly answers: Answers
}

export interface DismissInput {
  readonly requestID: string
  /** Said to the model instead of an answer; without one (or blank) the turn stops. */
  readonly message?: string
}

export interface Interface {
  /** Asks and waits; succeeds with one answer list per question. */
  readonly ask: (input: AskInput) => Effect.Effect<Answers, AskError>
  readonly reply: (input: ReplyInput) => Effect.Effect<void, NotFoundError | InvalidReplyError>
  readonly dismiss: (input: DismissInput) => Effect.Effect<void, NotFoundError>
  readonly list: Effect.Effect<ReadonlyArray<Request>>
  /** One pending question. */
  readonly get: (requestID: string) => Effect.Effect<Request, NotFoundError>
  /** The pending questions of one session, oldest first. */
  readonly forSession: (sessionID: string) => Effect.Effect<ReadonlyArray<Request>>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Question") {}

/** Why `answers` cannot answer `questions`, or undefined when it can. */
const problem = (questions: ReadonlyArray<Info>, answers: Answers): string | undefined => {
  if (answers.length !== questions.length) return Messages.wrongCount(questions.length, answers.length)
  const index = questions.findIndex((question, i) => question.multiple !== true && (answers[i]?.length ?? 0) > 1)
  return index === -1 ? undefined : Messages.notMultiple(index, answers[index]?.length ?? 0)
}

/** The non-blank message of a dismissal, if any. */
const feedbackOf = (message: string | undefined) => {
  const feedback = message?.trim() ?? ""
  return feedback === "" ? undefined : feedback
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const store = yield* InteractionStore.Service

    /** Publishes how a question was settled; an interrupted or ended one counts as dismissed without a message. */
    const settled = (request: Request) => (settlement: Interaction.Settlement<"question">) => {
      const { id, sessionID } = request
      const answer: Answer = settlement.type === "ended" ? { reply: "dismissed" } : settlement.answer
      if (answer.reply === "answered") return bus.publish(Replied, { sessionID, requestID: id, reply: "answered", answers: answer.answers.map((list) => [...list]) })
      const feedback = feedbackOf(answer.message)
      return bus.publish(Replied, { sessionID, requestID: id, reply: "dismissed", ...(feedback === undefined ? {} : { message: feedback }) })
    }

    const check = (request: Request) => (answer: Answer) => (answer.reply === "answered" ? problem(request.questions, answer.answers) : undefined)

    const ask = Tracing.fn("Question.ask")(function* (input: AskInput) {
      const request: Request = { id: Id.create("que"), sessionID: input.sessionID, questions: [...input.questions], source: input.source }
      const settlement = yield* store.ask({
        kind: "question",
        id: request.id,
        sessionID: request.sessionID,
        payload: request,
        createdAt: yield* Clock.currentTimeMillis,
        check: check(request),
        announce: bus.publish(Asked, request),
        settled: settled(request),
      })
      if (settlement.type === "ended") return yield* new DismissedError({ requestID: request.id, reason: settlement.reason })
      const { answer } = settlement
      if (answer.reply === "answered") return answer.answers.map((list) => [...list])
      const feedback = feedbackOf(answer.message)
      if (feedback === undefined) return yield* new DismissedError({ requestID: request.id })
      return yield* new CorrectedError({ requestID: request.id, feedback })
    })

    /** The store's refusals, in this view's terms: an id not pending here is not found. */
    const notFound = (requestID: string) => () => Effect.fail(new NotFoundError({ requestID }))

    const reply = Tracing.fn("Question.reply")(function* (input: ReplyInput) {
      yield* store.answer(input.requestID, { reply: "answered", answers: input.answers }).pipe(
        Effect.catchTags({
          "Interaction.NotFoundError": notFound(input.requestID),
          "Interaction.AlreadyAnsweredError": notFound(input.requestID),
          "Interaction.InvalidAnswerError": (error) =>
            // Another kind's id is not a question here; a question's own refusal says why.
            Effect.flatMap(Effect.option(get(input.requestID)), (found) =>
              Effect.fail(found._tag === "None" ? new NotFoundError({ requestID: input.requestID }) : new InvalidReplyError({ requestID: input.requestID, detail: error.detail })),
            ),
        }),
      )
    })

    const dismiss = Tracing.fn("Question.dismiss")(function* (input: DismissInput) {
      yield* store.answer(input.requestID, { reply: "dismissed", ...(input.message === undefined ? {} : { message: input.message }) }).pipe(
        Effect.catchTags({
          "Interaction.NotFoundError": notFound(input.requestID),
          "Interaction.AlreadyAnsweredError": notFound(input.requestID),
          "Interaction.InvalidAnswerError": notFound(input.requestID),
        }),
      )
    })

    const questionsOf = (pending: ReadonlyArray<Interaction.Pending>) => pending.flatMap((entry) => (entry.kind === "question" ? [entry.payload] : []))
    const list = Effect.map(store.list, questionsOf)
    const get = (requestID: string): Effect.Effect<Request, NotFoundError> =>
      Effect.flatMap(Effect.option(store.get(requestID)), (found) =>
        found._tag === "Some" && found.value.kind === "question" ? Effect.succeed(found.value.payload) : Effect.fail(new NotFoundError({ requestID })),
      )
    const forSession = (sessionID: string) => Effect.map(store.forSession(sessionID), questionsOf)

    return Service.of({ ask, reply, dismiss, list, get, forSession })
  }),
)

export const defaultLayer = layer
