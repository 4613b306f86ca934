import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { Bus } from "../../../src/bus.js"
import type { Config } from "../../../src/config.js"
import { Session } from "../../../src/session.js"
import { Question } from "../../../src/question.js"
import { QuestionTool } from "../../../src/tool/builtin/question.js"
import { ApplicationTools } from "../../../src/tool/application-tools.js"
import { ToolRegistry } from "../../../src/tool/registry.js"
import { Tool } from "../../../src/tool/tool.js"
import { ToolOutputStore } from "../../../src/tool-output-store.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { gateLayer, makeRoot } from "../../lib/permission.js"
import { DATABASE, FEATURES } from "../../lib/questions.js"

const LICENSE = { question: "Which license?", header: "License", options: [{ label: "MIT", description: "Permissive" }] }

/** The permission gate, the Question service and a real registry on one bus. */
const layer = (root: string, config?: Partial<Config.Info>) =>
  ToolRegistry.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(ApplicationTools.layer, ToolOutputStore.projectLayer({ directory: path.join(root, "data", "tool-output") }), Question.layer)),
    Layer.provideMerge(gateLayer(root, config === undefined ? {} : { config })),
  )

const withTool = <A, E>(body: (tool: Tool.Value<QuestionTool.Input, QuestionTool.Output>) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const root = yield* makeRoot
    return yield* Effect.flatMap(QuestionTool.make, (tool) => body(tool) as Effect.Effect<A, E, never>).pipe(Effect.provide(layer(root, config)))
  })

type Settle = (request: Question.Request) => { readonly answers: Question.Answers } | { readonly message?: string }

/** Answers every question from now on with `decide`, recording what was asked. */
const answering = (decide: Settle) =>
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const questions = yield* Question.Service
    const asked: Question.Request[] = []
    const stream = yield* bus.on(Question.Asked)
    yield* stream.pipe(
      Stream.runForEach(({ payload }) => {
        asked.push(payload)
        const answer = decide(payload)
        return "answers" in answer ? questions.reply({ requestID: payload.id, answers: answer.answers }) : questions.dismiss({ requestID: payload.id, ...answer })
      }),
      Effect.forkScoped,
    )
    return asked
  })

describe("QuestionTool", () => {
  it.live("returns the answers as the text the model reads, verbatim", () =>
    withTool((tool) => Effect.gen(function* () {
      const asked = yield* answering(() => ({ answers: [["Postgres"], ["Search", "a dark mode"], []] }))
      const { result } = yield* settle(tool, { questions: [DATABASE, FEATURES, LICENSE] })
      expect(textOf(result)).toBe(
        'User has answered your questions: "Which database should the service use?"="Postgres", "Which features ship first?"="Search, a dark mode", "Which license?"="Unanswered". You can now continue with the user\'s answers in mind.',
      )
      expect(result._tag === "Success" && result.success.structured).toEqual({ answers: [["Postgres"], ["Search", "a dark mode"], []] })
      expect(asked.map(({ sessionID, questions, source }) => ({ sessionID: sessionID.slice(0, 4), questions, source }))).toEqual([
        { sessionID: "ses_", questions: [DATABASE, FEATURES, LICENSE], source: { toolCallID: "call_test", messageID: "msg_test" } },
      ])
    })))

  it.live("asks permission for question [*] and saves nothing, before the question is asked", () =>
    withTool((tool) => Effect.gen(function* () {
      const questions = yield* answering(() => ({ answers: [["MIT"]] }))
      const { result, asked } = yield* settle(tool, { questions: [LICENSE] }, "always")
      expect(asked.map(({ action, resources, save, allows }) => ({ action, resources, save, allows }))).toEqual([{ action: "question", resources: ["*"], save: [], allows: { session: [], project: [] } }])
      expect(questions).toHaveLength(1)
      expect(textOf(result)).toBe(QuestionTool.format([LICENSE], [["MIT"]]))
      // Nothing was saved: the next question asks again.
      const again = yield* settle(tool, { questions: [LICENSE] }, "once")
      expect(again.asked).toHaveLength(1)
    }), globalConfig({ permission: [{ action: "question", resource: "*", effect: "ask" }] })))

  it.live("never asks the question when permission is declined", () =>
    withTool((tool) => Effect.gen(function* () {
      const questions = yield* answering(() => ({ answers: [["MIT"]] }))
      const { result } = yield* settle(tool, { questions: [LICENSE] }, "reject")
      expect(result._tag === "Failure" && result.failure._tag).toBe("Permission.DeclinedError")
      expect(questions).toEqual([])
    }), globalConfig({ permission: [{ action: "question", resource: "*", effect: "ask" }] })))

  const invalid = [
    { name: "no questions", input: { questions: [] }, detail: 'Expected a value with a length of at least 1\n  at ["questions"]' },
    { name: "a question without options", input: { questions: [{ ...DATABASE, options: [] }] }, detail: 'Expected a value with a length of at least 1\n  at ["questions"][0]["options"]' },
    {
      name: `a header over ${Question.MAX_HEADER_LENGTH} characters`,
      input: { questions: [DATABASE, { ...LICENSE, header: "x".repeat(Question.MAX_HEADER_LENGTH + 1) }] },
      detail: `Expected a value with a length of at most ${Question.MAX_HEADER_LENGTH}\n  at ["questions"][1]["header"]`,
    },
    { name: "a question without a header", input: { questions: [{ question: "Why?", options: LICENSE.options }] }, detail: 'Missing key\n  at ["questions"][0]["header"]' },
  ]
  for (const c of invalid)
    it.live(`refuses ${c.name} as invalid input without asking anything`, () =>
      withTool((tool) => Effect.gen(function* () {
        const questions = yield* answering(() => ({ answers: [] }))
        const { result, asked } = yield* settle(tool, c.input)
        expect(result._tag === "Failure" && result.failure).toEqual(new Tool.Failure({ message: Tool.Messages.invalidInput(c.detail) }))
        expect([asked, questions]).toEqual([[], []])
      }), globalConfig({ permission: [{ action: "question", resource: "*", effect: "ask" }] })))

  it.live("accepts a header of exactly the maximum length", () =>
    withTool((tool) => Effect.gen(function* () {
      yield* answering(() => ({ answers: [["MIT"]] }))
      const { result } = yield* settle(tool, { questions: [{ ...LICENSE, header: "x".repeat(Question.MAX_HEADER_LENGTH) }] })
      expect(result._tag).toBe("Success")
    })))

  it.live("gives the model the message of a dismissal with one, as a Failure", () =>
    withTool((tool) => Effect.gen(function* () {
      yield* answering(() => ({ message: "Stop asking, use Postgres" }))
      const { result } = yield* settle(tool, { questions: [DATABASE] })
      expect(result._tag === "Failure" && result.failure).toEqual(new Tool.Failure({ message: "Stop asking, use Postgres" }))
    })))

  it.live("passes a dismissal without a message through Tool.settle as DismissedError", () =>
    withTool((tool) => Effect.gen(function* () {
      yield* answering(() => ({}))
      const { result } = yield* settle(tool, { questions: [DATABASE] })
      expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Question.DismissedError)
    })))

  it.live("stops the turn through catalog.settle on a dismissal without a message, and reads one with a message", () =>
    withTool((tool) => Effect.gen(function* () {
      const registry = yield* ToolRegistry.Service
      yield* registry.register({ [QuestionTool.name]: tool })
      const catalog = yield* registry.materialize({ rules: [] })
      const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
      const context = { sessionID: session.id, agent: "build", assistantMessageID: "msg_c", toolCallID: "call_c" }
      const call = { id: "call_c", name: QuestionTool.name, input: { questions: [DATABASE] } }
      const messages = ["Stop asking, use Postgres", undefined]
      yield* answering(() => {
        const message = messages.shift()
        return message === undefined ? {} : { message }
      })
      expect(yield* catalog.settle(call, context)).toEqual({ type: "error", message: "Stop asking, use Postgres" })
      expect(yield* catalog.settle(call, context).pipe(Effect.flip)).toBeInstanceOf(Question.DismissedError)
    })))
})
