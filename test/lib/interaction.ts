/**
 * The interaction store with both of its clients, the permission gate and the Question service,
 * on one bus, for tests of what a session is asked and who answers it.
 */
import { Effect, Layer, Queue, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import type { Config } from "../../src/config.js"
import { Permission } from "../../src/permission/permission.js"
import { Question } from "../../src/question.js"
import { Session } from "../../src/session.js"
import { globalConfig } from "./config.js"
import { gateLayer, makeRoot, source } from "./permission.js"

/** Every command asks; `rm *` is denied. */
export const ASK_BASH: Config.Info = globalConfig({
  permission: [
    { action: "bash", resource: "*", effect: "ask" },
    { action: "bash", resource: "rm *", effect: "deny" },
  ],
})

export const interactionLayer = (root: string, config: Config.Info = ASK_BASH) => Question.layer.pipe(Layer.provideMerge(gateLayer(root, { config })))

/** Runs `body` in a fresh root with the store, the gate and questions. */
export const inStore = <A, E>(body: Effect.Effect<A, E, any>, config?: Config.Info) =>
  Effect.gen(function* () {
    const root = yield* makeRoot
    return yield* (body as Effect.Effect<A, E, never>).pipe(Effect.provide(interactionLayer(root, config)))
  })

export const newSession = Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))

export const bash = (sessionID: string, command: string, save: ReadonlyArray<string> = [`${command.split(" ")[0]} *`]) =>
  Effect.flatMap(Permission.Service, (permission) => permission.assert({ sessionID, action: "bash", resources: [command], save, source }))

export const askQuestion = (sessionID: string, questions: ReadonlyArray<Question.Info>) =>
  Effect.flatMap(Question.Service, (service) => service.ask({ sessionID, questions, source }))

/** Every event of `definition` from now on, in a queue the test takes from. */
export const events = <Type extends string, Payload>(definition: Bus.Definition<Type, Payload>) =>
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const queue = yield* Queue.unbounded<Payload>()
    yield* Stream.runForEach(yield* bus.on(definition), (event) => Queue.offer(queue, event.payload)).pipe(Effect.forkScoped)
    return queue
  })
