import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Queue, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import { Config } from "../../src/config.js"
import { Approvals } from "../../src/permission/approvals.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import { Permission } from "../../src/permission/permission.js"
import { Project } from "../../src/project.js"
import { Session } from "../../src/session.js"
import { Database } from "../../src/storage/database.js"
import { Tool } from "../../src/tool/tool.js"
import { globalFile } from "../lib/config.js"
import { askedQueue, gateLayer, makeRoot, source } from "../lib/permission.js"


/** Every command asks, `rm *` is denied, `ls` is allowed. */
const config = Config.merge([globalFile({ permission: [
  { action: "bash", resource: "*", effect: "ask" },
  { action: "bash", resource: "rm *", effect: "deny" },
  { action: "bash", resource: "ls", effect: "allow" },
] })])

const run = <A, E>(body: Effect.Effect<A, E, any>, options: { root?: string; askPolicy?: Permission.AskPolicy; config?: unknown } = {}) =>
  Effect.gen(function* () {
    const root = options.root ?? (yield* makeRoot)
    const chosen = options.config === undefined ? config : Config.merge([globalFile(options.config)])
    return yield* (body as Effect.Effect<A, E, never>).pipe(Effect.provide(gateLayer(root, { config: chosen, ...(options.askPolicy === undefined ? {} : { askPolicy: options.askPolicy }) })))
  })

/** The project's saved approvals as stored. */
const savedApprovals = Effect.gen(function* () {
  const project = yield* Project.Service
  return yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.list(project.id))
})

const session = Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
const bash = (sessionID: string, command: string, save: ReadonlyArray<string> = [`${command.split(" ")[0]} *`]) =>
  Effect.flatMap(Permission.Service, (permission) => permission.assert({ sessionID, action: "bash", resources: [command], save, source }))

describe("Permission.assert", () => {
  it.live("returns at once for an allow and records it", () =>
    run(Effect.gen(function* () {
      const { id } = yield* session
      yield* bash(id, "ls")
      const project = yield* Project.Service
      const log = yield* Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id))
      expect(log.map(({ action, resources, effect, decidedBy }) => ({ action, resources, effect, decidedBy }))).toEqual([
        { action: "bash", resources: ["ls"], effect: "allow", decidedBy: "rule" },
      ])
    })))

  it.live("fails with BlockedError for a deny, naming the rule", () =>
    run(Effect.gen(function* () {
      const { id } = yield* session
      const error = yield* bash(id, "rm -rf /").pipe(Effect.flip)
      expect(error).toBeInstanceOf(Permission.BlockedError)
      expect(error.message).toBe("Permission denied: bash")
      expect((error as Permission.BlockedError).rules).toEqual([{ resource: "rm -rf /", rule: { action: "bash", resource: "rm *", effect: "deny" } }])
    })))

  it.live("treats an ask as a deny under the deny policy", () =>
    run(Effect.gen(function* () {
      const { id } = yield* session
      const error = yield* bash(id, "git status").pipe(Effect.flip)
      expect(error).toBeInstanceOf(Permission.BlockedError)
    }), { askPolicy: "deny" }))

  it.live("denies everything to a session it does not know", () =>
    run(Effect.gen(function* () {
      const error = yield* bash("ses_nobody", "ls").pipe(Effect.flip)
      expect(error).toBeInstanceOf(Permission.BlockedError)
    })))

  it.live("waits for a reply and proceeds on once, showing what always would allow", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const { id } = yield* session
      const waiter = yield* Effect.forkChild(bash(id, "git status"))
      const request = yield* Queue.take(asked)
      expect(request).toMatchObject({ sessionID: id, action: "bash", resources: ["git status"], save: ["git *"], source })
      expect(request.allows).toEqual({
        session: [Permission.Messages.saveAllows("bash", "git *", "session")],
        project: [Permission.Messages.saveAllows("bash", "git *", "project")],
      })
      expect(request.allows.session[0]).toBe("allow bash on anything matching git * for the rest of this session")
      expect(request.allows.project[0]).toBe("always allow bash on anything matching git * in this project")
      expect(Permission.Messages.saveAllows("edit", "/w/a.ts", "session")).toBe("allow edit on exactly /w/a.ts for the rest of this session")
      expect(Permission.Messages.saveAllows("edit", "/w/a.ts", "project")).toBe("always allow edit on exactly /w/a.ts in this project")
      expect(yield* permission.list).toEqual([request])
      expect(yield* permission.get(request.id)).toEqual(request)
      yield* permission.reply({ requestID: request.id, reply: "once" })
      yield* Fiber.join(waiter)
      expect(yield* permission.list).toEqual([])
      expect(yield* savedApprovals).toEqual([])
    })))

  it.live("turns a reject with feedback into CorrectedError, which Tool.ask makes a Failure", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const { id } = yield* session
      const context = { sessionID: id, agent: "build", assistantMessageID: "msg_t", toolCallID: "call_t" }
      const waiter = yield* Effect.forkChild(Tool.ask(permission, context, { action: "bash", resources: ["git push"], save: ["git push *"] }))
      const request = yield* Queue.take(asked)
      yield* permission.reply({ requestID: request.id, reply: "reject", message: "use a pull request instead" })
      const error = yield* Fiber.join(waiter).pipe(Effect.flip)
      expect(error).toEqual(new Tool.Failure({ message: "The user rejected this call with feedback: use a pull request instead" }))
    })))

  it.live("declines on a plain reject, and every other pending request of that session with it", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const bus = yield* Bus.Service
      const replied = yield* Queue.unbounded<unknown>()
      yield* Stream.runForEach(yield* bus.on(Permission.Replied), (event) => Queue.offer(replied, event.payload)).pipe(Effect.forkScoped)
      const asked = yield* askedQueue
      const a = yield* session
      const b = yield* session
      const first = yield* Effect.forkChild(bash(a.id, "git push"))
      const second = yield* Effect.forkChild(bash(a.id, "npm publish"))
      const other = yield* Effect.forkChild(bash(b.id, "make"))
      const requests = [yield* Queue.take(asked), yield* Queue.take(asked), yield* Queue.take(asked)]
      const target = requests.find((request) => request.resources[0] === "git push") as Permission.Request
      yield* permission.reply({ requestID: target.id, reply: "reject" })
      for (const fiber of [first, second]) {
        const error = yield* Fiber.join(fiber).pipe(Effect.flip)
        expect(error).toBeInstanceOf(Permission.DeclinedError)
      }
      expect((yield* permission.list).map((request) => request.sessionID)).toEqual([b.id])
      expect(yield* Queue.take(replied)).toEqual({ sessionID: a.id, requestID: target.id, reply: "reject" })
      expect(yield* Queue.take(replied)).toMatchObject({ sessionID: a.id, reply: "reject" })
      yield* permission.reply({ requestID: (yield* permission.list)[0]?.id as string, reply: "once" })
      yield* Fiber.join(other)
    })))

  it.live("saves the patterns on always and lets through other pending requests they now allow", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const a = yield* session
      const b = yield* session
      const status = yield* Effect.forkChild(bash(a.id, "git status"))
      const log = yield* Effect.forkChild(bash(b.id, "git log"))
      const make = yield* Effect.forkChild(bash(b.id, "make"))
      const requests = [yield* Queue.take(asked), yield* Queue.take(asked), yield* Queue.take(asked)]
      const target = requests.find((request) => request.resources[0] === "git status") as Permission.Request
      yield* permission.reply({ requestID: target.id, reply: "always" })
      yield* Fiber.join(status)
      yield* Fiber.join(log)
      expect((yield* permission.list).map((request) => request.resources)).toEqual([["make"]])
      const project = yield* Project.Service
      const saved = yield* savedApprovals
      expect(saved.map(({ action, resource }) => ({ action, resource }))).toEqual([{ action: "bash", resource: "git *" }])
      yield* bash(a.id, "git diff")
      yield* permission.close
      expect(yield* Fiber.join(make).pipe(Effect.flip)).toBeInstanceOf(Permission.DeclinedError)
      const records = yield* Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id))
      const replies = records.filter((entry) => entry.reply !== undefined).map(({ resources, effect, decidedBy, reply }) => [resources[0], effect, decidedBy, reply])
      expect(replies).toEqual([
        ["git status", "allow", "person", "always"],
        ["git log", "allow", "saved", "always"],
        ["make", "deny", "rule", "closed"],
      ])
    })))

  it.live("never lets a saved approval through a configured deny", () =>
    run(Effect.gen(function* () {
      const approvals = yield* Approvals.Service
      const project = yield* Project.Service
      yield* approvals.add(project.id, "bash", ["*", "rm *"])
      const { id } = yield* session
      yield* bash(id, "git push")
      expect(yield* bash(id, "rm -rf /").pipe(Effect.flip)).toBeInstanceOf(Permission.BlockedError)
    })))

  it.live("treats always without save patterns as once", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const { id } = yield* session
      const waiter = yield* Effect.forkChild(bash(id, "git status", []))
      const request = yield* Queue.take(asked)
      yield* permission.reply({ requestID: request.id, reply: "always" })
      yield* Fiber.join(waiter)
      expect(yield* savedApprovals).toEqual([])
    })))

  it.live("answers NotFoundError for an unknown or already settled request", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const { id } = yield* session
      expect(yield* permission.reply({ requestID: "per_nope", reply: "once" }).pipe(Effect.flip)).toEqual(new Permission.NotFoundError({ requestID: "per_nope" }))
      const waiter = yield* Effect.forkChild(bash(id, "git status"))
      const request = yield* Queue.take(asked)
      yield* permission.reply({ requestID: request.id, reply: "once" })
      yield* Fiber.join(waiter)
      const error = yield* permission.reply({ requestID: request.id, reply: "always" }).pipe(Effect.flip)
      expect(error.message).toBe(`No pending permission request with id ${request.id}`)
      expect(yield* permission.get(request.id).pipe(Effect.flip)).toBeInstanceOf(Permission.NotFoundError)
    })))

  it.live("removes the entry and publishes a reject when the waiter is interrupted", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const bus = yield* Bus.Service
      const replied = yield* Queue.unbounded<unknown>()
      yield* Stream.runForEach(yield* bus.on(Permission.Replied), (event) => Queue.offer(replied, event.payload)).pipe(Effect.forkScoped)
      const asked = yield* askedQueue
      const { id } = yield* session
      const waiter = yield* Effect.forkChild(bash(id, "git status"))
      const request = yield* Queue.take(asked)
      yield* Fiber.interrupt(waiter)
      const exit = yield* Fiber.await(waiter)
      expect(Exit.isFailure(exit) && Cause.hasInterrupts(exit.cause)).toBe(true)
      expect(yield* permission.list).toEqual([])
      expect(yield* Queue.take(replied)).toEqual({ sessionID: id, requestID: request.id, reply: "reject" })
    })))
})

describe("Permission bookkeeping failures", () => {
  it.live("wakes the waiter even when recording the reply fails", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const { db } = yield* Database.Service
      const asked = yield* askedQueue
      const { id } = yield* session
      const waiter = yield* Effect.forkChild(bash(id, "git status"))
      const request = yield* Queue.take(asked)
      db.exec("CREATE TRIGGER full BEFORE INSERT ON audit_log WHEN NEW.decided_by = 'person' BEGIN SELECT RAISE(ABORT, 'disk full'); END")
      const replied = yield* Effect.exit(permission.reply({ requestID: request.id, reply: "once" }))
      expect(Exit.isFailure(replied)).toBe(true)
      yield* Fiber.join(waiter)
      expect(yield* permission.list).toEqual([])
    })))

  it.live("declines new asks at once after close, instead of leaving them waiting", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const { id } = yield* session
      yield* permission.close
      expect(yield* bash(id, "git status").pipe(Effect.flip)).toBeInstanceOf(Permission.DeclinedError)
      yield* bash(id, "ls")
    })))
})

describe("Saved approvals", () => {
  it.live("store path patterns in absolute form, so they approve only the files that were asked about", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const { id } = yield* session
      const waiter = yield* Effect.forkChild(permission.assert({ sessionID: id, action: "edit", resources: ["config.json"], save: ["config.json"], source }))
      const request = yield* Queue.take(asked)
      const file = path.join(permission.context.location as string, "config.json")
      expect(request.save).toEqual([file])
      yield* permission.reply({ requestID: request.id, reply: "always" })
      yield* Fiber.join(waiter)
      const project = yield* Project.Service
      const saved = yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.rules(project.id))
      expect(saved.map((rule) => rule.resource)).toEqual([file])
      const elsewhere = { location: path.join(path.dirname(permission.context.location as string), "other") }
      const configured: ReadonlyArray<Permission.Sourced> = [{ action: "edit", resource: "*", effect: "ask", source: { kind: "default" } }]
      expect(Permission.evaluateIn(elsewhere, "edit", "config.json", configured, saved).effect).toBe("ask")
      expect(Permission.evaluateIn(permission.context, "edit", "config.json", configured, saved).effect).toBe("allow")
    }), { config: { permission: [{ action: "edit", resource: "*", effect: "ask" }] } }))


  it.live("survive a restart: a new runtime on the same database allows without asking", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* run(Effect.gen(function* () {
        const permission = yield* Permission.Service
        const asked = yield* askedQueue
        const { id } = yield* session
        const waiter = yield* Effect.forkChild(bash(id, "git status"))
        yield* permission.reply({ requestID: (yield* Queue.take(asked)).id, reply: "always" })
        yield* Fiber.join(waiter)
      }), { root })
      yield* run(Effect.gen(function* () {
        const { id } = yield* session
        yield* bash(id, "git log")
        const project = yield* Project.Service
        const log = yield* Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id))
        expect(log.map(({ effect, decidedBy, reply }) => [effect, decidedBy, reply])).toEqual([
          ["ask", "rule", undefined],
          ["allow", "person", "always"],
          ["allow", "saved", undefined],
        ])
      }), { root })
    }))
})
