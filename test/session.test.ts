import { mkdir } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue } from "effect"
import { Permission } from "../src/permission/permission.js"
import { Session } from "../src/session.js"
import { Sql } from "../src/storage/sql.js"
import { events } from "./lib/interaction.js"
import { gateLayer, makeRoot, source } from "./lib/permission.js"

describe("Session", () => {
  it.live("keeps a session's agent and Location; in another Location of its project it is unknown and denied everything", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      // One repository: work and other are two Locations of one project.
      yield* Effect.promise(() => mkdir(path.join(root, ".git"), { recursive: true }))
      yield* Effect.promise(() => mkdir(path.join(root, "other"), { recursive: true }))
      const id = yield* Effect.gen(function* () {
        const sessions = yield* Session.Service
        const info = yield* sessions.ensure({ agent: "build", rules: [{ action: "read", resource: "./a//b", effect: "deny" }] })
        expect(info.rules.map((rule) => rule.resource)).toEqual(["a/b"])
        expect(yield* sessions.ensure({ id: info.id, agent: "build" })).toEqual(info)
        expect((yield* sessions.ensure({ id: info.id, agent: "plan" }).pipe(Effect.flip)).message).toBe(Session.Messages.agentMismatch(info.id, "build", "plan"))
        return info.id
      }).pipe(Effect.provide(gateLayer(root)))
      yield* Effect.gen(function* () {
        const sessions = yield* Session.Service
        const permission = yield* Permission.Service
        expect(yield* sessions.get(id)).toBeUndefined()
        expect((yield* sessions.ensure({ id, agent: "build" }).pipe(Effect.flip)).message).toBe(Session.Messages.locationMismatch(id, path.join(root, "work")))
        expect(Session.Messages.locationMismatch("ses_a", "/w")).toBe("Session ses_a belongs to another working directory: /w")
        expect((yield* sessions.lookup(id))?.location).toBe(path.join(root, "work"))
        expect((yield* sessions.list).map((info) => info.id)).toEqual([id])
        const error = yield* permission.assert({ sessionID: id, action: "read", resources: ["x"], source }).pipe(Effect.flip)
        expect(error).toBeInstanceOf(Permission.BlockedError)
      }).pipe(Effect.provide(gateLayer(root, { work: "other" })))
    }))

  it.live("refuses another project's session id, naming that project, and never makes a second session of it", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* Effect.promise(() => mkdir(path.join(root, "other"), { recursive: true }))
      // No repository around them: work and other are two projects sharing one database.
      yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ id: "ses_shared", agent: "build" })).pipe(Effect.provide(gateLayer(root)))
      yield* Effect.gen(function* () {
        const sessions = yield* Session.Service
        const foreign = new Session.ForeignProjectError({ id: "ses_shared", worktree: path.join(root, "work") })
        expect(yield* sessions.ensure({ id: "ses_shared", agent: "build" }).pipe(Effect.flip)).toEqual(foreign)
        expect(yield* sessions.lookup("ses_shared").pipe(Effect.flip)).toEqual(foreign)
        expect(foreign.message).toBe(`Session ses_shared belongs to another project: ${path.join(root, "work")}`)
        expect(yield* sessions.lookup("ses_nowhere")).toBeUndefined()
        expect(yield* sessions.list).toEqual([])
        const sql = yield* Sql.Service
        expect(yield* sql.get("SELECT count(*) AS n FROM session WHERE id = 'ses_shared'")).toEqual({ n: 1 })
      }).pipe(Effect.provide(gateLayer(root, { work: "other" })))
    }))

  it.live("ends a session for good: kept on record, denied everything, and never taken up again", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* Effect.gen(function* () {
        const sessions = yield* Session.Service
        const permission = yield* Permission.Service
        const info = yield* sessions.ensure({ agent: "build" })
        yield* permission.assert({ sessionID: info.id, action: "read", resources: ["a.ts"], source })
        const ended = yield* sessions.end(info.id)
        expect(ended).toEqual({ ...info, endedAt: ended?.endedAt })
        expect(ended?.endedAt).toBeTypeOf("number")
        expect(yield* sessions.end(info.id)).toEqual(ended)
        expect(yield* sessions.get(info.id)).toEqual(ended)
        expect(yield* permission.assert({ sessionID: info.id, action: "read", resources: ["a.ts"], source }).pipe(Effect.flip)).toBeInstanceOf(Permission.BlockedError)
        expect(yield* sessions.ensure({ id: info.id, agent: "build" }).pipe(Effect.flip)).toEqual(new Session.EndedError({ id: info.id }))
        expect(yield* sessions.end("ses_unknown")).toBeUndefined()
      }).pipe(Effect.provide(gateLayer(root)))
    }))

  it.live("publishes session.created when it creates a session, and nothing when it takes one up again", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* Effect.gen(function* () {
        const sessions = yield* Session.Service
        const created = yield* events(Session.Created)
        const first = yield* sessions.ensure({ agent: "build" })
        yield* sessions.ensure({ id: first.id, agent: "build" })
        const second = yield* sessions.ensure({ id: "ses_named", agent: "plan" })
        // The second event is the second session's: taking the first up again published nothing.
        expect(yield* Queue.takeN(created, 2)).toEqual([
          { sessionID: first.id, agent: "build", directory: path.join(root, "work") },
          { sessionID: second.id, agent: "plan", directory: path.join(root, "work") },
        ])
        expect(Session.Created.type).toBe("session.created")
      }).pipe(Effect.provide(gateLayer(root)))
    }))
})
