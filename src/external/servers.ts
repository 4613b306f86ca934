/**
 * The external MCP servers of a Location (config `mcp.servers`), started the first time a catalog
 * is materialized (`ready`), not when the Location opens: a command that never lists tools starts
 * nothing. A server a project file names starts only once that file is trusted, with its content
 * (config/trust.ts): a repository cannot run a command by being opened. `enabled: false` leaves a
 * server off. `ready` waits until every started server has listed its tools, failed, or run out of
 * its start time; after that the servers live with the Location (connection.ts).
 */
export * as ExternalServers from "./servers.js"

import { Context, Effect, Layer, Scope } from "effect"
import { Config, type McpServerEntry } from "../config.js"
import { Location } from "../location/location.js"
import { Permission } from "../permission/permission.js"
import { Project } from "../project.js"
import { Question } from "../question.js"
import { ToolRegistry } from "../tool/registry.js"
import type { ExternalConnection } from "./connection.js"

export const Messages = {
  untrusted: (file: string) => `not started: ${file} is not trusted (run toolgate trust after reading it)`,
  disabled: "not started: enabled is false",
  shadowed: (named: string) => `not started: ${named} (your own config) already names a server so, and a project file cannot take that name`,
} as const

export interface Status {
  readonly name: string
  /** The config file that names it, and that file's scope. */
  readonly file: string
  readonly scope: McpServerEntry["scope"]
  /** What is started or reached: the command line, or the URL. */
  readonly target: string
  readonly state: ExternalConnection.State | "off"
  readonly tools: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<ExternalConnection.Skipped>
  /** Why it is off or not running. */
  readonly error?: string
  readonly restarts: number
}

export interface Interface {
  /** Starts the servers (once) and waits until each has listed its tools, failed or timed out. */
  readonly ready: Effect.Effect<void>
  /** Every configured server, by name, with its state; started ones only after `ready`. */
  readonly list: Effect.Effect<ReadonlyArray<Status>>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/ExternalServers") {}

/** The command line or URL of a server, as `toolgate trust` and `mcp-servers` show it. */
export const targetOf = (entry: McpServerEntry) => ("url" in entry.server ? entry.server.url : entry.server.command.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(" "))

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const config = yield* Config.Service
    const project = yield* Project.Service
    const registry = yield* ToolRegistry.Service
    const permission = yield* Permission.Service
    const question = yield* Question.Service
    const location = yield* Location.Service
    const scope = yield* Scope.Scope
    const connections = new Map<string, ExternalConnection.Connection>()
    const off = new Map<string, string>()

    const startAll = Effect.gen(function* () {
      const trusted = yield* project.trusted
      // The MCP client is loaded only when a server is to start: most commands never need it.
      const wanted = config.mcp_servers.some((entry) => entry.server.enabled !== false && (entry.scope !== "project" || trusted))
      const { ExternalConnection } = wanted ? yield* Effect.promise(() => import("./connection.js")) : { ExternalConnection: undefined }
      for (const entry of config.mcp_servers) {
        if (entry.server.enabled === false) off.set(entry.name, Messages.disabled)
        else if (entry.scope === "project" && !trusted) off.set(entry.name, Messages.untrusted(entry.file))
        else if (ExternalConnection !== undefined) connections.set(entry.name, yield* ExternalConnection.make({ entry, registry, permission, question, directory: location.directory }).pipe(Scope.provide(scope)))
      }
      yield* Effect.forEach([...connections.values()], (connection) => connection.started, { concurrency: "unbounded", discard: true })
    })
    const ready = yield* Effect.cached(startAll)

    const refused = config.mcp_servers_refused.map(
      (entry): Status => ({ name: entry.name, file: entry.file, scope: "project", target: "", state: "off", tools: [], skipped: [], error: Messages.shadowed(entry.named), restarts: 0 }),
    )
    const list = Effect.sync(() =>
      [...config.mcp_servers.map((entry): Status => {
        const base = { name: entry.name, file: entry.file, scope: entry.scope, target: targetOf(entry) }
        const connection = connections.get(entry.name)
        if (connection === undefined) return { ...base, state: "off", tools: [], skipped: [], error: off.get(entry.name) ?? "not started yet", restarts: 0 }
        return { ...base, ...connection.status() }
      }), ...refused],
    )
    return Service.of({ ready, list })
  }),
)
