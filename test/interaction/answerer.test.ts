import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Answerer } from "../../src/interaction/answerer.js"
import type { Interaction } from "../../src/interaction/interaction.js"
import type { Permission } from "../../src/permission/permission.js"
import type { Question } from "../../src/question.js"
import { DATABASE } from "../lib/questions.js"

const source = { toolCallID: "call_a", messageID: "msg_a" }

const request: Permission.Request = {
  id: "per_a",
  sessionID: "ses_a",
  action: "bash",
  resources: ["git push"],
  save: ["git *"],
  allows: { session: [], project: [] },
  metadata: {},
  source,
  createdAt: 1,
}
const question: Question.Request = { id: "que_a", sessionID: "ses_a", questions: [DATABASE], source }

const asked: Interaction.Pending = { id: request.id, sessionID: request.sessionID, kind: "permission", payload: request, createdAt: 1 }
const questioned: Interaction.Pending = { id: question.id, sessionID: question.sessionID, kind: "question", payload: question, createdAt: 2 }

const cases: ReadonlyArray<{ readonly policy: Answerer.Policy; readonly answer: Permission.Answer; readonly denies: boolean }> = [
  { policy: "once", answer: { reply: "once" }, denies: false },
  { policy: "always", answer: { reply: "always", scope: "project" }, denies: false },
  { policy: "reject", answer: { reply: "reject" }, denies: false },
  { policy: "deny", answer: { reply: "reject" }, denies: true },
]

describe("Answerer", () => {
  for (const c of cases)
    it.effect(`policy ${c.policy} answers a permission ${c.answer.reply} and dismisses every question`, () =>
      Effect.gen(function* () {
        const answerer = Answerer.policy(c.policy)
        expect(yield* answerer.handle(asked)).toEqual(c.answer)
        expect(yield* answerer.handle(questioned)).toEqual({ reply: "dismissed" })
        expect(answerer.denies === true).toBe(c.denies)
      }))

  it.effect("every policy rejects an ask of the organization's policy: only a person may let it through", () =>
    Effect.gen(function* () {
      const byPolicy: Interaction.Pending = { ...asked, payload: { ...request, save: [], byPolicy: true } }
      for (const c of cases) expect({ policy: c.policy, answer: yield* Answerer.policy(c.policy).handle(byPolicy) }).toEqual({ policy: c.policy, answer: { reply: "reject" } })
    }))

  it.effect("leaves a kind it has no handler for to others", () =>
    Effect.gen(function* () {
      const answerer = Answerer.make({ question: () => Effect.succeed({ reply: "answered", answers: [["Postgres"]] }) })
      expect(yield* answerer.handle(asked)).toBeUndefined()
      expect(yield* answerer.handle(questioned)).toEqual({ reply: "answered", answers: [["Postgres"]] })
      expect(answerer.denies).toBeUndefined()
    }))
})
