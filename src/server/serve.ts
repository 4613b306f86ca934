/**
 * `toolgate serve`'s lifetime (issue 17, items 1, 2 and 5): one process that hosts many Locations
 * over HTTP on one port. It takes its token (random, or `TOOLGATE_SERVER_TOKEN`), refuses to bind
 * beyond loopback unless `--hostname` was given and the token comes from the environment, reads
 * the allowed roots from the global and explicit config files, listens, prints one line, and
 * serves until `until` ends (the first SIGINT or SIGTERM). Then it stops gracefully: new requests
 * get 503, every Location closes (pending asks and questions are declined saying the server
 * stopped, running calls are interrupted and their process groups killed), the remaining
 * connections are closed and the database is closed with the process layer. Every bus event is
 * stored by the event log from the start and streamed at `/api/event` (sse.ts).
 */
export * as ServerServe from "./serve.js"

import os from "node:os"
import { Context, Effect, Exit, Layer, Schema, Scope } from "effect"
import { Config } from "../config.js"
import type { Directories } from "../directories.js"
import { Interaction } from "../interaction/interaction.js"
import { Location } from "../location/location.js"
import { Locations } from "../locations.js"
import { ToolgateProcess } from "../process.js"
import { ConsoleUrl } from "./console-url.js"
import { ServerGuard } from "./guard.js"
import { EventLog } from "./event-log.js"
import { ServerHub } from "./hub.js"
import { ServerListen } from "./listen.js"
import { ServerToken } from "./token.js"
import { Tracing } from "../tracing.js"

export const DEFAULT_PORT = 4096
export const DEFAULT_HOSTNAME = "127.0.0.1"

/** How long requests still running after the Locations closed may take to answer before their connections are cut. */
export const DRAIN_MS = 2_000

export const Messages = {
  listening: (url: string, token: string | undefined) =>
    token === undefined
      ? `toolgate serve: listening on ${url} (console: ${ConsoleUrl.of(url)}, token: from ${ServerToken.ENV}); send it as Authorization: Bearer <token>`
      : `toolgate serve: listening on ${url} (console: ${ConsoleUrl.of(url, token)}); send the token in it as Authorization: Bearer <token>`,
  exposed: (hostname: string) => `Warning: toolgate serve listens on ${hostname}, beyond this machine: anyone who reaches it with the token can run tools here`,
  stopping: "toolgate serve: stopping: new requests are refused, pending asks declined, running calls stopped (send the signal again to exit at once)",
  stopped: "toolgate serve: stopped",
} as const

export class ExposedError extends Schema.TaggedError<ExposedError>()("ServerServe.ExposedError", { hostname: Schema.String, given: Schema.Boolean }) {
  override get message() {
    return this.given
      ? `toolgate serve: binding ${this.hostname} exposes the server beyond this machine: set ${ServerToken.ENV} to a token of your own first`
      : `toolgate serve: binding ${this.hostname} needs --hostname given explicitly and ${ServerToken.ENV} set`
  }
}

export class TokenError extends Schema.TaggedError<TokenError>()("ServerServe.TokenError", { detail: Schema.String }) {
  override get message() {
    return `toolgate serve: ${this.detail}`
  }
}

export const ListenError = ServerListen.ListenError
export type ListenError = ServerListen.ListenError

/** Where a person opens the console from another device (`--qr`), and whether its fragment holds the token. */
export interface ConsoleAddress {
  /** `ConsoleUrl.of` of an address another device can reach; undefined when this machine has none. */
  readonly url: string | undefined
  /** False when the token came from the environment: it is never printed, so the page asks for it. */
  readonly tokenShown: boolean
}

export interface Options {
  readonly port: number
  readonly hostname: string
  /** Whether `--hostname` was given (a bind beyond loopback needs it). */
  readonly hostnameGiven: boolean
  /** Where serve started: the default directory, and the default allowed root. */
  readonly root: string
  /** `--config F`, absolute. */
  readonly config?: string
  readonly environment: Directories.Environment
  readonly log: (line: string) => void
  /** Serves until this ends. */
  readonly until: Effect.Effect<void>
  /** Called once the server listens, with its URL (tests, embedding). */
  readonly onListening?: (url: string) => void
  /** Called once after the listening line, with the console's address for another device (`--qr`). */
  readonly onConsole?: (address: ConsoleAddress) => Effect.Effect<void>
}

const WILDCARDS = ["0.0.0.0", "::", "[::]"]

/** The Host values of the server: for a wildcard bind, every address of this machine and its name. */
const hostsOf = (hostname: string, port: number): ReadonlySet<string> => {
  if (!WILDCARDS.includes(hostname)) return ServerGuard.hostsFor(hostname, port)
  const addresses = Object.values(os.networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address))
  return new Set([os.hostname(), ...addresses].flatMap((address) => [...ServerGuard.hostsFor(address, port)]))
}

/** The real paths of the roots the server may open: `server.directories` of the trusted files, else the root. */
const allowedRoots = Effect.fnUntraced(function* (options: Options) {
  const info = yield* Config.load({ location: options.root, environment: options.environment, ...(options.config === undefined ? {} : { explicit: options.config }) })
  const listed = info.server.directories ?? [options.root]
  return yield* Effect.forEach(listed, (directory) => Location.resolve(directory))
})

/**
 * The host another device on the network reaches: the bound address, or for a wildcard bind the
 * first non-internal IPv4 address of this machine (undefined when it has none).
 * @example ServerServe.reachableHost("0.0.0.0", os.networkInterfaces()) // "192.168.1.20"
 */
export const reachableHost = (hostname: string, interfaces: ReturnType<typeof os.networkInterfaces>): string | undefined => {
  if (!WILDCARDS.includes(hostname)) return hostname
  return Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === "IPv4" && !entry.internal)?.address
}

/** Serves until `options.until` ends, then stops gracefully. */
export const serve = Tracing.fn("ServerServe.serve")(function* (options: Options) {
  const fromEnvironment = ServerToken.fromEnvironment(options.environment.env)
  if (fromEnvironment !== undefined && "error" in fromEnvironment) return yield* new TokenError({ detail: fromEnvironment.error })
  const loopback = ServerGuard.isLoopback(options.hostname)
  if (!loopback && (!options.hostnameGiven || fromEnvironment === undefined)) return yield* new ExposedError({ hostname: options.hostname, given: options.hostnameGiven })
  const token = fromEnvironment?.token ?? ServerToken.generate()
  // The token is the person's, never a tool call's: no process the server starts inherits it.
  ServerToken.withhold(process.env)
  const environment: Directories.Environment = { ...options.environment, env: ServerToken.without(options.environment.env) }
  const root = yield* Location.resolve(options.root)
  const allowed = yield* allowedRoots({ ...options, environment, root })

  const scope = yield* Scope.make()
  yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void))
  const context = yield* Layer.buildWithScope(
    ServerHub.layer({ root, allowed, ...(options.config === undefined ? {} : { config: options.config }) }).pipe(
      Layer.provideMerge(Locations.layer({ environment })),
      // The log subscribes before any Location opens, so it stores every event from the start.
      Layer.provideMerge(EventLog.layer()),
      Layer.provideMerge(ToolgateProcess.layer({ environment })),
    ),
    scope,
  )
  const listening = yield* ServerListen.start({
    port: options.port,
    hostname: options.hostname,
    token,
    hosts: (port) => hostsOf(options.hostname, port),
    context,
    log: options.log,
    drainMs: DRAIN_MS,
  })
  const url = listening.url
  if (!loopback) options.log(Messages.exposed(options.hostname))
  options.log(Messages.listening(url, fromEnvironment === undefined ? token : undefined))
  options.onListening?.(url)
  if (options.onConsole !== undefined) {
    const host = reachableHost(options.hostname, os.networkInterfaces())
    const shown = fromEnvironment === undefined ? token : undefined
    yield* options.onConsole({ url: host === undefined ? undefined : ConsoleUrl.of(ServerListen.urlOf(host, listening.port), shown), tokenShown: shown !== undefined })
  }

  yield* options.until
  // Declines every pending ask and question, interrupts running calls (bash kills its groups).
  yield* listening.stop(Context.get(context, Locations.Service).closeAll(Interaction.Reasons.serverStopped))
  yield* Scope.close(scope, Exit.void)
  options.log(Messages.stopped)
})
