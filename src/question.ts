/**
 * Business questions put to a person. Not a permission: an answer is written back to the model's
 * context and never authorizes anything. `ask` creates a pending question (uninterruptibly),
 * publishes `question.asked` and waits on a Deferred; `reply` and `dismiss` settle it, and every
 * settlement, an interrupted wait included, publishes `question.replied` once. A reply must hold
 * one answer list per question (at most one answer for a single-choice question); otherwise it
 * fails with `InvalidReplyError` and the question stays pending. The check and the removal are
 * one synchronous step, so of two concurrent replies exactly one wins.
 */
export * as Question from "./question.js"

import { Context, Deferred, Effect, Layer, Schema } from "effect"
import { Bus } from "./bus.js"
import { Id } from "./storage/id.js"

/** The longest header, in characters: headers are shown as short chips or prefixes. */
export const MAX_HEADER_LENGTH = 30

export const Messages = {
  dismissed: "The user dismissed the question",
  closed: (reason: string) => `The question was dismissed: ${reason}`,
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

/** Dismissed without a message: like a permission decline, it stops the turn. */
export class DismissedError extends Schema.TaggedError<DismissedError>()("Question.DismissedError", {
  requestID: Schema.String,
  /** Why nobody answered, when it was not a person (the Location closed). */
  reason: Schema.optional(Schema.String),
}) {
  override get message() {
    return this.reason === undefined ? Messages.dismissed : Messages.closed(this.reason)
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
  /** Dismisses every pending question and refuses new ones; the Location's finalizer. */
  readonly close: Effect.Effect<void>
  /** `close`, telling the waiting calls why (`the working directory … was closed`). */
  readonly closeWith: (reason: string) => Effect.Effect<void>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Question") {}

interface Pending {
  readonly request: Request
  readonly deferred: Deferred.Deferred<Answers, AskError>
}

/** Why `answers` cannot answer `questions`, or undefined when it can. */
const problem = (questions: ReadonlyArray<Info>, answers: Answers): string | undefined => {
  if (answers.length !== questions.length) return Messages.wrongCount(questions.length, answers.length)
  const index = questions.findIndex((question, i) => question.multiple !== true && (answers[i]?.length ?? 0) > 1)
  return index === -1 ? undefined : Messages.notMultiple(index, answers[index]?.length ?? 0)
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const pending = new Map<string, Pending>()
    /** Set by the finalizer: the Location is going away, so no new question may start waiting. */
    const state = { closed: false }

    const take = (requestID: string) =>
      Effect.sync(() => {
        const entry = pending.get(requestID)
        pending.delete(requestID)
        return entry
      })

    /** Publishes how a taken entry was settled and wakes its waiter, whatever happens to the publish. */
    const settle = (entry: Pending, replied: Replied, outcome: Effect.Effect<boolean>) =>
      bus.publish(Replied, replied).pipe(Effect.ensuring(outcome), Effect.uninterruptible)

    const dismissEntry = (entry: Pending, message?: string, reason?: string) => {
      const { id, sessionID } = entry.request
      const feedback = message?.trim() ?? ""
      const dismissed = new DismissedError({ requestID: id, ...(reason === undefined ? {} : { reason }) })
      if (feedback === "") return settle(entry, { sessionID, requestID: id, reply: "dismissed" }, Deferred.fail(entry.deferred, dismissed))
      return settle(
        entry,
        { sessionID, requestID: id, reply: "dismissed", message: feedback },
        Deferred.fail(entry.deferred, new CorrectedError({ requestID: id, feedback })),
      )
    }

    const ask = Effect.fn("Question.ask")(function* (input: AskInput) {
      const request: Request = { id: Id.create("que"), sessionID: input.sessionID, questions: [...input.questions], source: input.source }
      if (state.closed) return yield* new DismissedError({ requestID: request.id })
      const deferred = yield* Deferred.make<Answers, AskError>()
      // Only the wait is interruptible: an interruption can never fall between creating the
      // entry and installing what removes it.
      return yield* Effect.uninterruptibleMask((restore) =>
        Effect.sync(() => pending.set(request.id, { request, deferred })).pipe(
          Effect.andThen(bus.publish(Asked, request)),
          Effect.andThen(restore(Deferred.await(deferred))),
          Effect.onInterrupt(() =>
            Effect.flatMap(take(request.id), (entry) =>
              entry === undefined ? Effect.void : bus.publish(Replied, { sessionID: request.sessionID, requestID: request.id, reply: "dismissed" }),
            ),
          ),
          Effect.ensuring(Effect.sync(() => pending.delete(request.id))),
        ),
      )
    })

    // Taking an entry and waking its waiter are one uninterruptible step: never one without the other.
    const reply = Effect.fn("Question.reply")(function* (input: ReplyInput) {
      // Checked and taken in one synchronous step: a concurrent reply finds the entry gone.
      const checked = yield* Effect.sync(() => {
        const entry = pending.get(input.requestID)
        if (entry === undefined) return new NotFoundError({ requestID: input.requestID })
        const detail = problem(entry.request.questions, input.answers)
        if (detail !== undefined) return new InvalidReplyError({ requestID: input.requestID, detail })
        pending.delete(input.requestID)
        return entry
      })
      if (checked instanceof NotFoundError || checked instanceof InvalidReplyError) return yield* checked
      const answers = input.answers.map((list) => [...list])
      const { id, sessionID } = checked.request
      yield* settle(checked, { sessionID, requestID: id, reply: "answered", answers }, Deferred.succeed(checked.deferred, answers))
    }, Effect.uninterruptible)

    const dismiss = Effect.fn("Question.dismiss")(function* (input: DismissInput) {
      const entry = yield* take(input.requestID)
      if (entry === undefined) return yield* new NotFoundError({ requestID: input.requestID })
      yield* dismissEntry(entry, input.message)
    }, Effect.uninterruptible)

    const list = Effect.sync(() => [...pending.values()].map((entry) => entry.request))

    const closeWith = (reason?: string) =>
      Effect.gen(function* () {
        state.closed = true
        for (const id of [...pending.keys()]) {
          const entry = yield* take(id)
          if (entry !== undefined) yield* dismissEntry(entry, undefined, reason)
        }
      })
    const close = closeWith()
    yield* Effect.addFinalizer(() => close)
    const get = (requestID: string) =>
      Effect.suspend(() => {
        const entry = pending.get(requestID)
        return entry === undefined ? Effect.fail(new NotFoundError({ requestID })) : Effect.succeed(entry.request)
      })
    const forSession = (sessionID: string) => Effect.map(list, (requests) => requests.filter((request) => request.sessionID === sessionID))

    return Service.of({ ask, reply, dismiss, list, get, forSession, close, closeWith })
  }),
)

export const defaultLayer = layer
