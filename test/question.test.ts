import { describe, expect, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Fiber, Layer, Queue, Scheduler, Scope, Stream } from "effect"
import { Bus } from "../src/bus.js"
import { Interaction } from "../src/interaction/interaction.js"
import { InteractionStore } from "../src/interaction/store.js"
import { Question } from "../src/question.js"
import { DATABASE, FEATURES } from "./lib/questions.js"

const layer = Question.layer.pipe(Layer.provideMerge(InteractionStore.layer), Layer.provideMerge(Bus.layer))

const source = { toolCallID: "call_q", messageID: "msg_q" }

/** Every event of `definition` from now on, in a queue the test takes from. */
const events = <Type extends string, Payload>(definition: Bus.Definition<Type, Payload>) =>
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const queue = yield* Queue.unbounded<Payload>()
    yield* Stream.runForEach(yield* bus.on(definition), (event) => Queue.offer(queue, event.payload)).pipe(Effect.forkScoped)
    return queue
  })

const ask = (questions: ReadonlyArray<Question.Info> = [DATABASE, FEATURES], sessionID = "ses_q") =>
  Effect.flatMap(Question.Service, (service) => service.ask({ sessionID, questions, source }))

/** A question asked in a forked waiter and seen pending, with the replies from then on. */
const pending = (questions?: ReadonlyArray<Question.Info>) =>
  Effect.gen(function* () {
    const service = yield* Question.Service
    const asked = yield* events(Question.Asked)
    const replied = yield* events(Question.Replied)
    const waiter = yield* Effect.forkChild(ask(questions))
    const request = yield* Queue.take(asked)
    return { service, replied, waiter, request }
  })

describe("Question", () => {
  it.live("publishes question.asked, lists the question while it waits, and returns the answers of a reply", () =>
    Effect.gen(function* () {
      const { service, replied, waiter, request } = yield* pending()
      expect(request).toEqual({ id: request.id, sessionID: "ses_q", questions: [DATABASE, FEATURES], source })
      expect(request.id).toMatch(/^que_[0-9a-f]{16}[0-9A-Za-z]{10}$/)
      expect(yield* service.list).toEqual([request])
      yield* service.reply({ requestID: request.id, answers: [["Postgres"], ["Search", "a dark mode"]] })
      expect(yield* Fiber.join(waiter)).toEqual([["Postgres"], ["Search", "a dark mode"]])
      expect(yield* Queue.take(replied)).toEqual({ sessionID: "ses_q", requestID: request.id, reply: "answered", answers: [["Postgres"], ["Search", "a dark mode"]] })
      expect(yield* service.list).toEqual([])
    }).pipe(Effect.provide(layer)))

  it.live("fails the waiter with DismissedError on a dismissal without a message, a blank one included", () =>
    Effect.gen(function* () {
      const service = yield* Question.Service
      const asked = yield* events(Question.Asked)
      const replied = yield* events(Question.Replied)
      for (const message of [undefined, "  "]) {
        const waiter = yield* Effect.forkChild(ask())
        const request = yield* Queue.take(asked)
        yield* service.dismiss({ requestID: request.id, ...(message === undefined ? {} : { message }) })
        const error = yield* Fiber.join(waiter).pipe(Effect.flip)
        expect(error).toEqual(new Question.DismissedError({ requestID: request.id }))
        expect(error.message).toBe("The user dismissed the question")
        expect(yield* Queue.take(replied)).toEqual({ sessionID: "ses_q", requestID: request.id, reply: "dismissed" })
      }
      expect(yield* service.list).toEqual([])
    }).pipe(Effect.provide(layer)))

  it.live("fails the waiter with CorrectedError carrying the message of a dismissal with one", () =>
    Effect.gen(function* () {
      const { service, replied, waiter, request } = yield* pending()
      yield* service.dismiss({ requestID: request.id, message: "Use whatever the other services use" })
      const error = yield* Fiber.join(waiter).pipe(Effect.flip)
      expect(error).toEqual(new Question.CorrectedError({ requestID: request.id, feedback: "Use whatever the other services use" }))
      expect(error.message).toBe("Use whatever the other services use")
      expect(yield* Queue.take(replied)).toEqual({ sessionID: "ses_q", requestID: request.id, reply: "dismissed", message: "Use whatever the other services use" })
    }).pipe(Effect.provide(layer)))

  it.live("refuses a reply with the wrong number of answer lists and leaves the question pending", () =>
    Effect.gen(function* () {
      const { service, waiter, request } = yield* pending()
      for (const answers of [[["Postgres"]], [["Postgres"], [], []], []]) {
        const error = yield* service.reply({ requestID: request.id, answers }).pipe(Effect.flip)
        expect(error).toEqual(new Question.InvalidReplyError({ requestID: request.id, detail: Question.Messages.wrongCount(2, answers.length) }))
      }
      const error = yield* service.reply({ requestID: request.id, answers: [["Postgres"]] }).pipe(Effect.flip)
      expect(error.message).toBe(`Invalid reply to question ${request.id}: expected 2 answer lists (one per question), got 1`)
      expect(yield* service.list).toEqual([request])
      yield* service.reply({ requestID: request.id, answers: [[], ["Export"]] })
      expect(yield* Fiber.join(waiter)).toEqual([[], ["Export"]])
    }).pipe(Effect.provide(layer)))

  it.live("refuses several answers to a single-choice question, and accepts them where multiple is true", () =>
    Effect.gen(function* () {
      const { service, waiter, request } = yield* pending()
      const error = yield* service.reply({ requestID: request.id, answers: [["Postgres", "SQLite"], []] }).pipe(Effect.flip)
      expect(error.message).toBe(`Invalid reply to question ${request.id}: question 1 takes one answer, got 2`)
      expect(yield* service.list).toEqual([request])
      yield* service.reply({ requestID: request.id, answers: [["Something else entirely"], ["Search", "Export", "Import"]] })
      expect(yield* Fiber.join(waiter)).toEqual([["Something else entirely"], ["Search", "Export", "Import"]])
    }).pipe(Effect.provide(layer)))

  it.live("gets one pending question, and a session's pending questions", () =>
    Effect.gen(function* () {
      const service = yield* Question.Service
      const asked = yield* events(Question.Asked)
      const first = yield* Effect.forkChild(ask([DATABASE], "ses_a"))
      const second = yield* Effect.forkChild(ask([FEATURES], "ses_b"))
      const both = [yield* Queue.take(asked), yield* Queue.take(asked)]
      const [a, b] = ["ses_a", "ses_b"].map((id) => both.find((request) => request.sessionID === id) as Question.Request)
      if (a === undefined || b === undefined) throw new Error("both questions are asked")
      expect(yield* service.get(a.id)).toEqual(a)
      expect((yield* service.forSession("ses_b")).map((request) => request.id)).toEqual([b.id])
      expect(yield* service.forSession("ses_none")).toEqual([])
      yield* service.dismiss({ requestID: a.id })
      expect(yield* service.get(a.id).pipe(Effect.flip)).toBeInstanceOf(Question.NotFoundError)
      yield* service.dismiss({ requestID: b.id })
      yield* Fiber.await(first)
      yield* Fiber.await(second)
    }).pipe(Effect.provide(layer)))

  it.live("answers NotFoundError for an unknown or already settled question", () =>
    Effect.gen(function* () {
      const service = yield* Question.Service
      const asked = yield* events(Question.Asked)
      expect(yield* service.reply({ requestID: "que_nope", answers: [] }).pipe(Effect.flip)).toEqual(new Question.NotFoundError({ requestID: "que_nope" }))
      expect(yield* service.dismiss({ requestID: "que_nope" }).pipe(Effect.flip)).toEqual(new Question.NotFoundError({ requestID: "que_nope" }))
      const waiter = yield* Effect.forkChild(ask([DATABASE]))
      const request = yield* Queue.take(asked)
      yield* service.reply({ requestID: request.id, answers: [["SQLite"]] })
      yield* Fiber.join(waiter)
      const error = yield* service.dismiss({ requestID: request.id }).pipe(Effect.flip)
      expect(error.message).toBe(`No pending question with id ${request.id}`)
    }).pipe(Effect.provide(layer)))

  it.live("lets exactly one of several concurrent replies and dismissals win", () =>
    Effect.gen(function* () {
      const service = yield* Question.Service
      const asked = yield* events(Question.Asked)
      const replied = yield* events(Question.Replied)
      const waiter = yield* Effect.forkChild(ask([DATABASE]))
      const request = yield* Queue.take(asked)
      const attempts = [
        service.reply({ requestID: request.id, answers: [["Postgres"]] }),
        service.reply({ requestID: request.id, answers: [["SQLite"]] }),
        service.dismiss({ requestID: request.id }),
        service.dismiss({ requestID: request.id, message: "never mind" }),
      ]
      /** What the waiter ends with when the attempt at the same index wins. */
      const outcomes = [
        Exit.succeed([["Postgres"]]),
        Exit.succeed([["SQLite"]]),
        Exit.fail(new Question.DismissedError({ requestID: request.id })),
        Exit.fail(new Question.CorrectedError({ requestID: request.id, feedback: "never mind" })),
      ]
      const results = yield* Effect.all(attempts.map((attempt) => Effect.exit(attempt)), { concurrency: "unbounded" })
      const winner = results.findIndex(Exit.isSuccess)
      expect(results.filter(Exit.isSuccess)).toHaveLength(1)
      const losers = results.flatMap((exit) => (Exit.isFailure(exit) ? [Cause.findErrorOption(exit.cause)] : []))
      expect(losers.map((failure) => (failure._tag === "Some" ? failure.value : failure))).toEqual([1, 2, 3].map(() => new Question.NotFoundError({ requestID: request.id })))
      expect(yield* Effect.exit(Fiber.join(waiter))).toEqual(outcomes[winner])
      expect(yield* Queue.take(replied)).toMatchObject({ requestID: request.id, reply: winner < 2 ? "answered" : "dismissed" })
      expect(yield* Queue.size(replied)).toBe(0)
    }).pipe(Effect.provide(layer)))

  it.live("removes the pending question and publishes a dismissal when the waiter is interrupted", () =>
    Effect.gen(function* () {
      const { service, replied, waiter, request } = yield* pending()
      yield* Fiber.interrupt(waiter)
      const exit = yield* Fiber.await(waiter)
      expect(Exit.isFailure(exit) && Cause.hasInterrupts(exit.cause)).toBe(true)
      expect(yield* service.list).toEqual([])
      expect(yield* Queue.take(replied)).toEqual({ sessionID: "ses_q", requestID: request.id, reply: "dismissed" })
      expect(yield* service.reply({ requestID: request.id, answers: [["Postgres"], []] }).pipe(Effect.flip)).toBeInstanceOf(Question.NotFoundError)
    }).pipe(Effect.provide(layer)))

  it.live("leaves nothing pending and no waiter hanging when interrupted at any step, however often the fiber yields", () =>
    Effect.gen(function* () {
      const service = yield* Question.Service
      for (let round = 0; round < 200; round++) {
        // Interrupt the ask after a varying number of yields; then a reply or dismissal interrupted mid-way.
        const waiter = yield* Effect.forkChild(ask())
        for (let step = 0; step < round % 7; step++) yield* Effect.yieldNow
        yield* Fiber.interrupt(waiter)
        expect(yield* service.list).toEqual([])
        const second = yield* Effect.forkChild(ask())
        const pending = yield* Effect.repeat(service.list, { until: (list) => list.length > 0 })
        const id = pending[0]?.id as string
        const settler = yield* Effect.forkChild(round % 2 === 0 ? service.reply({ requestID: id, answers: [["Postgres"], []] }) : service.dismiss({ requestID: id }))
        for (let step = 0; step < round % 5; step++) yield* Effect.yieldNow
        yield* Fiber.interrupt(settler)
        // Either the settle happened in full (the waiter wakes) or not at all (it is still pending).
        if ((yield* service.list).length > 0) yield* service.dismiss({ requestID: id })
        const exit = yield* Fiber.await(second)
        expect(Exit.isExit(exit)).toBe(true)
        expect(yield* service.list).toEqual([])
      }
    }).pipe(Effect.provide(layer), Effect.provideService(Scheduler.MaxOpsBeforeYield, 4)))

  it.live("dismisses every pending question when its layer closes, and refuses to wait afterwards", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(layer, scope)
      const service = Context.get(context, Question.Service)
      const bus = Context.get(context, Bus.Service)
      const asked = yield* Queue.unbounded<Question.Request>()
      yield* Stream.runForEach(yield* bus.on(Question.Asked), (event) => Queue.offer(asked, event.payload)).pipe(Effect.forkScoped)
      const waiter = yield* Effect.forkChild(service.ask({ sessionID: "ses_q", questions: [DATABASE], source }))
      const request = yield* Queue.take(asked)
      yield* Scope.close(scope, Exit.void)
      const error = yield* Fiber.join(waiter).pipe(Effect.flip)
      expect(error).toEqual(new Question.DismissedError({ requestID: request.id, reason: Interaction.Reasons.locationClosed }))
      expect(error.message).toBe("The question ended unanswered: the Location closed")
      expect(yield* service.list).toEqual([])
      expect(yield* service.ask({ sessionID: "ses_q", questions: [DATABASE], source }).pipe(Effect.flip)).toBeInstanceOf(Question.DismissedError)
    }))
})
