/**
 * The Hono app of `toolgate serve`: the guard first (guard.ts: Host, target, Origin, token), then
 * `/health`, the OpenAPI document, the event stream, MCP, and every route of the table. A route's
 * query and body are decoded with its own schemas before its handler runs, and a failure to decode
 * is 400 with the schema's message; the database down is 503 naming it (storage/sql.ts); anything unexpected is 500 with a fixed message, never a
 * stack trace. No CORS headers are sent. OpenCode's SDK sends `location[directory]`; it is read
 * as `directory`.
 */
export * as ServerApp from "./app.js"

import { Effect, Schema, type Scope } from "effect"
import { Hono } from "hono"
import type { Context } from "hono"
import { bodyLimit } from "hono/body-limit"
import { Sql } from "../storage/sql.js"
import { ServerBody } from "./body.js"
import { ServerConsole } from "./console.js"
import { ServerGuard } from "./guard.js"
import type { ServerHub } from "./hub.js"
import { JsonDepth } from "../json-depth.js"
import { ServerOpenApi } from "./openapi.js"
import { ServerRoute } from "./route.js"

/** The largest JSON body a route reads (a write's content, a patch). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/**
 * The deepest a JSON body may nest arrays and objects. A tool's input is a few levels deep; what
 * nests tens of thousands deep overflows the stack of whatever walks it after parsing (a 500).
 */
export const MAX_JSON_DEPTH = JsonDepth.MAX

export const Messages = {
  invalidJson: (detail: string) => `Invalid JSON body: ${detail}`,
  tooLarge: `Request body too large (more than ${MAX_BODY_BYTES} bytes)`,
  tooDeep: `Invalid JSON body: arrays and objects nested more than ${MAX_JSON_DEPTH} deep`,
  noRoute: (method: string, path: string) => `No route ${method} ${path}`,
  internal: "Internal server error: see the server's log",
  stopping: "The server is stopping: it takes no new requests",
} as const

/** Runs a handler's effect in the server's runtime; aborting `signal` interrupts it. */
export type Runner = <A>(effect: Effect.Effect<A, never, ServerHub.Service | Scope.Scope>, signal: AbortSignal) => Promise<A>

export interface Options {
  readonly guard: ServerGuard.Options
  readonly routes: ReadonlyArray<ServerRoute.Route>
  readonly run: Runner
  readonly version: string
  /** `GET /api/event` (events.ts), answered as it is. */
  readonly events?: (request: Request) => Response | Promise<Response>
  /** `/mcp`, every method (Streamable HTTP). */
  readonly mcp?: (request: Request) => Promise<Response>
  /** Whether the server is stopping: then every request gets 503. */
  readonly stopping?: () => boolean
  /** Where unexpected errors are reported (never to the client). */
  readonly log: (line: string) => void
  /** Whose lines those are: `toolgate serve` when absent (`toolgate mcp` serves a console too). */
  readonly command?: string
}

const send = (c: Context, reply: ServerRoute.Reply) => (reply.status === 204 ? c.body(null, 204) : c.json(reply.body ?? null, reply.status as 200))

/** The query as strings, OpenCode's `location[directory]` read as `directory`. */
const queryOf = (c: Context): Record<string, string> => {
  const query = c.req.query()
  const { ["location[directory]"]: located, ...rest } = query
  return located !== undefined && rest.directory === undefined ? { ...rest, directory: located } : rest
}

type Decoded<A> = { readonly value: A } | { readonly refused: ServerRoute.Reply }

const TOO_LARGE = ServerRoute.error(413, "InvalidRequestError", Messages.tooLarge)

/** The JSON body, `{}` when there is none, or the reply saying it is too large or not JSON. */
const bodyOf = async (c: Context): Promise<Decoded<unknown>> => {
  const read = await ServerBody.read(c.req, MAX_BODY_BYTES)
  if ("tooLarge" in read) return { refused: TOO_LARGE }
  const text = read.text
  if (text.trim() === "") return { value: {} }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // JSON.parse reports bad input only by throwing; its message names the position.
    return { refused: ServerRoute.invalid(Messages.invalidJson((error as Error).message)) }
  }
  // JSON.parse takes any depth; what walks the value after it (the schemas) would overflow.
  return JsonDepth.deeperThan(value, MAX_JSON_DEPTH) ? { refused: ServerRoute.invalid(Messages.tooDeep) } : { value }
}

/** Decodes `value` with `schema`, or the 400 reply naming what is wrong. */
const decode = <A>(schema: Schema.Codec<A, unknown> | undefined, value: unknown, field: string): Effect.Effect<Decoded<A>> =>
  schema === undefined
    ? Effect.succeed({ value: undefined as A })
    : Schema.decodeUnknownEffect(schema)(value).pipe(
        Effect.map((decoded) => ({ value: decoded })),
        Effect.catch((error) => Effect.succeed({ refused: ServerRoute.invalid(error.message, field) })),
      )

const handler = (route: ServerRoute.Route, run: Runner) => async (c: Context) => {
  const body = route.body === undefined ? { value: undefined } : await bodyOf(c)
  if ("refused" in body) return send(c, body.refused)
  const program = Effect.gen(function* () {
    const query = yield* decode(route.query, queryOf(c), "query")
    if ("refused" in query) return query.refused
    const decoded = yield* decode(route.body, body.value, "body")
    if ("refused" in decoded) return decoded.refused
    return yield* route.handle({ params: c.req.param() as Record<string, string>, query: query.value, body: decoded.value, signal: c.req.raw.signal })
  })
  const signal = c.req.raw.signal
  // A client that went away interrupted its call; there is nobody left to answer.
  const reply = await run(program, signal).catch((error: unknown) => {
    if (signal.aborted) return { status: 499 }
    throw error
  })
  return send(c, reply)
}

/**
 * The app for `options`.
 * @example serve({ fetch: ServerApp.make(options).fetch, port: 4096, hostname: "127.0.0.1" })
 */
export const make = (options: Options): Hono => {
  const app = new Hono()
  app.use(async (c, next) => {
    const refusal = ServerGuard.check({ path: c.req.path, url: c.req.url, header: (name) => c.req.header(name) }, options.guard)
    if (refusal !== undefined) return c.json({ _tag: refusal.tag, message: refusal.message }, refusal.status)
    if (options.stopping?.() === true) return c.json({ _tag: "ServerStoppingError", message: Messages.stopping }, 503)
    return next()
  })
  app.get("/health", (c) => c.json({ healthy: true, version: options.version }))
  const consoleFile = ServerConsole.reader()
  for (const route of ServerConsole.PATHS)
    app.get(route, (c) => {
      const found = consoleFile(c.req.path)
      if (found === undefined || "missing" in found) return c.json({ _tag: "ConsoleNotBuiltError", message: found?.missing ?? Messages.noRoute("GET", c.req.path) }, 503)
      return c.body(new Uint8Array(found.body), 200, { ...ServerConsole.HEADERS, "content-type": found.type })
    })
  app.get("/api/doc", (c) => c.json(ServerOpenApi.document(options.routes, options.version)))
  const events = options.events
  if (events !== undefined) app.get("/api/event", (c) => events(c.req.raw))
  const mcp = options.mcp
  // The table's routes read their bodies bounded (body.ts); MCP's transport reads the web Request itself.
  if (mcp !== undefined) app.all("/mcp", bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => send(c, TOO_LARGE) }), (c) => mcp(c.req.raw))
  for (const route of options.routes) app.on(route.method, route.path, handler(route, options.run))
  app.notFound((c) => c.json({ _tag: "NotFoundError", message: Messages.noRoute(c.req.method, c.req.path) }, 404))
  app.onError((error, c) => {
    options.log(`${options.command ?? "toolgate serve"}: ${c.req.method} ${c.req.path} failed: ${error.message}`)
    // The database down: a failure the caller can wait out, named as it is; nothing was decided without its record.
    const unavailable = Sql.unavailableOf(error)
    if (unavailable !== undefined) return c.json({ _tag: unavailable._tag, message: unavailable.message }, 503)
    return c.json({ _tag: "InternalError", message: Messages.internal }, 500)
  })
  return app
}
