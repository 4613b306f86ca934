/**
 * The turn loop over HTTP (issue 19, item 5): start a run of a session with the server's model
 * (`server.model`), stop it, see which sessions run. A run outlives the request that started it;
 * its progress is on `/api/event` (`run.*`), and its asks are answered by the permission routes.
 */
export * as RunRoutes from "./run.js"

import { Effect, Schema } from "effect"
import { ServerHub } from "../hub.js"
import { ServerRoute } from "../route.js"
import type { ServerRuns } from "../runs.js"

export const RunBody = Schema.Struct({
  prompt: Schema.String.check(Schema.isNonEmpty()).annotate({ description: "What the person asks the model" }),
  maxSteps: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThan(0)).annotate({ description: "Stop after this many model steps (default: server.model.max_steps, else 20)" })),
}).annotate({ identifier: "SessionRun" })

const runError = (error: ServerRuns.NoModelError | ServerRuns.RunningError | ServerRuns.NotRunningError): ServerRoute.Reply => {
  switch (error._tag) {
    case "ServerRuns.NoModelError":
      return ServerRoute.error(503, "NoModelError", error.message)
    case "ServerRuns.RunningError":
      return ServerRoute.error(409, "SessionBusyError", error.message, { sessionID: error.sessionID })
    case "ServerRuns.NotRunningError":
      return ServerRoute.error(409, "SessionIdleError", error.message, { sessionID: error.sessionID })
  }
}

const start = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/run",
  tag: "run",
  summary: "Run the model on the session until it answers without calling a tool (or stops); progress on /api/event as run.*",
  body: RunBody,
  responses: {
    202: { description: "{ data: { sessionID, model, maxSteps } }: the run started" },
    404: { description: "SessionNotFoundError" },
    409: { description: "SessionBusyError: the session is running already" },
    503: { description: "NoModelError: the server's config names no model (server.model)" },
  },
  handle: ({ params, body }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const hub = yield* ServerHub.Service
        const started = yield* hub.runs.start({ sessionID: params.sessionID ?? "", prompt: body.prompt, ...(body.maxSteps === undefined ? {} : { maxSteps: body.maxSteps }) }).pipe(
          Effect.map((data): ServerRoute.Reply => ({ status: 202, body: { data } })),
          Effect.catchTag(["ServerRuns.NoModelError", "ServerRuns.RunningError"], (error) => Effect.succeed(runError(error))),
        )
        return started
      }),
    ),
})

const abort = ServerRoute.make({
  method: "POST",
  path: "/api/session/:sessionID/abort",
  tag: "run",
  summary: "Stop the session's run: the model's stream and the running calls (their processes are killed)",
  responses: { 200: { description: "{ data: true }" }, 409: { description: "SessionIdleError: the session is not running" } },
  handle: ({ params }) =>
    Effect.gen(function* () {
      const hub = yield* ServerHub.Service
      return yield* hub.runs.abort(params.sessionID ?? "").pipe(
        Effect.as(ServerRoute.ok({ data: true })),
        Effect.catchTag("ServerRuns.NotRunningError", (error) => Effect.succeed(runError(error))),
      )
    }),
})

const running = ServerRoute.make({
  method: "GET",
  path: "/api/run",
  tag: "run",
  summary: "The sessions running now",
  responses: { 200: { description: "{ data: string[] }" } },
  handle: () => Effect.map(Effect.flatMap(ServerHub.Service, (hub) => hub.runs.running), (data) => ServerRoute.ok({ data })),
})

export const ROUTES: ReadonlyArray<ServerRoute.Route> = [start, abort, running]
