/**
 * The HTTP half of a server over Locations someone else opened (issue 18): the Hono app with its
 * guard, routes, `/api/event` and `/mcp`, listening on one address, for as long as `stop` is not
 * called or the caller's scope lasts. `toolgate serve` (serve.ts) builds the process and its
 * Locations first and calls it; `toolgate mcp` with `mcp.on_ask: "console"` (mcp/console.ts)
 * calls it over the very Locations its stdio session uses, so the asks it leaves pending are the
 * ones the routes list and answer. Stopping refuses new requests (503), runs `between` (serve
 * closes its Locations there), then waits up to `drainMs` for the open connections and cuts them.
 */
export * as ServerListen from "./listen.js"

import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { createAdaptorServer } from "@hono/node-server"
import { Context, Effect, FiberSet, Schema } from "effect"
import { Version } from "../version.js"
import { ServerApp } from "./app.js"
import { ConsoleUrl } from "./console-url.js"
import type { EventLog } from "./event-log.js"
import { ServerHub } from "./hub.js"
import { ServerMcp } from "./mcp.js"
import { ServerRoutes } from "./routes.js"
import { ServerSse } from "./sse.js"

/** Who speaks in the server's own lines unless `Options.command` says otherwise. */
export const DEFAULT_COMMAND = "toolgate serve"

// Tagged as serve's error, which it was first (callers and tests match the tag).
export class ListenError extends Schema.TaggedError<ListenError>()("ServerServe.ListenError", {
  address: Schema.String,
  detail: Schema.String,
  /** The command that listens (`toolgate serve`, or `toolgate mcp` for its console). */
  command: Schema.optionalKey(Schema.String),
}) {
  override get message() {
    return `${this.command ?? DEFAULT_COMMAND}: cannot listen on ${this.address}: ${this.detail}`
  }
}

/** What the app's routes run with: the hub and the event log over the Locations. */
export type Services = ServerHub.Service | EventLog.Service

export interface Options {
  readonly port: number
  readonly hostname: string
  readonly token: string
  /** The Host values the guard accepts, once the bound port is known. */
  readonly hosts: (port: number) => ReadonlySet<string>
  readonly context: Context.Context<Services>
  readonly log: (line: string) => void
  /** How long connections still open when stopping may take before they are cut. */
  readonly drainMs: number
  /** The command whose lines these are: `toolgate serve` when absent. */
  readonly command?: string
}

export interface Listening {
  readonly port: number
  /** `http://<hostname>:<port>`, an IPv6 address in brackets. */
  readonly url: string
  /** Refuses new requests, runs `between`, then drains and closes every connection. */
  readonly stop: (between: Effect.Effect<void>) => Effect.Effect<void>
}

/** `http://<hostname>:<port>`, an IPv6 address in brackets. */
export const urlOf = (hostname: string, port: number) => `http://${hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname}:${port}`

/** Listens and resolves with the bound port. */
const bind = (server: Server, options: Options) =>
  Effect.callback<number, ListenError>((resume) => {
    const onError = (error: Error) => resume(Effect.fail(new ListenError({ address: `${options.hostname}:${options.port}`, detail: error.message, ...(options.command === undefined ? {} : { command: options.command }) })))
    server.once("error", onError)
    server.listen(options.port, options.hostname, () => {
      server.off("error", onError)
      resume(Effect.succeed((server.address() as AddressInfo).port))
    })
  })

/** Listens for the caller's scope (closing it stops the server at once if `stop` was not run). */
export const start = Effect.fnUntraced(function* (options: Options) {
  const runtime = yield* FiberSet.makeRuntimePromise<ServerHub.Service>().pipe(Effect.provideContext(options.context))
  const state: { stopping: boolean; console?: string } = { stopping: false }
  // Filled once the port is known (`--port 0` picks one).
  const hosts = new Set<string>()
  const hub = Context.get(options.context, ServerHub.Service)
  const events = yield* ServerSse.handler({ scope: { root: hub.root, allowed: hub.allowed } }).pipe(Effect.provideContext(options.context))
  const mcp = ServerMcp.make((effect) => runtime(Effect.scoped(effect)), { log: options.log, console: () => state.console, command: options.command ?? DEFAULT_COMMAND })
  const app = ServerApp.make({
    mcp: mcp.fetch,
    events,
    guard: { token: options.token, hosts },
    routes: ServerRoutes.ALL,
    version: Version.current,
    log: options.log,
    command: options.command ?? DEFAULT_COMMAND,
    stopping: () => state.stopping,
    run: (effect, signal) => runtime(Effect.scoped(effect), { signal }),
  })
  // Plain HTTP/1.1 (no serverOptions), so the node:http Server it makes is what it is typed as here.
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  // A connection that answers while the server stops is not kept alive for another request.
  server.on("request", (request, response) => response.once("finish", () => state.stopping && request.socket.end()))
  const port = yield* bind(server, options)
  for (const host of options.hosts(port)) hosts.add(host)
  state.console = ConsoleUrl.of(urlOf(options.hostname, port))

  const stop = (between: Effect.Effect<void>) =>
    Effect.gen(function* () {
      if (state.stopping) return
      state.stopping = true
      // Settles once the last connection ended (server.listening is false from here on, so it cannot tell).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      yield* Effect.promise(() => mcp.close())
      yield* between
      yield* Effect.promise(() => {
        const cut = setTimeout(() => server.closeAllConnections(), options.drainMs)
        return closed.finally(() => clearTimeout(cut))
      })
    })
  // Interrupted before `stop` ran (the caller's scope closed): no listener is left behind.
  yield* Effect.addFinalizer(() =>
    state.stopping
      ? Effect.void
      : Effect.sync(() => {
          state.stopping = true
          server.close()
          server.closeAllConnections()
        }).pipe(Effect.andThen(Effect.promise(() => mcp.close()))),
  )

  return { port, url: urlOf(options.hostname, port), stop } satisfies Listening
})
