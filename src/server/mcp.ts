/**
 * MCP Streamable HTTP at `/mcp` (same token as every route): `?directory=` (default where serve
 * started), `?agent=`, `?session=` and `?model=` choose the endpoint. One endpoint is one toolgate
 * session, made on the first request naming that directory, agent, session and model and kept
 * until the server stops; without `?session=` every client of that directory and agent shares the
 * one session the server made (its id is in the instructions), so a client that wants its own
 * passes `?session=`. Current (2026-07-28) clients are served per request with sealed
 * `requestState` across input_required rounds; 2025-era clients by the SDK's stateless legacy
 * leg, where a form cannot come back on a later request, so their asks follow `mcp.on_ask`
 * (reject by default): never an automatic allow, never a hang. With `on_ask: "console"` they wait
 * for a person in this server's own console, as `toolgate mcp` waits in the one it starts.
 */
export * as ServerMcp from "./mcp.js"

import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server"
import { Effect, Exit, Scope } from "effect"
import { McpServing } from "../mcp/serving.js"
import { SessionTurn } from "../session/turn.js"
import { ServerHub } from "./hub.js"
import { ServerRoute } from "./route.js"

interface Endpoint {
  readonly http: McpHttpHandler
  readonly scope: Scope.Closeable
}

export interface Options {
  readonly log: (line: string) => void
  /**
   * The console this server serves at `/`, without its token (known once the port is bound):
   * with `mcp.on_ask: "console"` an ask the client cannot show waits there for a person.
   */
  readonly console: () => string | undefined
  /** The command whose log lines these are (`toolgate serve`, `toolgate mcp`). */
  readonly command: string
}

/** The query that chooses an endpoint. */
const keyOf = (url: URL) => JSON.stringify(["directory", "agent", "session", "model"].map((name) => url.searchParams.get(name)))

const replyOf = (reply: ServerRoute.Reply) => Response.json(reply.body, { status: reply.status })

/**
 * The `/mcp` handler: runs its Effects with `run` (the server's runtime, ServerHub in context).
 * `close` ends every endpoint (their sessions' calls end with their Locations).
 */
export const make = (run: <A>(effect: Effect.Effect<A, never, ServerHub.Service | Scope.Scope>) => Promise<A>, options: Options) => {
  const endpoints = new Map<string, Promise<Endpoint | ServerRoute.Reply>>()

  const open = (url: URL) =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const built = yield* Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(url.searchParams.get("directory") ?? undefined)
        const agent = url.searchParams.get("agent")
        const id = url.searchParams.get("session")
        const model = url.searchParams.get("model")
        return yield* Effect.gen(function* () {
          const session = yield* SessionTurn.session({ ...(agent === null ? {} : { agent }), ...(id === null ? {} : { id }) })
          const console = options.console()
          return yield* McpServing.open({ session, clientMayAnswer: true, ...(model === null ? {} : { model }), ...(console === undefined ? {} : { console: { url: console } }) })
        }).pipe(Effect.provideContext(handle.context))
      }).pipe(Scope.provide(scope), Effect.exit)
      if (Exit.isFailure(built)) {
        yield* Scope.close(scope, Exit.void)
        const error = built.cause.reasons.find((reason) => reason._tag === "Fail")
        const failure = error?._tag === "Fail" ? (error.error as { readonly _tag: string; readonly message: string }) : undefined
        if (failure !== undefined && failure._tag.startsWith("ServerHub.")) return ServerHub.reply(failure as ServerHub.Error)
        return ServerRoute.invalid(failure?.message ?? "The MCP endpoint could not be opened")
      }
      const http = createMcpHandler(built.value.server.factory, { legacy: "stateless", onerror: (error) => options.log(`${options.command}: /mcp: ${error.message}`) })
      yield* Scope.addFinalizer(scope, Effect.promise(() => http.close()))
      const endpoint: Endpoint = { http, scope }
      return endpoint
    })

  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const key = keyOf(url)
    const pending = endpoints.get(key) ?? run(open(url))
    endpoints.set(key, pending)
    const endpoint = await pending
    if (!("http" in endpoint)) {
      endpoints.delete(key)
      return replyOf(endpoint)
    }
    return endpoint.http.fetch(request)
  }

  const close = async () => {
    const all = await Promise.all(endpoints.values())
    endpoints.clear()
    await Promise.all(all.map((endpoint) => ("scope" in endpoint ? run(Scope.close(endpoint.scope, Exit.void)) : undefined)))
  }

  return { fetch, close }
}

