/**
 * The turn loops `toolgate serve` runs for its sessions (`POST /api/session/:id/run`, issue 19
 * item 5): one at a time per session, with the model of the config's `server.model`, holding the
 * session's Location open while it runs. Its events go out on the Location's bus (ai/runner.ts:
 * `run.step`, `run.text`, `run.call`, `run.outcome`, `run.finished`, `run.failed`, and
 * `run.aborted` here), so `/api/event` streams them and the console shows them. Each session's
 * conversation is kept in memory, so the next run continues it. Aborting interrupts the loop: the
 * model's stream stops and the running calls' processes are killed. Stopping the server
 * interrupts every run.
 */
export * as ServerRuns from "./runs.js"

import type { ModelMessage } from "ai"
import { Effect, Exit, FiberMap, Schema, Scope } from "effect"
import { Bus } from "../bus.js"
import { Endpoint } from "../ai/endpoint.js"
import { Runner } from "../ai/runner.js"
import { Config } from "../config.js"
import type { Locations } from "../locations.js"
import type { Session } from "../session.js"
import { Tracing } from "../tracing.js"

export const Messages = {
  noModel: "No model to run: set server.model in the global config (its id, and base_url for an endpoint other than Ollama's)",
  running: (sessionID: string) => `Session ${sessionID} is already running`,
  notRunning: (sessionID: string) => `Session ${sessionID} is not running`,
  missingKey: (name: string) => `The variable ${name} (server.model.api_key_env) is not set where toolgate serve runs`,
} as const

export const Aborted = Bus.event("run.aborted", Schema.Struct({ sessionID: Schema.String }))

export class NoModelError extends Schema.TaggedError<NoModelError>()("ServerRuns.NoModelError", { detail: Schema.String }) {
  override get message() {
    return this.detail
  }
}

export class RunningError extends Schema.TaggedError<RunningError>()("ServerRuns.RunningError", { sessionID: Schema.String }) {
  override get message() {
    return Messages.running(this.sessionID)
  }
}

export class NotRunningError extends Schema.TaggedError<NotRunningError>()("ServerRuns.NotRunningError", { sessionID: Schema.String }) {
  override get message() {
    return Messages.notRunning(this.sessionID)
  }
}

export interface StartInput {
  readonly sessionID: string
  readonly prompt: string
  readonly maxSteps?: number
}

export interface Started {
  readonly sessionID: string
  readonly model: string
  readonly maxSteps: number
}

export interface Interface<E> {
  /** Starts a run of the session; it goes on after the request that started it ends. */
  readonly start: (input: StartInput) => Effect.Effect<Started, E | NoModelError | RunningError>
  /** Interrupts the session's run. */
  readonly abort: (sessionID: string) => Effect.Effect<void, NotRunningError>
  /** The sessions running now. */
  readonly running: Effect.Effect<ReadonlyArray<string>>
}

/** A session and its Location, held for the given scope (the hub's `session`). */
export type SessionOf<E> = (sessionID: string) => Effect.Effect<{ readonly handle: Locations.Handle; readonly info: Session.Info }, E, Scope.Scope>

/** The runs of one server, interrupted when `scope` (the server's) closes. */
export const make = <E>(sessionOf: SessionOf<E>, env: Readonly<Record<string, string | undefined>>) =>
  Effect.gen(function* () {
    const fibers = yield* FiberMap.make<string>()
    const conversations = new Map<string, ReadonlyArray<ModelMessage>>()

    const start = Tracing.fn("ServerRuns.start")(function* (input: StartInput) {
      if (yield* FiberMap.has(fibers, input.sessionID)) return yield* new RunningError({ sessionID: input.sessionID })
      // The Location stays open for as long as the run holds this scope.
      const held = yield* Scope.make()
      const prepared = yield* Effect.gen(function* () {
        const { handle, info } = yield* Effect.provideService(sessionOf(input.sessionID), Scope.Scope, held)
        const settings = (yield* Effect.orDie(handle.run(Config.Service))).server.model
        if (settings === undefined) return yield* new NoModelError({ detail: Messages.noModel })
        const variable = settings.api_key_env ?? Endpoint.DEFAULT_API_KEY_ENV
        const apiKey = env[variable]
        if (settings.api_key_env !== undefined && (apiKey === undefined || apiKey === "")) return yield* new NoModelError({ detail: Messages.missingKey(variable) })
        const model = yield* Effect.promise(() =>
          Endpoint.model({ id: settings.id, baseURL: Endpoint.baseUrlOf(settings.base_url ?? Endpoint.DEFAULT_BASE_URL) ?? Endpoint.DEFAULT_BASE_URL, ...(apiKey === undefined ? {} : { apiKey }) }),
        )
        return { handle, info, model, id: settings.id, maxSteps: input.maxSteps ?? settings.max_steps ?? Endpoint.DEFAULT_MAX_STEPS }
      }).pipe(Effect.tapError(() => Scope.close(held, Exit.void)))
      const messages: ReadonlyArray<ModelMessage> = [...(conversations.get(input.sessionID) ?? []), { role: "user", content: input.prompt }]
      const loop = Runner.loop({ session: prepared.info, model: prepared.model, messages, maxSteps: prepared.maxSteps }).pipe(
        Effect.tap((result) => Effect.sync(() => conversations.set(input.sessionID, result.messages))),
        Effect.onInterrupt(() => Effect.flatMap(Bus.Service, (bus) => bus.publish(Aborted, { sessionID: input.sessionID }))),
      )
      // A model failure was published as run.failed by the loop; the run just ends.
      const run = prepared.handle.run(loop).pipe(Effect.ignore, Effect.ensuring(Scope.close(held, Exit.void)))
      yield* FiberMap.run(fibers, input.sessionID, run, { onlyIfMissing: true })
      return { sessionID: input.sessionID, model: prepared.id, maxSteps: prepared.maxSteps } satisfies Started
    })

    const abort = Tracing.fn("ServerRuns.abort")(function* (sessionID: string) {
      if (!(yield* FiberMap.has(fibers, sessionID))) return yield* new NotRunningError({ sessionID })
      yield* FiberMap.remove(fibers, sessionID)
    })

    const running = Effect.sync(() => [...fibers].map(([sessionID]) => sessionID))
    return { start, abort, running } satisfies Interface<E>
  })
