/**
 * The app of `toolgate serve` over a real socket (issue 17, item 2): Host and Origin refused with
 * 403 before anything else, the token required on every path but /health, errors in OpenCode V2's
 * `{ _tag, message }` shape and never a stack trace, and no CORS header on any answer. What a real
 * server cannot show on demand (503 while it stops, a handler that throws) goes through the app's
 * own handler (`app.request`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { ServerApp } from "../../src/server/app.js"
import { ServerGuard } from "../../src/server/guard.js"
import { ServerRoute } from "../../src/server/route.js"
import { ServerRoutes } from "../../src/server/routes.js"
import { Version } from "../../src/version.js"
import { jsonError } from "../lib/json.js"
import { raw, send, start } from "../lib/server.js"

const corsHeaders = (headers: Iterable<[string, string]> | Record<string, unknown>) =>
  (Symbol.iterator in headers ? [...(headers as Iterable<[string, string]>)].map(([name]) => name) : Object.keys(headers)).filter((name) => name.toLowerCase().startsWith("access-control-"))

describe("ServerApp over a socket", () => {
  it.live("answers /health without a token, and every other path only with it", () =>
    Effect.gen(function* () {
      const server = yield* start()
      expect(yield* Effect.promise(() => send(`${server.url}/health`).then(({ status, body }) => ({ status, body })))).toEqual({ status: 200, body: { healthy: true, version: Version.current } })
      const unauthorized = { status: 401, body: { _tag: "UnauthorizedError", message: ServerGuard.Messages.unauthorized } }
      expect(yield* Effect.promise(() => send(`${server.url}/api/tool`).then(({ status, body }) => ({ status, body })))).toEqual(unauthorized)
      expect(yield* Effect.promise(() => send(`${server.url}/api/tool`, { headers: { authorization: "Bearer wrong-token-of-some-length" } }).then(({ status, body }) => ({ status, body })))).toEqual(unauthorized)
      expect(yield* Effect.promise(() => send(`${server.url}/api/tool`, { headers: { authorization: `bearer ${server.token}` } }).then(({ status }) => status))).toBe(200)
      // The 401 leaks nothing about the route: an unknown path needs the token first too.
      expect(yield* Effect.promise(() => send(`${server.url}/api/nope`).then(({ status, body }) => ({ status, body })))).toEqual(unauthorized)
    }))

  it.live("reads a body sent in chunks of unknown length (no Content-Length) as it reads a declared one", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const bytes = new TextEncoder().encode(JSON.stringify({ agent: "plan" }))
      const chunked = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, 5))
          controller.enqueue(bytes.slice(5))
          controller.close()
        },
      })
      const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" }
      const answer = yield* Effect.promise(() => send(`${server.url}/api/session`, { method: "POST", headers, body: chunked, duplex: "half" } as RequestInit))
      expect({ status: answer.status, agent: answer.body?.data?.agent }).toEqual({ status: 201, agent: "plan" })
    }))

  it.live("accepts every loopback spelling of its own address as Host, with the token", () =>
    Effect.gen(function* () {
      const server = yield* start()
      for (const host of ["127.0.0.1", "localhost", "[::1]", "LocalHost"]) {
        const answer = yield* Effect.promise(() => raw(server.port, "/api/session", { host: `${host}:${server.port}`, authorization: `Bearer ${server.token}` }))
        expect({ host, status: answer.status }).toEqual({ host, status: 200 })
      }
    }))

  it.live("refuses a rebinding Host and a foreign Origin with 403, even with the token and on /health", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const own = `127.0.0.1:${server.port}`
      const auth = `Bearer ${server.token}`
      const cases: ReadonlyArray<readonly [path: string, headers: Record<string, string>, message: string]> = [
        ["/api/tool", { host: `evil.example:${server.port}`, authorization: auth }, ServerGuard.Messages.host(`evil.example:${server.port}`)],
        ["/api/tool", { host: `127.0.0.1:${server.port + 1}`, authorization: auth }, ServerGuard.Messages.host(`127.0.0.1:${server.port + 1}`)],
        ["/health", { host: `evil.example:${server.port}` }, ServerGuard.Messages.host(`evil.example:${server.port}`)],
        ["/api/tool", { host: own, origin: "https://evil.example", authorization: auth }, ServerGuard.Messages.origin("https://evil.example")],
        ["/api/tool", { host: own, origin: `https://${own}`, authorization: auth }, ServerGuard.Messages.origin(`https://${own}`)],
        ["/api/tool", { host: own, origin: "null", authorization: auth }, ServerGuard.Messages.origin("null")],
        ["/health", { host: own, origin: "https://evil.example" }, ServerGuard.Messages.origin("https://evil.example")],
      ]
      for (const [path, headers, message] of cases) {
        const answer = yield* Effect.promise(() => raw(server.port, path, headers))
        expect({ headers, status: answer.status, body: answer.body }).toEqual({ headers, status: 403, body: { _tag: "ForbiddenError", message } })
      }
      // The server's own page may call it.
      expect((yield* Effect.promise(() => raw(server.port, "/api/tool", { host: own, origin: `http://${own}`, authorization: auth }))).status).toBe(200)
    }))

  it.live("gets no answer from a route for a request without Host: node refuses it first", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const answer = yield* Effect.promise(() => raw(server.port, "/api/tool", { authorization: `Bearer ${server.token}` }))
      expect(answer.status).toBe(400)
    }))

  it.live("answers an unknown route with 404 in V2's error shape", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const answer = yield* Effect.promise(() => server.api("/api/nope"))
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: { _tag: "NotFoundError", message: ServerApp.Messages.noRoute("GET", "/api/nope") } })
      const wrongMethod = yield* Effect.promise(() => server.api("/api/session", { method: "DELETE" }))
      expect({ status: wrongMethod.status, body: wrongMethod.body }).toEqual({ status: 404, body: { _tag: "NotFoundError", message: ServerApp.Messages.noRoute("DELETE", "/api/session") } })
    }))

  it.live("answers a body that is not JSON with 400 and the parser's message, never a stack", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const answer = yield* Effect.promise(() => server.api("/api/session", { body: "{oops" }))
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: ServerApp.Messages.invalidJson(jsonError("{oops")) } })
    }))

  it.live("sends no Access-Control-Allow-* header on any answer, a preflight included", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const own = `127.0.0.1:${server.port}`
      const preflight = { "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" }
      const answers = yield* Effect.promise(() =>
        Promise.all([
          raw(server.port, "/health", { host: own }),
          raw(server.port, "/api/tool", { host: own, authorization: `Bearer ${server.token}` }),
          raw(server.port, "/api/tool", { host: own }),
          raw(server.port, "/api/nope", { host: own, authorization: `Bearer ${server.token}` }),
          raw(server.port, "/api/tool", { host: own, origin: "https://evil.example" }),
          raw(server.port, "/api/session", { host: own, origin: "https://evil.example", ...preflight }, "OPTIONS"),
          raw(server.port, "/api/session", { host: own, origin: `http://${own}`, ...preflight }, "OPTIONS"),
          raw(server.port, "/api/session", { host: own, origin: `http://${own}`, authorization: `Bearer ${server.token}`, ...preflight }, "OPTIONS"),
        ]),
      )
      expect(answers.map((answer) => [answer.status, corsHeaders(answer.headers)])).toEqual([
        [200, []],
        [200, []],
        [401, []],
        [404, []],
        [403, []],
        [403, []],
        [401, []],
        [404, []],
      ])
    }))

  it.live("never writes the token to its log, nor to the audit log", () =>
    Effect.gen(function* () {
      const server = yield* start()
      yield* Effect.promise(() => server.api("/api/session", { body: { rules: [{ action: "bash", resource: "*", effect: "deny" }] } }))
      const id = (yield* Effect.promise(() => server.api("/api/session", { body: {} }))).body.data.id as string
      yield* Effect.promise(() => server.api(`/api/session/${id}/call`, { body: { call: { name: "bash", input: { command: "echo hi" } } } }))
      yield* Effect.promise(() => send(`${server.url}/api/tool`, { headers: { authorization: "Bearer wrong-token-of-some-length" } }))
      const audit = yield* Effect.promise(() => server.api("/api/audit"))
      expect(audit.body.data.length).toBeGreaterThan(0)
      expect(JSON.stringify(audit.body)).not.toContain(server.token)
      // Only the line printed at start names it, as it must.
      expect(server.log.filter((line) => line.includes(server.token))).toEqual([server.log[0]])
    }))
})

/** An app with no server behind it: its runner is never meant to be reached. */
const appOf = (options: Partial<ServerApp.Options> & { readonly lines?: string[] } = {}) =>
  ServerApp.make({
    guard: { token: "a-token-of-my-own-choosing", hosts: ServerGuard.hostsFor("127.0.0.1", 4096) },
    routes: ServerRoutes.ALL,
    version: Version.current,
    log: (line) => options.lines?.push(line),
    run: () => Promise.reject(new Error("not reached")),
    ...options,
  })

const request = (path: string, init: RequestInit = {}) =>
  new Request(`http://127.0.0.1:4096${path}`, { ...init, headers: { host: "127.0.0.1:4096", authorization: "Bearer a-token-of-my-own-choosing", ...init.headers } })

describe("ServerApp", () => {
  it.live("answers 503 to every request while the server stops, after the guard", () =>
    Effect.gen(function* () {
      const app = appOf({ stopping: () => true })
      const answer = yield* Effect.promise(() => Promise.resolve(app.request(request("/api/tool"))))
      expect({ status: answer.status, body: yield* Effect.promise(() => answer.json()) }).toEqual({ status: 503, body: { _tag: "ServerStoppingError", message: ServerApp.Messages.stopping } })
      const forged = yield* Effect.promise(() => Promise.resolve(app.request(request("/api/tool", { headers: { host: "evil.example:4096" } }))))
      expect(forged.status).toBe(403)
    }))

  it.live("answers a handler that throws with 500 and a fixed message, and logs what happened", () =>
    Effect.gen(function* () {
      const lines: string[] = []
      const boom = ServerRoute.make({ method: "GET", path: "/api/boom", tag: "test", summary: "fails", responses: {}, handle: () => Effect.die(new Error("unused")) })
      const app = appOf({ routes: [boom], lines, run: () => Promise.reject(new Error("a secret detail at /src/x.ts:1")) })
      const answer = yield* Effect.promise(() => Promise.resolve(app.request(request("/api/boom"))))
      expect({ status: answer.status, body: yield* Effect.promise(() => answer.json()) }).toEqual({ status: 500, body: { _tag: "InternalError", message: ServerApp.Messages.internal } })
      expect(lines).toEqual(["toolgate serve: GET /api/boom failed: a secret detail at /src/x.ts:1"])
    }))

  it.live("refuses a body larger than MAX_BODY_BYTES with 413 before reading it", () =>
    Effect.gen(function* () {
      const app = appOf()
      const answer = yield* Effect.promise(() =>
        Promise.resolve(app.request(request("/api/session", { method: "POST", body: "{}", headers: { "content-type": "application/json", "content-length": String(ServerApp.MAX_BODY_BYTES + 1) } }))),
      )
      expect({ status: answer.status, body: yield* Effect.promise(() => answer.json()) }).toEqual({ status: 413, body: { _tag: "InvalidRequestError", message: ServerApp.Messages.tooLarge } })
    }))

  it.live("reads OpenCode's location[directory] as directory, and decodes the query with the route's schema", () =>
    Effect.gen(function* () {
      const seen: unknown[] = []
      const echo = ServerRoute.make({
        method: "GET",
        path: "/api/echo",
        tag: "test",
        summary: "echo",
        query: Schema.Struct({ directory: Schema.optionalKey(Schema.String), other: Schema.optionalKey(Schema.String) }),
        responses: {},
        handle: ({ query }) => Effect.sync(() => (seen.push(query), ServerRoute.NO_CONTENT)),
      })
      const app = appOf({ routes: [echo], run: (effect) => Effect.runPromise(Effect.scoped(effect) as unknown as Effect.Effect<never>) })
      for (const query of ["?location%5Bdirectory%5D=%2Fa", "?directory=%2Fb&location%5Bdirectory%5D=%2Fa", "?other=x"]) yield* Effect.promise(() => Promise.resolve(app.request(request(`/api/echo${query}`))))
      expect(seen).toEqual([{ directory: "/a" }, { directory: "/b" }, { other: "x" }])
    }))
})
