/**
 * `toolgate serve`'s lifetime in process (issue 17, items 1 and 2): the refusals before anything
 * binds (beyond loopback without --hostname or without a token of one's own, a short token, a
 * port in use), the token taken from the environment and then never printed, and the graceful
 * stop: pending asks declined and questions ended saying the server stopped, a running command
 * and its process group killed, the port closed, the database left so the next start opens it.
 */
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { Interaction } from "../../src/interaction/interaction.js"
import { Locations } from "../../src/locations.js"
import { Permission } from "../../src/permission/permission.js"
import { Question } from "../../src/question.js"
import { ServerServe } from "../../src/server/serve.js"
import { ServerToken } from "../../src/server/token.js"
import { QuestionTool } from "../../src/tool/builtin/question.js"
import { guardMarker, marker, withMarker } from "../lib/process-group.js"
import { DATABASE } from "../lib/questions.js"
import { ASK_BASH, call, environmentOf, folders, pendingOf, send, session, start, waitFor } from "../lib/server.js"

const OWN = "a-token-of-my-own-choosing"

/** Runs serve with `options` over fresh folders, expecting it to fail before it listens. */
const refused = (options: Partial<ServerServe.Options> & { readonly env?: Record<string, string> }) =>
  Effect.gen(function* () {
    const { base, home, root } = yield* folders
    const log: string[] = []
    const error = yield* Effect.scoped(
      ServerServe.serve({
        port: 0,
        hostname: "127.0.0.1",
        hostnameGiven: false,
        root,
        environment: environmentOf(base, home, options.env),
        log: (line) => log.push(line),
        until: Effect.never,
        ...options,
      }),
    ).pipe(Effect.flip)
    return { error, log }
  })

describe("ServerServe", () => {
  it.live("refuses to bind beyond loopback unless --hostname was given and the token comes from the environment", () =>
    Effect.gen(function* () {
      const implicit = yield* refused({ hostname: "0.0.0.0", hostnameGiven: false, env: { [ServerToken.ENV]: OWN } })
      expect(implicit).toEqual({ error: new ServerServe.ExposedError({ hostname: "0.0.0.0", given: false }), log: [] })
      expect(implicit.error.message).toBe("toolgate serve: binding 0.0.0.0 needs --hostname given explicitly and TOOLGATE_SERVER_TOKEN set")
      const tokenless = yield* refused({ hostname: "0.0.0.0", hostnameGiven: true })
      expect(tokenless).toEqual({ error: new ServerServe.ExposedError({ hostname: "0.0.0.0", given: true }), log: [] })
      expect(tokenless.error.message).toBe("toolgate serve: binding 0.0.0.0 exposes the server beyond this machine: set TOOLGATE_SERVER_TOKEN to a token of your own first")
      expect((yield* refused({ hostname: "192.168.1.5", hostnameGiven: true })).error).toEqual(new ServerServe.ExposedError({ hostname: "192.168.1.5", given: true }))
    }))

  it.live("refuses a token from the environment that is too short, on loopback too", () =>
    Effect.gen(function* () {
      const short = yield* refused({ env: { [ServerToken.ENV]: "short" } })
      expect(short).toEqual({ error: new ServerServe.TokenError({ detail: ServerToken.Messages.tooShort }), log: [] })
      expect(short.error.message).toBe(`toolgate serve: ${ServerToken.Messages.tooShort}`)
    }))

  it.live("says it cannot listen on a port in use", () =>
    Effect.gen(function* () {
      const taken = yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<ReturnType<typeof createServer>>((resolve) => { const server = createServer(); server.listen(0, "127.0.0.1", () => resolve(server)) })),
        (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve()))),
      )
      const port = (taken.address() as AddressInfo).port
      const { error, log } = yield* refused({ port })
      expect(error._tag).toBe("ServerServe.ListenError")
      const listen = error as ServerServe.ListenError
      expect(listen.address).toBe(`127.0.0.1:${port}`)
      expect(listen.message).toBe(`toolgate serve: cannot listen on 127.0.0.1:${port}: ${listen.detail}`)
      // The console toolgate mcp serves listens the same way, and its failure names mcp.
      expect(new ServerServe.ListenError({ address: listen.address, detail: listen.detail, command: "toolgate mcp" }).message).toBe(`toolgate mcp: cannot listen on 127.0.0.1:${port}: ${listen.detail}`)
      expect(log).toEqual([])
    }))

  it.live("takes the token from TOOLGATE_SERVER_TOKEN and does not print it", () =>
    Effect.gen(function* () {
      const server = yield* start({ env: { [ServerToken.ENV]: OWN } })
      expect(server.log).toEqual([ServerServe.Messages.listening(server.url, undefined)])
      expect(server.log[0]).toBe(`toolgate serve: listening on ${server.url} (console: ${server.url}/, token: from TOOLGATE_SERVER_TOKEN); send it as Authorization: Bearer <token>`)
      const answer = yield* Effect.promise(() => send(`${server.url}/api/session`, { headers: { authorization: `Bearer ${OWN}` } }))
      expect(answer.status).toBe(200)
    }))

  it.live("prints one line with the URL and a random token", () =>
    Effect.gen(function* () {
      const server = yield* start()
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(server.log).toEqual([ServerServe.Messages.listening(server.url, server.token)])
      expect(server.log[0]).toBe(`toolgate serve: listening on ${server.url} (console: ${server.url}/#token=${server.token}); send the token in it as Authorization: Bearer <token>`)
    }))

  it.live("stops gracefully: asks declined and questions ended saying so, a running command killed, the port closed", () =>
    Effect.gen(function* () {
      const token = marker()
      yield* guardMarker(token)
      const server = yield* start()
      const asking = yield* session(server, { rules: ASK_BASH })
      const running = yield* session(server)
      const ask = call(server, asking, "bash", { command: "echo hi" })
      const question = call(server, asking, QuestionTool.name, { questions: [DATABASE] })
      const sleeping = call(server, running, "bash", { command: `sleep 417.${token}` })
      yield* pendingOf(server, asking)
      yield* waitFor(() => server.api(`/api/session/${asking}/question`), (answer) => answer.body.data.length === 1)
      yield* Effect.sync(() => withMarker(token).length).pipe(Effect.repeat({ until: (count) => count > 0, schedule: Schedule.spaced("25 millis") }))
      yield* server.stop
      const [asked, questioned, slept] = yield* Effect.promise(() => Promise.all([ask, question, sleeping]))
      expect({ status: asked.status, body: asked.body }).toEqual({
        status: 200,
        body: { kind: "declined", toolCallID: expect.any(String), message: Permission.Messages.unanswered("bash", Interaction.Reasons.serverStopped) },
      })
      expect(asked.body.message).toBe("Permission request for bash ended unanswered: the server stopped")
      expect({ status: questioned.status, body: questioned.body }).toEqual({
        status: 200,
        body: { kind: "dismissed", toolCallID: expect.any(String), message: Question.Messages.unanswered(Interaction.Reasons.serverStopped) },
      })
      // The running call was cut off by its Location closing.
      expect({ status: slept.status, body: slept.body }).toEqual({
        status: 503,
        body: { _tag: "LocationClosedError", message: Locations.Messages.closed(server.root), directory: server.root },
      })
      expect(withMarker(token)).toEqual([])
      expect(server.log).toEqual([ServerServe.Messages.listening(server.url, server.token), ServerServe.Messages.stopped])
      const refusedAfter = yield* Effect.promise(() => fetch(`${server.url}/health`).then(() => "answered", (error: Error & { readonly cause?: { readonly code?: string } }) => error.cause?.code))
      expect(refusedAfter).toBe("ECONNREFUSED")
    }))

  it.live("leaves its database closed and whole: the next start over the same folders finds the session", () =>
    Effect.gen(function* () {
      const first = yield* start()
      const id = yield* session(first)
      yield* first.stop
      const again = yield* start({ folders: { base: first.base, home: first.home, root: first.root } })
      expect(again.token).not.toBe(first.token)
      expect((yield* Effect.promise(() => again.api(`/api/session/${id}/todo`))).body).toEqual({ data: [] })
      expect((yield* Effect.promise(() => again.api("/api/session"))).body.data.map((entry: { readonly id: string }) => entry.id)).toEqual([id])
    }))
})
