/**
 * What a working directory offers and how it judges, without running anything: the catalog an
 * agent (and model) sees, the explain of one call (every permission request it would make and its
 * decision, the pure request builder of `permission eval --tool`), and the audit log.
 */
export * as ToolRoutes from "./tool.js"

import { Effect, Schema } from "effect"
import { Config } from "../../config.js"
import { Agents } from "../../permission/agents.js"
import { AuditLog } from "../../permission/audit-log.js"
import { Permission } from "../../permission/permission.js"
import { Project } from "../../project.js"
import { SessionTurn } from "../../session/turn.js"
import { ToolRequests } from "../../tool/requests.js"
import { ServerHub } from "../hub.js"
import { ServerRoute } from "../route.js"
import { SessionRoutes } from "./session.js"

export const Messages = {
  unknownTool: (name: string) => `Unknown tool: ${name}`,
  invalidSince: (value: string) => `Invalid since: ${value} (milliseconds since 1970 or an ISO date)`,
} as const

export const CatalogQuery = Schema.Struct({
  directory: Schema.optionalKey(Schema.String),
  agent: Schema.optionalKey(Schema.String.annotate({ description: "The agent (default: the configured default)" })),
  model: Schema.optionalKey(Schema.String.annotate({ description: "The model the catalog is for (apply_patch or edit)" })),
})

export const ExplainBody = Schema.Struct({
  directory: Schema.optionalKey(Schema.String),
  agent: Schema.optionalKey(Schema.String),
  tool: Schema.String.annotate({ description: "The tool the call names" }),
  input: Schema.Unknown.annotate({ description: "The call's arguments" }),
}).annotate({ identifier: "PermissionExplain" })

export const AuditQuery = Schema.Struct({
  directory: Schema.optionalKey(Schema.String),
  session: Schema.optionalKey(Schema.String.annotate({ description: "Only this session's records" })),
  since: Schema.optionalKey(Schema.String.annotate({ description: "Only records from this time on: milliseconds since 1970 or an ISO date" })),
})

/** The agent named, or the configured default; a reply when it names none. */
export const agentOf = (named: string | undefined) =>
  Effect.gen(function* () {
    const config = yield* Config.Service
    if (named !== undefined && !Agents.exists(config, named)) return ServerRoute.invalid(SessionRoutes.Messages.unknownAgent(named, Agents.names(config)), "agent")
    return named ?? (yield* Effect.flatMap(Permission.Service, (permission) => permission.defaultAgent))
  })

const catalog = ServerRoute.make({
  method: "GET",
  path: "/api/tool",
  tag: "tool",
  summary: "The tools an agent sees in a working directory, with their JSON Schemas",
  query: CatalogQuery,
  responses: { 200: { description: "{ agent, data: ToolDefinition[] }" } },
  handle: ({ query }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(query.directory)
        return yield* handle.run(
          Effect.gen(function* () {
            const agent = yield* agentOf(query.agent)
            if (typeof agent !== "string") return agent
            const permission = yield* Permission.Service
            const shown = yield* SessionTurn.catalogFor(yield* permission.configured(agent), query.model)
            return ServerRoute.ok({ agent, data: shown.definitions })
          }),
        )
      }),
    ),
})

const explain = ServerRoute.make({
  method: "POST",
  path: "/api/permission/explain",
  tag: "permission",
  summary: "What a call would ask, and the decision, without running it",
  body: ExplainBody,
  responses: { 200: { description: "{ agent, effect, requests: [{ action, resources, save, opaque, metadata, effect, rules }] }" }, 400: { description: "InvalidRequestError" } },
  handle: ({ body }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(body.directory)
        return yield* handle.run(
          Effect.gen(function* () {
            const agent = yield* agentOf(body.agent)
            if (typeof agent !== "string") return agent
            return yield* ToolRequests.evaluate(body.tool, body.input, { agent }).pipe(
              Effect.map((evaluated) => ServerRoute.ok({ agent, ...ToolRequests.toJson(evaluated) })),
              Effect.catchTags({
                "ToolRegistry.UnknownToolError": () => Effect.succeed(ServerRoute.invalid(Messages.unknownTool(body.tool), "tool")),
                "ToolRegistry.UndeclaredError": (error) => Effect.succeed(ServerRoute.invalid(error.message, "tool")),
                "Tool.InvalidInputError": (error) => Effect.succeed(ServerRoute.invalid(error.message, "input")),
                "Tool.Failure": (error) => Effect.succeed(ServerRoute.invalid(error.message, "input")),
              }),
            )
          }),
        )
      }),
    ),
})

/** `since` as milliseconds, or undefined when it is neither a number nor a date. */
export const sinceOf = (text: string): number | undefined => {
  const value = /^\d+$/.test(text) ? Number(text) : Date.parse(text)
  return Number.isFinite(value) ? value : undefined
}

const audit = ServerRoute.make({
  method: "GET",
  path: "/api/audit",
  tag: "permission",
  summary: "The audit log of a working directory's project: every decision, its rules and reply",
  query: AuditQuery,
  responses: { 200: { description: "{ data: AuditRecord[] }, oldest first" }, 400: { description: "InvalidRequestError: since" } },
  handle: ({ query }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const since = query.since === undefined ? undefined : sinceOf(query.since)
        if (query.since !== undefined && since === undefined) return ServerRoute.invalid(Messages.invalidSince(query.since), "since")
        const handle = yield* (yield* ServerHub.Service).location(query.directory)
        const filter: AuditLog.Filter = { ...(query.session === undefined ? {} : { sessionID: query.session }), ...(since === undefined ? {} : { since }) }
        const records = yield* handle.run(Effect.gen(function* () {
          const project = yield* Project.Service
          return yield* (yield* AuditLog.Service).list(project.id, filter)
        }))
        return ServerRoute.ok({ data: records })
      }),
    ),
})

export const ROUTES: ReadonlyArray<ServerRoute.Route> = [catalog, explain, audit]
