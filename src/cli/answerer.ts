/**
 * The answerer of `toolgate call`, attached to the call's session for the call's scope: under
 * `--on-ask prompt` the person at the terminal answers permission asks (on-ask.ts) and questions
 * (on-question.ts), one at a time; every other mode is a policy (interaction/answerer.ts), which
 * answers permissions by itself and dismisses questions, since a question has no automatic answer.
 */
export * as CliAnswerer from "./answerer.js"

import { Effect } from "effect"
import { Answerer } from "../interaction/answerer.js"
import { InteractionStore } from "../interaction/store.js"
import type { Io } from "./io.js"
import { OnAsk } from "./on-ask.js"
import { OnQuestion } from "./on-question.js"

/** The person at the terminal. */
export const terminal = (io: Io.Io): Answerer.Answerer =>
  Answerer.make({
    permission: (request) => Effect.promise(() => OnAsk.prompt(io, request)),
    question: (request) => Effect.promise(() => OnQuestion.prompt(io, request)),
  })

export const of = (mode: OnAsk.Mode, io: Io.Io): Answerer.Answerer => (mode === "prompt" ? terminal(io) : Answerer.policy(mode))

/** Attaches the answerer of `mode` to one session for the caller's scope. */
export const attach = Effect.fnUntraced(function* (mode: OnAsk.Mode, io: Io.Io, sessionID: string) {
  const store = yield* InteractionStore.Service
  yield* store.attach(of(mode, io), sessionID)
})
