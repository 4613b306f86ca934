/**
 * The console of `toolgate mcp` with `mcp.on_ask: "console"` (issue 18): the HTTP server
 * (server/listen.ts) in this very process, over the Locations its stdio session uses, so an ask
 * the session leaves pending is the one `GET /api/session/:id/permission` lists, a reply answers
 * and `/api/event` streams. It binds 127.0.0.1 on a free port with a random token, prints the
 * console's address (the token in the fragment) once to stderr, and stops with the caller's scope
 * (standard input closed, a signal), leaving no listener. A separate `toolgate serve` could not
 * see this process's pending asks, so none is used (docs/decisions.md).
 */
export * as McpConsole from "./console.js"

import { Context, Effect, Layer } from "effect"
import { ConsoleUrl } from "../server/console-url.js"
import { EventLog } from "../server/event-log.js"
import { ServerGuard } from "../server/guard.js"
import { ServerHub } from "../server/hub.js"
import { ServerListen } from "../server/listen.js"
import { ServerToken } from "../server/token.js"
import type { Locations } from "../locations.js"
import type { ToolgateProcess } from "../process.js"
import type { SandboxMode } from "../sandbox/mode.js"

/** Whose lines the console's errors are. */
const COMMAND = "toolgate mcp"

/** Only this machine: the console answers asks, so nothing beyond loopback may reach it. */
export const HOSTNAME = "127.0.0.1"

/** How long a console page still connected when mcp stops may keep its connection. */
export const DRAIN_MS = 200

export const Messages = {
  listening: (link: string) => `toolgate mcp: asks this client cannot show wait for a person in the toolgate console: ${link}`,
} as const

export interface Options {
  /** The Location's real directory: the console's root and only allowed directory. */
  readonly directory: string
  /** `--config F`, absolute: the Location is opened with it, so the console's requests find the same one. */
  readonly config?: string
  /** `--sandbox <mode>`, as the stdio session's Location was opened with it. */
  readonly sandbox?: SandboxMode.Mode
  /** The process whose Locations the stdio session uses. */
  readonly hosting: Context.Context<Locations.Service | ToolgateProcess.Services>
  readonly log: (line: string) => void
}

export interface Console {
  /** The console's address without the token: what the model may read. */
  readonly url: string
}

/** Serves the console for the caller's scope. */
export const start = Effect.fnUntraced(function* (options: Options) {
  const token = ServerToken.generate()
  const context = yield* Layer.build(
    ServerHub.layer({
      root: options.directory,
      allowed: [options.directory],
      ...(options.config === undefined ? {} : { config: options.config }),
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    }).pipe(
      Layer.provideMerge(EventLog.layer()),
    ),
  ).pipe(Effect.provideContext(options.hosting))
  const listening = yield* ServerListen.start({
    port: 0,
    hostname: HOSTNAME,
    token,
    hosts: (port) => ServerGuard.hostsFor(HOSTNAME, port),
    context,
    log: options.log,
    drainMs: DRAIN_MS,
    command: COMMAND,
  })
  yield* Effect.addFinalizer(() => listening.stop(Effect.void))
  options.log(Messages.listening(ConsoleUrl.of(listening.url, token)))
  return { url: ConsoleUrl.of(listening.url) } satisfies Console
})
