import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Queue } from "effect"
import { Answerer } from "../../src/interaction/answerer.js"
import { Interaction } from "../../src/interaction/interaction.js"
import { InteractionStore } from "../../src/interaction/store.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import { Permission } from "../../src/permission/permission.js"
import { Project } from "../../src/project.js"
import { Question } from "../../src/question.js"
import { askQuestion, bash, events, inStore, newSession } from "../lib/interaction.js"
import { DATABASE } from "../lib/questions.js"

const summary = (pending: Interaction.Pending) => ({ id: pending.id, sessionID: pending.sessionID, kind: pending.kind, payload: pending.payload })

describe("InteractionStore", () => {
  it.live("lists permission and question asks together per session, oldest first", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const permission = yield* Permission.Service
      const questions = yield* Question.Service
      const permissionAsked = yield* events(Permission.Asked)
      const questionAsked = yield* events(Question.Asked)
      const a = yield* newSession
      const b = yield* newSession
      const push = yield* Effect.forkChild(bash(a.id, "git push"))
      const pushed = yield* Queue.take(permissionAsked)
      const database = yield* Effect.forkChild(askQuestion(a.id, [DATABASE]))
      const asked = yield* Queue.take(questionAsked)
      const make = yield* Effect.forkChild(bash(b.id, "make"))
      const made = yield* Queue.take(permissionAsked)

      expect((yield* store.forSession(a.id)).map(summary)).toEqual([
        { id: pushed.id, sessionID: a.id, kind: "permission", payload: pushed },
        { id: asked.id, sessionID: a.id, kind: "question", payload: asked },
      ])
      expect((yield* store.forSession(b.id)).map(summary)).toEqual([{ id: made.id, sessionID: b.id, kind: "permission", payload: made }])
      expect((yield* store.list).map((pending) => pending.id)).toEqual([pushed.id, asked.id, made.id])
      expect((yield* store.get(asked.id)).kind).toBe("question")
      // Each kind's own view shows only its kind.
      expect(yield* permission.forSession(a.id)).toEqual([pushed])
      expect(yield* questions.forSession(a.id)).toEqual([asked])
      expect(yield* permission.get(asked.id).pipe(Effect.flip)).toEqual(new Permission.NotFoundError({ requestID: asked.id }))

      yield* store.answer(pushed.id, { reply: "once" })
      yield* store.answer(asked.id, { reply: "answered", answers: [["SQLite"]] })
      yield* store.answer(made.id, { reply: "reject", message: "not now" })
      yield* Fiber.join(push)
      expect(yield* Fiber.join(database)).toEqual([["SQLite"]])
      expect(yield* Fiber.join(make).pipe(Effect.flip)).toEqual(new Permission.CorrectedError({ requestID: made.id, feedback: "not now" }))
      expect(yield* store.list).toEqual([])
    })))

  it.live("lets exactly one of two racing answers win; the other is told it was already answered", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const asked = yield* events(Permission.Asked)
      const replied = yield* events(Permission.Replied)
      const { id } = yield* newSession
      const waiter = yield* Effect.forkChild(bash(id, "git push"))
      const request = yield* Queue.take(asked)
      const results = yield* Effect.all([Effect.exit(store.answer(request.id, { reply: "once" })), Effect.exit(store.answer(request.id, { reply: "reject" }))], {
        concurrency: "unbounded",
      })
      expect(results.filter(Exit.isSuccess)).toHaveLength(1)
      const loser = results.find(Exit.isFailure)
      const error = loser === undefined ? undefined : yield* Effect.flip(loser)
      expect(error).toEqual(new Interaction.AlreadyAnsweredError({ id: request.id }))
      expect(error?.message).toBe(`Interaction ${request.id} was already answered`)
      const won = Exit.isSuccess(results[0] as Exit.Exit<void, unknown>) ? "once" : "reject"
      expect(Exit.isSuccess(yield* Fiber.await(waiter))).toBe(won === "once")
      expect(yield* Queue.take(replied)).toEqual({ sessionID: id, requestID: request.id, reply: won })
      expect(yield* Queue.size(replied)).toBe(0)
    })))

  it.live("lets exactly one of two answerers watching a session settle an ask; both carry on with the next", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const replied = yield* events(Permission.Replied)
      const { id } = yield* newSession
      const offered = yield* Queue.unbounded<string>()
      /** The gate of the current round: both answerers hold their answer until it opens. */
      const round = { gate: yield* Deferred.make<void>() }
      const racer = (answer: Permission.Answer) =>
        Answerer.make({ permission: (request) => Queue.offer(offered, request.id).pipe(Effect.andThen(Effect.suspend(() => Deferred.await(round.gate))), Effect.as(answer)) })
      yield* store.attach(racer({ reply: "once" }), id)
      yield* store.attach(racer({ reply: "reject", message: "no" }), id)
      /** One ask, seen by both answerers before either may answer it. */
      const race = (command: string) =>
        Effect.gen(function* () {
          round.gate = yield* Deferred.make<void>()
          const waiter = yield* Effect.forkChild(bash(id, command))
          const request = yield* Queue.take(offered)
          expect(yield* Queue.take(offered)).toBe(request)
          yield* Deferred.succeed(round.gate, undefined)
          return { request, exit: yield* Fiber.await(waiter) }
        })
      const first = yield* race("git push")
      // Both answerers took the next ask, so both had tried to answer the first.
      yield* race("npm publish")
      const settled = [...(yield* Queue.takeAll(replied))].filter((event) => event.requestID === first.request)
      expect(settled).toEqual([{ sessionID: id, requestID: first.request, reply: Exit.isSuccess(first.exit) ? "once" : "reject" }])
    })))

  it.live("keeps an ask nobody answers pending and visible, and offers it to an answerer attached later", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const asked = yield* events(Permission.Asked)
      const a = yield* newSession
      const b = yield* newSession
      // Watching another session only: never offered a's ask.
      yield* store.attach(Answerer.policy("reject"), b.id)
      const waiter = yield* Effect.forkChild(bash(a.id, "git push"))
      const request = yield* Queue.take(asked)
      for (let step = 0; step < 20; step++) yield* Effect.yieldNow
      expect(waiter.pollUnsafe()).toBeUndefined()
      expect((yield* store.forSession(a.id)).map((pending) => pending.id)).toEqual([request.id])
      yield* Effect.scoped(Effect.gen(function* () {
        yield* store.attach(Answerer.policy("once"), a.id)
        yield* Fiber.join(waiter)
      }))
      expect(yield* store.list).toEqual([])
    })))

  it.live("ends a session's pending asks and questions, telling the waiters why, while other sessions wait on", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const permissionAsked = yield* events(Permission.Asked)
      const questionAsked = yield* events(Question.Asked)
      const a = yield* newSession
      const b = yield* newSession
      const push = yield* Effect.forkChild(bash(a.id, "git push"))
      const pushed = yield* Queue.take(permissionAsked)
      const database = yield* Effect.forkChild(askQuestion(a.id, [DATABASE]))
      yield* Queue.take(questionAsked)
      const other = yield* Effect.forkChild(bash(b.id, "make"))
      const made = yield* Queue.take(permissionAsked)
      expect(yield* store.endSession(a.id)).toBe(2)
      const declined = yield* Fiber.join(push).pipe(Effect.flip)
      expect(declined).toEqual(new Permission.DeclinedError({ requestID: pushed.id, action: "bash", reason: Interaction.Reasons.sessionEnded }))
      expect(declined.message).toBe("Permission request for bash ended unanswered: the session ended")
      expect((yield* Fiber.join(database).pipe(Effect.flip)).message).toBe("The question ended unanswered: the session ended")
      expect((yield* store.list).map((pending) => pending.id)).toEqual([made.id])
      expect(yield* store.answer(pushed.id, { reply: "once" }).pipe(Effect.flip)).toEqual(new Interaction.AlreadyAnsweredError({ id: pushed.id }))
      yield* store.answer(made.id, { reply: "once" })
      yield* Fiber.join(other)
    })))

  it.live("closes with a reason: every pending ask ends with it, and later asks end at once", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const permissionAsked = yield* events(Permission.Asked)
      const questionAsked = yield* events(Question.Asked)
      const { id } = yield* newSession
      const push = yield* Effect.forkChild(bash(id, "git push"))
      const pushed = yield* Queue.take(permissionAsked)
      const database = yield* Effect.forkChild(askQuestion(id, [DATABASE]))
      const asked = yield* Queue.take(questionAsked)
      yield* store.close(Interaction.Reasons.serverStopped)
      expect(yield* Fiber.join(push).pipe(Effect.flip)).toEqual(new Permission.DeclinedError({ requestID: pushed.id, action: "bash", reason: "the server stopped" }))
      expect(yield* Fiber.join(database).pipe(Effect.flip)).toEqual(new Question.DismissedError({ requestID: asked.id, reason: "the server stopped" }))
      expect((yield* bash(id, "make").pipe(Effect.flip)).message).toBe(Permission.Messages.unanswered("bash", "the server stopped"))
      expect((yield* askQuestion(id, [DATABASE]).pipe(Effect.flip)).message).toBe(Question.Messages.unanswered("the server stopped"))
      const project = yield* Project.Service
      const log = yield* Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id))
      expect(log.filter((entry) => entry.reply !== undefined).map(({ resources, effect, decidedBy, reply }) => [resources[0], effect, decidedBy, reply])).toEqual([
        ["git push", "deny", "rule", "closed"],
      ])
    })))

  it.live("refuses an unknown id and an answer of the wrong kind or shape, leaving the ask pending", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const permissionAsked = yield* events(Permission.Asked)
      const questionAsked = yield* events(Question.Asked)
      const { id } = yield* newSession
      const notFound = yield* store.answer("per_nope", { reply: "once" }).pipe(Effect.flip)
      expect(notFound).toEqual(new Interaction.NotFoundError({ id: "per_nope" }))
      expect(notFound.message).toBe("No pending interaction with id per_nope")
      const push = yield* Effect.forkChild(bash(id, "git push"))
      const pushed = yield* Queue.take(permissionAsked)
      const database = yield* Effect.forkChild(askQuestion(id, [DATABASE]))
      const asked = yield* Queue.take(questionAsked)
      const wrongKind = yield* store.answer(pushed.id, { reply: "dismissed" }).pipe(Effect.flip)
      expect(wrongKind).toEqual(new Interaction.InvalidAnswerError({ id: pushed.id, detail: Interaction.Messages.wrongKind("permission", "dismissed") }))
      expect(wrongKind.message).toBe(`Invalid answer to ${pushed.id}: a permission cannot be answered with dismissed`)
      expect((yield* store.answer(asked.id, { reply: "once" }).pipe(Effect.flip)).message).toBe(`Invalid answer to ${asked.id}: a question cannot be answered with once`)
      const wrongCount = yield* store.answer(asked.id, { reply: "answered", answers: [["SQLite"], ["Postgres"]] }).pipe(Effect.flip)
      expect(wrongCount).toEqual(new Interaction.InvalidAnswerError({ id: asked.id, detail: Question.Messages.wrongCount(1, 2) }))
      expect((yield* store.list).map((pending) => pending.id)).toEqual([pushed.id, asked.id])
      yield* store.answer(pushed.id, { reply: "always", scope: "project" })
      yield* store.answer(asked.id, { reply: "dismissed", message: "ask me later" })
      yield* Fiber.join(push)
      expect(yield* Fiber.join(database).pipe(Effect.flip)).toEqual(new Question.CorrectedError({ requestID: asked.id, feedback: "ask me later" }))
    })))

  it.live("fails closed when an answerer's answer is invalid: the question is dismissed", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const { id } = yield* newSession
      yield* store.attach(Answerer.make({ question: () => Effect.succeed({ reply: "answered", answers: [] }) }), id)
      expect(yield* askQuestion(id, [DATABASE]).pipe(Effect.flip)).toBeInstanceOf(Question.DismissedError)
    })))

  it.live("denies asks at once in a session whose answerer denies, and dismisses its questions; other sessions still wait", () =>
    inStore(Effect.gen(function* () {
      const store = yield* InteractionStore.Service
      const permission = yield* Permission.Service
      const asked = yield* events(Permission.Asked)
      const a = yield* newSession
      const b = yield* newSession
      yield* store.attach(Answerer.policy("deny"), a.id)
      expect(yield* store.denies(a.id)).toBe(true)
      expect(yield* store.denies(b.id)).toBe(false)
      expect(yield* bash(a.id, "git push").pipe(Effect.flip)).toBeInstanceOf(Permission.BlockedError)
      const dismissed = yield* askQuestion(a.id, [DATABASE]).pipe(Effect.flip)
      expect(dismissed).toBeInstanceOf(Question.DismissedError)
      expect(dismissed.message).toBe(Question.Messages.dismissed)
      const waiter = yield* Effect.forkChild(bash(b.id, "git push"))
      yield* permission.reply({ requestID: (yield* Queue.take(asked)).id, reply: "once" })
      yield* Fiber.join(waiter)
    })))
})
