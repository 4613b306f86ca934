/**
 * One MCP endpoint over one toolgate session, whatever carries it (stdio.ts, the server's `/mcp`):
 * the session's `McpSession`, the SDK server over it (server.ts), and `tools/list_changed` sent
 * when a registration changes the catalog, for as long as the caller's scope lasts. The carrier
 * chooses the session and owns the transport.
 */
export * as McpServing from "./serving.js"

import { Effect, FiberSet, Stream } from "effect"
import { Bus } from "../bus.js"
import { Config } from "../config.js"
import type { Runtime } from "../runtime.js"
import type { Session } from "../session.js"
import { ApplicationTools } from "../tool/application-tools.js"
import { Version } from "../version.js"
import { McpRequestState } from "./request-state.js"
import { McpServer } from "./server.js"
import { McpSession } from "./session.js"

/** One key per process: a state sealed by another toolgate process is refused. */
const sealer = McpRequestState.make()

export interface Options {
  readonly session: Session.Info
  readonly model?: string
  /** Whether the client may answer asks: false inside a toolgate tool call (session.ts). */
  readonly clientMayAnswer: boolean
  /** The console asks wait in with `mcp.on_ask: "console"` (console.ts). */
  readonly console?: { readonly url: string }
  /** Called at every tools/list and tools/call: the connection is in use (not a probe). */
  readonly onRequest?: () => void
}

/** The endpoint's session view and SDK server, live for the caller's scope. */
export const open = Effect.fnUntraced(function* (options: Options) {
  const config = yield* Config.Service
  const mcp = yield* McpSession.make({
    session: options.session,
    onAsk: config.mcp.on_ask ?? "reject",
    askTimeoutMs: config.mcp.ask_timeout ?? McpSession.DEFAULT_ASK_TIMEOUT_MS,
    sealer,
    clientMayAnswer: options.clientMayAnswer,
    ...(options.console === undefined ? {} : { console: options.console }),
    ...(options.model === undefined ? {} : { model: options.model }),
  })
  const run = yield* FiberSet.makeRuntimePromise<Runtime.Services>()
  const server = McpServer.make(mcp, (effect, signal) => run(effect, signal === undefined ? undefined : { signal }), {
    version: Version.current,
    ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
  })
  const changes = yield* (yield* Bus.Service).on(ApplicationTools.Changed)
  yield* changes.pipe(Stream.runForEach(() => Effect.promise(() => server.changed())), Effect.forkScoped)
  return { mcp, server }
})
