/**
 * Serves one MCP connection in the Location in context: a new toolgate session (of `agent`; or
 * the one a probing sibling process reserved, reservation.ts), its
 * `McpSession`, the SDK server over it on stdio (or on the transport given, for in-process use),
 * `tools/list_changed` when a registration changes the catalog, until `until` ends or the scope
 * closes. Closing stops the transport; the Location's closing ends the session's asks and calls.
 */
export * as McpStdio from "./stdio.js"

import type { Transport } from "@modelcontextprotocol/server"
import { serveStdio } from "@modelcontextprotocol/server/stdio"
import { Effect } from "effect"
import { Location } from "../location/location.js"
import { SessionTurn } from "../session/turn.js"
import { McpReservation } from "./reservation.js"
import { McpServing } from "./serving.js"

export const Messages = {
  serving: (sessionID: string, directory: string) => `toolgate mcp: serving session ${sessionID} in ${directory} on stdio`,
  insideToolCall: "toolgate mcp: started inside a toolgate tool call (TOOLGATE_TOOL_CALL is set): the client cannot answer asks, mcp.on_ask does",
} as const

export interface Options {
  readonly agent?: string
  readonly model?: string
  /** Another transport than this process's stdin and stdout (tests, embedding). */
  readonly transport?: Transport
  /** Serves until this ends (the client closed standard input). */
  readonly until: Effect.Effect<void>
  /** Where the one line saying what is served goes (stderr). */
  readonly log: (line: string) => void
  /** Whether the client may answer asks: false inside a toolgate tool call (session.ts). */
  readonly clientMayAnswer?: boolean
  /** The console asks wait in with `mcp.on_ask: "console"` (console.ts). */
  readonly console?: { readonly url: string }
  /** The folder of session reservations (reservation.ts); none: every process has a new session. */
  readonly reservations?: string
  /** The process that started this server, which a reservation names (default: this process's parent). */
  readonly parent?: number
}

export const serve = Effect.fnUntraced(function* (options: Options) {
  const location = yield* Location.Service
  const reservation =
    options.reservations === undefined ? undefined : McpReservation.make({ folder: options.reservations, directory: location.directory, agent: options.agent ?? "", ...(options.parent === undefined ? {} : { parent: options.parent }) })
  const agent = options.agent === undefined ? {} : { agent: options.agent }
  const adopted = reservation?.adopted
  const session = yield* (adopted === undefined
    ? SessionTurn.session(agent)
    : SessionTurn.session({ ...agent, id: adopted }).pipe(Effect.catch(() => SessionTurn.session(agent))))
  reservation?.record(session.id)
  const { mcp, server } = yield* McpServing.open({
    session,
    clientMayAnswer: options.clientMayAnswer ?? true,
    onRequest: () => reservation?.withdraw(),
    ...(options.console === undefined ? {} : { console: options.console }),
    ...(options.model === undefined ? {} : { model: options.model }),
  })
  const stdio = serveStdio(server.factory, { onerror: (error) => options.log(error.message), ...(options.transport === undefined ? {} : { transport: options.transport }) })
  yield* Effect.addFinalizer(() => Effect.promise(() => stdio.close()))
  options.log(Messages.serving(session.id, mcp.directory))
  if (options.clientMayAnswer === false) options.log(Messages.insideToolCall)
  yield* options.until
  return session
})
