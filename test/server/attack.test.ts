/**
 * Requests found to break serve's contract from outside (2026-12-06 review), each against a real
 * server on a random loopback port: the built executable where the process itself matters (the
 * environment its commands inherit), raw sockets where fetch would normalise the request.
 */
import net from "node:net"
import { mkdir, symlink } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ServerApp } from "../../src/server/app.js"
import { ServerGuard } from "../../src/server/guard.js"
import { ServerHub } from "../../src/server/hub.js"
import { serveProcess } from "../lib/serve-process.js"
import { PermissionRoutes } from "../../src/server/routes/permission.js"
import { ASK_BASH, call, folders, pendingOf, session, start } from "../lib/server.js"
import { connect, type Frame } from "../lib/sse.js"
import { tmpdir } from "../lib/tmp.js"

const TOKEN = "attack-test-token-0123456789abcdef"

/** Sends `text` as it is on a new connection and gives back everything the server answered. */
export const rawRequest = (port: number, text: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    let answer = ""
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8")
    })
    socket.on("end", () => resolve(answer))
    socket.on("error", reject)
    socket.write(text.replaceAll("\n", "\r\n"))
  })

describe("the server's token", () => {
  it.live(
    "is not in the environment of a command the server runs (the model would read it and answer its own asks)",
    () =>
      Effect.gen(function* () {
        const base = yield* tmpdir
        const served = yield* serveProcess({ base, root: path.join(base, "work"), token: TOKEN })
        const created = yield* Effect.promise(() => served.api("/api/session", { body: {} }))
        const sessionID = created.body.data.id as string
        const answer = yield* Effect.promise(() =>
          served.api(`/api/session/${sessionID}/call`, { body: { call: { name: "bash", input: { command: 'echo "[$TOOLGATE_SERVER_TOKEN]"', description: "print the token" } } } }),
        )
        expect(answer.body.kind).toBe("success")
        expect(JSON.stringify(answer.body)).not.toContain(TOKEN)
        expect(answer.body.structured.output).toMatch(/^\[\]\n/)
      }),
    30_000,
  )
})

describe("the event stream", () => {
  /** A server over `secret` that made a session there and stopped, then one over `work` on the same data. */
  const afterAnotherRoot = Effect.gen(function* () {
    const { base, home, root: work } = yield* folders
    const secret = path.join(base, "secret")
    yield* Effect.promise(() => mkdir(secret, { recursive: true }))
    yield* Effect.scoped(
      Effect.gen(function* () {
        const earlier = yield* start({ folders: { base, home, root: secret } })
        yield* Effect.promise(() => earlier.api("/api/session", { body: {} }))
      }),
    )
    const server = yield* start({ folders: { base, home, root: work } })
    return { server, secret, work }
  })

  /** The frames of `url` from its start up to the session.created of a session made after connecting. */
  const framesUntilMarker = (server: Effect.Success<typeof afterAnotherRoot>["server"], route: string) =>
    Effect.gen(function* () {
      const reader = yield* connect(`${server.url}${route}`, { authorization: `Bearer ${server.token}`, "last-event-id": "0" })
      expect(reader.status).toBe(200)
      const marker = (yield* Effect.promise(() => server.api("/api/session", { body: {} }))).body.data.id as string
      const frames: Frame[] = []
      for (;;) {
        const frame = yield* reader.next
        frames.push(frame)
        if (frame.data.type === "toolgate.session.created" && (frame.data.data as { sessionID: string }).sessionID === marker) return frames
      }
    })

  it.live("replays no event of a Location outside the server's roots (the log outlives the server that served it)", () =>
    Effect.gen(function* () {
      const { server, secret } = yield* afterAnotherRoot
      const frames = yield* framesUntilMarker(server, "/api/event")
      expect(frames.length).toBeGreaterThan(1)
      expect(frames.filter((frame) => frame.raw.includes(secret))).toEqual([])
    }),
  )

  it.live("refuses a ?directory= outside the roots with 403, as every route does, a link to it included", () =>
    Effect.gen(function* () {
      const { server, secret, work } = yield* afterAnotherRoot
      yield* Effect.promise(() => symlink(secret, path.join(work, "link-out")))
      for (const directory of [secret, `${work}/../secret`, "link-out", "../secret"]) {
        const answer = yield* Effect.promise(() => server.api(`/api/event?directory=${encodeURIComponent(directory)}`))
        expect(answer.status).toBe(403)
        expect(answer.body).toEqual({ _tag: "ForbiddenError", message: ServerHub.Messages.forbidden(secret), directory: secret })
      }
    }),
  )

  it.live("still streams a directory inside the roots, named relative to where serve started", () =>
    Effect.gen(function* () {
      const { server, work } = yield* afterAnotherRoot
      yield* Effect.promise(() => mkdir(path.join(work, "sub")))
      const frames = yield* framesUntilMarker(server, "/api/event?directory=.")
      expect(frames.at(-1)?.data.location).toEqual({ directory: work })
    }),
  )
})

describe("the request's target", () => {
  it.live("naming another host is refused with 403 though Host is the server's (absolute-form: the target's authority is the request's host)", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const answer = (target: string) =>
        Effect.promise(() => rawRequest(server.port, `GET ${target} HTTP/1.1\nHost: 127.0.0.1:${server.port}\nAuthorization: Bearer ${server.token}\nConnection: close\n\n`))
      const refused = yield* answer("http://evil.example/api/location")
      expect(refused.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden")
      expect(JSON.parse(refused.slice(refused.indexOf("\r\n\r\n") + 4))).toEqual({ _tag: "ForbiddenError", message: ServerGuard.Messages.target("evil.example") })
      // The server's own authority in absolute form is what Host says, and passes.
      expect((yield* answer(`http://127.0.0.1:${server.port}/api/location`)).split("\r\n")[0]).toBe("HTTP/1.1 200 OK")
    }),
  )
})

describe("a body nested deep", () => {
  const nested = (depth: number) => `{"call":{"name":"read","input":{"path":"missing.txt","deep":${"[".repeat(depth)}${"]".repeat(depth)}}}}`
  /** The body that overflowed: the input itself an array 200 000 deep. */
  const overflowing = `{"call":{"name":"read","input":${"[".repeat(200_000)}${"]".repeat(200_000)}}}`

  it.live("is refused with 400 saying so, not a 500 from a stack overflow behind the parser", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const sessionID = (yield* Effect.promise(() => server.api("/api/session", { body: {} }))).body.data.id as string
      const deep = yield* Effect.promise(() => server.api(`/api/session/${sessionID}/call`, { body: overflowing }))
      expect({ status: deep.status, body: deep.body }).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: ServerApp.Messages.tooDeep } })
      expect(ServerApp.Messages.tooDeep).toBe("Invalid JSON body: arrays and objects nested more than 512 deep")
      // The input counts from the body's top: the deepest array allowed is a call away from it.
      const allowed = yield* Effect.promise(() => server.api(`/api/session/${sessionID}/call`, { body: nested(ServerApp.MAX_JSON_DEPTH - 3) }))
      expect({ status: allowed.status, kind: allowed.body.kind }).toEqual({ status: 200, kind: "failed" })
      expect(server.log.filter((line) => line.includes("failed:"))).toEqual([])
    }),
  )
})

describe("a reply to another session's request", () => {
  it.live("is 409 when that session works in another directory of the server, as in the same one", () =>
    Effect.gen(function* () {
      const server = yield* start({ setup: ({ root }) => mkdir(path.join(root, "sub")) })
      const asking = yield* session(server, { rules: ASK_BASH })
      const other = yield* session(server, { directory: "sub" })
      const running = call(server, asking, "bash", { command: "echo hi", description: "greet" })
      const [request] = yield* pendingOf(server, asking)
      const answer = yield* Effect.promise(() => server.api(`/api/session/${other}/permission/${request.id}/reply`, { body: { reply: "once" } }))
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 409,
        body: { _tag: "ConflictError", message: PermissionRoutes.Messages.otherSession(request.id, asking), requestID: request.id },
      })
      // Still pending, and its own session's reply settles it.
      const own = yield* Effect.promise(() => server.api(`/api/session/${asking}/permission/${request.id}/reply`, { body: { reply: "reject" } }))
      expect(own.status).toBe(204)
      expect((yield* Effect.promise(() => running)).body.kind).toBe("declined")
      // GET of another session's request stays 404: it does not tell that the id exists.
      const read = yield* Effect.promise(() => server.api(`/api/session/${other}/permission/${request.id}`))
      expect(read.status).toBe(404)
    }),
  )
})
