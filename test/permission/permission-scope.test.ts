import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Queue } from "effect"
import { Interaction } from "../../src/interaction/interaction.js"
import { Approvals } from "../../src/permission/approvals.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import { Permission } from "../../src/permission/permission.js"
import { Project } from "../../src/project.js"
import { Session } from "../../src/session.js"
import { bash, events, inStore, newSession } from "../lib/interaction.js"

const approvalsNow = Effect.gen(function* () {
  const project = yield* Project.Service
  const approvals = yield* Approvals.Service
  return (yield* approvals.list(project.id)).map(({ scope, sessionID, action, resource }) => ({ scope, sessionID, action, resource }))
})

const replies = Effect.gen(function* () {
  const project = yield* Project.Service
  const log = yield* Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id))
  return log.filter((entry) => entry.reply !== undefined).map(({ resources, effect, decidedBy, reply }) => [resources[0], effect, decidedBy, reply])
})

describe("Permission always, by scope", () => {
  it.live("keeps an always for the session to that session, lists its scope, and ends it with the session", () =>
    inStore(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const sessions = yield* Session.Service
      const asked = yield* events(Permission.Asked)
      const replied = yield* events(Permission.Replied)
      const a = yield* newSession
      const b = yield* newSession
      const status = yield* Effect.forkChild(bash(a.id, "git status"))
      const request = yield* Queue.take(asked)
      yield* permission.reply({ requestID: request.id, reply: "always", scope: "session" })
      yield* Fiber.join(status)
      expect(yield* Queue.take(replied)).toEqual({ sessionID: a.id, requestID: request.id, reply: "always", scope: "session" })
      expect(yield* approvalsNow).toEqual([{ scope: "session", sessionID: a.id, action: "bash", resource: "git *" }])
      const project = yield* Project.Service
      expect(yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.rules(project.id))).toEqual([])

      // The session asks no more; another session still does.
      yield* bash(a.id, "git log")
      const other = yield* Effect.forkChild(bash(b.id, "git log"))
      yield* permission.reply({ requestID: (yield* Queue.take(asked)).id, reply: "once" })
      yield* Fiber.join(other)
      expect(yield* replies).toEqual([
        ["git status", "allow", "person", "always:session"],
        ["git log", "allow", "person", "once"],
      ])

      // Ending the session declines what it still waits for and takes its approvals away.
      const make = yield* Effect.forkChild(bash(a.id, "make"))
      const pending = yield* Queue.take(asked)
      const ended = yield* sessions.end(a.id)
      expect(ended?.endedAt).toBeTypeOf("number")
      expect(yield* Fiber.join(make).pipe(Effect.flip)).toEqual(new Permission.DeclinedError({ requestID: pending.id, action: "bash", reason: Interaction.Reasons.sessionEnded }))
      expect(yield* approvalsNow).toEqual([])
      expect(yield* bash(a.id, "git log").pipe(Effect.flip)).toBeInstanceOf(Permission.BlockedError)
      const reused = yield* sessions.ensure({ id: a.id, agent: "build" }).pipe(Effect.flip)
      expect(reused).toEqual(new Session.EndedError({ id: a.id }))
      expect(reused.message).toBe(`Session ${a.id} has ended; start a new session`)
    })))

  it.live("lets through the session's other pending requests an always for the session now allows, not other sessions'", () =>
    inStore(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* events(Permission.Asked)
      const a = yield* newSession
      const b = yield* newSession
      const status = yield* Effect.forkChild(bash(a.id, "git status"))
      const log = yield* Effect.forkChild(bash(a.id, "git log"))
      const elsewhere = yield* Effect.forkChild(bash(b.id, "git log"))
      const requests = [yield* Queue.take(asked), yield* Queue.take(asked), yield* Queue.take(asked)]
      const target = requests.find((request) => request.resources[0] === "git status") as Permission.Request
      yield* permission.reply({ requestID: target.id, reply: "always", scope: "session" })
      yield* Fiber.join(status)
      yield* Fiber.join(log)
      expect((yield* permission.list).map((request) => request.sessionID)).toEqual([b.id])
      yield* permission.reply({ requestID: (yield* permission.list)[0]?.id as string, reply: "always" })
      yield* Fiber.join(elsewhere)
      expect(yield* approvalsNow).toEqual([
        { scope: "project", sessionID: undefined, action: "bash", resource: "git *" },
        { scope: "session", sessionID: a.id, action: "bash", resource: "git *" },
      ])
      expect(yield* replies).toEqual([
        ["git status", "allow", "person", "always:session"],
        ["git log", "allow", "saved", "always:session"],
        ["git log", "allow", "person", "always"],
      ])
    })))

  it.live("revokes and clears session approvals with the project's", () =>
    inStore(Effect.gen(function* () {
      const approvals = yield* Approvals.Service
      const project = yield* Project.Service
      const a = yield* newSession
      const [session] = yield* approvals.add(project.id, "bash", ["make *"], a.id)
      yield* approvals.add(project.id, "bash", ["make *"], a.id)
      yield* approvals.add(project.id, "bash", ["git *"])
      expect((yield* approvals.list(project.id)).map((approval) => approval.scope)).toEqual(["project", "session"])
      expect((yield* approvals.rules(project.id, a.id)).map((rule) => rule.resource)).toEqual(["git *", "make *"])
      expect(yield* approvals.remove(project.id, session?.id as string)).toEqual(session)
      expect(yield* approvals.remove("prj_other", "psv_x").pipe(Effect.flip)).toBeInstanceOf(Approvals.NotFoundError)
      yield* approvals.add(project.id, "bash", ["npm *"], a.id)
      expect(yield* approvals.clear(project.id)).toBe(2)
      expect(yield* approvals.list(project.id)).toEqual([])
    })))
})
