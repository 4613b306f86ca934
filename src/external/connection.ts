/**
 * One external MCP server, kept connected for the Location's lifetime: it is started (a command
 * over stdio) or reached (Streamable HTTP), its tools are listed and registered, re-listed and
 * re-registered on `notifications/tools/list_changed` (the old registrations close, so a call
 * made from an older catalog is stale), and when it exits its tools are unregistered and it is
 * started again with backoff (0.5 s doubling to 30 s; a run that lasted a minute starts the count
 * again). The server may ask the person something while its tool runs (form elicitation): that
 * is asked in the calling session (elicitation.ts). Its state, its tools and the tools it had to
 * skip (with why) are kept for `toolgate mcp-servers`.
 */
export * as ExternalConnection from "./connection.js"

import { Client } from "@modelcontextprotocol/client"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { Cause, Clock, Deferred, Effect, Exit, Scope } from "effect"
import type { McpServerEntry } from "../config.js"
import type { Permission } from "../permission/permission.js"
import { Tool } from "../tool/tool.js"
import type { ToolRegistry } from "../tool/registry.js"
import { Version } from "../version.js"
import type { Question } from "../question.js"
import { ExternalElicitation } from "./elicitation.js"
import { ExternalTool } from "./tool.js"

export const Messages = {
  clash: (name: string) => `${name} is already the name of another tool`,
  exited: (detail: string) => `the server stopped (${detail}); restarting`,
  startTimeout: (ms: number) => `did not answer within ${ms / 1000} s`,
} as const

export const STATES = ["starting", "running", "restarting"] as const
export type State = (typeof STATES)[number]

export interface Skipped {
  readonly tool: string
  readonly reason: string
}

export interface Status {
  readonly state: State
  /** The registered names of its tools, sorted. */
  readonly tools: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<Skipped>
  /** Why it is not running, when it is not. */
  readonly error?: string
  readonly restarts: number
}

/** How long a start may take before it counts as failed. */
export const START_TIMEOUT_MS = 15_000
const FIRST_BACKOFF_MS = 500
const MAX_BACKOFF_MS = 30_000
const STABLE_MS = 60_000
/** The last lines of a server's stderr kept to say why it stopped. */
const STDERR_LINES = 20

export interface Options {
  readonly entry: McpServerEntry
  readonly registry: ToolRegistry.Interface
  readonly permission: Permission.Interface
  /** Where a server's own questions (elicitation) are asked, in the session of the call that runs. */
  readonly question: Question.Interface
  /** The working directory a command runs in unless its config names one. */
  readonly directory: string
}

export interface Connection {
  readonly status: () => Status
  /** Done once the first start ended: listed, failed or timed out. */
  readonly started: Effect.Effect<void>
}

const errorText = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

const transportOf = (options: Options, stderr: Array<string>) => {
  const server = options.entry.server
  if ("url" in server) return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { ...server.headers } } })
  const [command, ...args] = server.command as [string, ...Array<string>]
  const transport = new StdioClientTransport({ command, args, env: { ...getDefaultEnvironment(), ...server.env }, cwd: server.cwd ?? options.directory, stderr: "pipe" })
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr.push(...chunk.toString("utf8").split("\n").filter((line) => line.trim() !== ""))
    stderr.splice(0, Math.max(0, stderr.length - STDERR_LINES))
  })
  return transport
}

/** Keeps the server of `options.entry` connected in the caller's scope. */
export const make = Effect.fnUntraced(function* (options: Options) {
  const scope = yield* Scope.Scope
  const server = options.entry.name
  const fromProject = options.entry.scope === "project"
  let status: Status = { state: "starting", tools: [], skipped: [], restarts: 0 }
  const started = yield* Deferred.make<void>()
  /** The scope of the current registrations, closed when they are replaced or the server stops. */
  let registered: Scope.Closeable | undefined

  const unregister = Effect.suspend(() => {
    const current = registered
    registered = undefined
    return current === undefined ? Effect.void : Scope.close(current, Exit.void)
  })

  /** The calls of this server's tools that run now: a question of the server belongs to one of them. */
  const running = new Set<Tool.Context>()

  /** A question of the server, asked in the session of the call that runs; unclear whose, or a secret: declined. */
  const elicit = async (form: ExternalElicitation.Form & { readonly mode?: string }) => {
    const calls = [...running]
    const sessions = new Set(calls.map((context) => context.sessionID))
    const context = calls.at(-1)
    if (form.mode === "url" || context === undefined || sessions.size !== 1) return { action: "decline" }
    const list = ExternalElicitation.fields(form)
    if ("refused" in list) return { action: "decline" }
    const asked = options.question.ask({
      sessionID: context.sessionID,
      questions: ExternalElicitation.questions(server, form, list),
      source: { toolCallID: context.toolCallID, messageID: context.assistantMessageID },
    })
    const exit = await Effect.runPromiseExit(asked)
    return Exit.isSuccess(exit) ? { action: "accept", content: ExternalElicitation.content(list, exit.value) } : { action: "decline" }
  }

  /** Registers what the server lists now, in place of what it listed before. */
  const register = (client: Client) =>
    Effect.gen(function* () {
      const listed = yield* Effect.tryPromise(() => client.listTools())
      const call: ExternalTool.Call = (name, args, signal, context) => {
        running.add(context)
        return (client.callTool({ name, arguments: { ...args } }, { signal, timeout: 2 ** 31 - 1 }) as Promise<never>).finally(() => running.delete(context))
      }
      yield* unregister
      const record: Record<string, Tool.AnyTool> = {}
      const skipped: Array<Skipped> = []
      for (const tool of listed.tools) {
        const name = ExternalTool.nameOf(server, tool.name)
        const made = ExternalTool.make(tool as ExternalTool.Listed, { server, fromProject, permission: options.permission, call })
        const invalid = Tool.validate(name, made)
        if (invalid !== undefined) skipped.push({ tool: tool.name, reason: invalid.message })
        else if (options.registry.lookup(name) !== undefined || name in record) skipped.push({ tool: tool.name, reason: Messages.clash(name) })
        else record[name] = made
      }
      const next = yield* Scope.fork(scope)
      yield* options.registry.register(record).pipe(Scope.provide(next), Effect.orDie)
      registered = next
      status = { state: "running", tools: Object.keys(record).sort(), skipped, restarts: status.restarts }
    })

  /** One run of the server: connect, register, and wait until it closes; the client is closed on every exit. */
  const run = (stderr: Array<string>) =>
    Effect.suspend(() => {
      const client = new Client({ name: "toolgate", version: Version.current }, { capabilities: { elicitation: { form: {} } } })
      return Effect.gen(function* () {
        const closed = yield* Deferred.make<void>()
        client.onclose = () => Deferred.doneUnsafe(closed, Exit.void)
        client.setRequestHandler("elicitation/create", (request) => elicit(request.params as ExternalElicitation.Form & { readonly mode?: string }) as never)
        client.setNotificationHandler("notifications/tools/list_changed", () => {
          Effect.runFork(register(client).pipe(Effect.ignore))
        })
        yield* Effect.tryPromise(() => client.connect(transportOf(options, stderr))).pipe(Effect.timeout(START_TIMEOUT_MS))
        yield* register(client).pipe(Effect.timeout(START_TIMEOUT_MS))
        yield* Deferred.succeed(started, undefined)
        yield* Deferred.await(closed)
      }).pipe(
        Effect.ensuring(unregister),
        Effect.ensuring(Effect.promise(() => client.close().catch(() => undefined))),
      )
    })

  const loop = Effect.gen(function* () {
    let failures = 0
    while (true) {
      const stderr: Array<string> = []
      const since = yield* Clock.currentTimeMillis
      const exit = yield* Effect.exit(run(stderr))
      const lasted = (yield* Clock.currentTimeMillis) - since
      if (lasted >= STABLE_MS) failures = 0
      const detail = Exit.isFailure(exit) ? errorText(Cause.squash(exit.cause)) : "it exited"
      const last = stderr.at(-1)
      status = { state: "restarting", tools: [], skipped: status.skipped, error: Messages.exited(last === undefined ? detail : `${detail}: ${last}`), restarts: status.restarts + 1 }
      yield* Deferred.succeed(started, undefined)
      yield* Effect.sleep(Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** failures))
      failures++
    }
  })
  yield* Effect.forkIn(loop, scope)

  return { status: () => status, started: Deferred.await(started) } satisfies Connection
})
