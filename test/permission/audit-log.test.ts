import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import BetterSqlite3 from "better-sqlite3"
import { Effect, Fiber, Queue } from "effect"
import { Config } from "../../src/config.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import { Permission } from "../../src/permission/permission.js"
import { Project } from "../../src/project.js"
import { Session } from "../../src/session.js"
import { Database } from "../../src/storage/database.js"
import { Migrations } from "../../src/storage/migrations.js"
import { globalFile } from "../lib/config.js"
import { askedQueue, gateLayer, makeRoot, source } from "../lib/permission.js"
import { tmpdir } from "../lib/tmp.js"

const FILE = "/global/toolgate.json"
const config = Config.merge([globalFile({ permission: [
  { action: "bash", resource: "*", effect: "ask" },
  { action: "bash", resource: "rm *", effect: "deny" },
  { action: "bash", resource: "ls", effect: "allow" },
] })])

const configRule = (resource: string, effect: Permission.Rule["effect"], index: number): Permission.Sourced => ({
  action: "bash",
  resource,
  effect,
  source: { kind: "config", file: FILE, scope: "global", index },
})

const run = <A, E>(body: Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const root = yield* makeRoot
    return yield* (body as Effect.Effect<A, E, never>).pipe(Effect.provide(gateLayer(root, { config })))
  })

const session = Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
const bash = (sessionID: string, command: string) =>
  Effect.flatMap(Permission.Service, (permission) => permission.assert({ sessionID, action: "bash", resources: [command], save: [], source }))
const records = (filter?: AuditLog.Filter) => Effect.flatMap(Project.Service, (project) => Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id, filter)))
const activity = Effect.flatMap(Project.Service, (project) => Effect.flatMap(AuditLog.Service, (audit) => audit.activity(project.id)))

describe("AuditLog", () => {
  it.live("records the deciding rules with their sources, and one request id on an ask and its answer", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const { id } = yield* session
      yield* bash(id, "ls")
      yield* bash(id, "rm -rf /").pipe(Effect.flip)
      const waiter = yield* Effect.forkChild(bash(id, "git push"))
      const request = yield* Queue.take(asked)
      yield* permission.reply({ requestID: request.id, reply: "once" })
      yield* Fiber.join(waiter)
      const log = yield* records()
      expect(log.map(({ action, resources, effect, decidedBy, reply, requestID, rules }) => ({ action, resources, effect, decidedBy, reply, requestID, rules }))).toEqual([
        { action: "bash", resources: ["ls"], effect: "allow", decidedBy: "rule", reply: undefined, requestID: undefined, rules: [configRule("ls", "allow", 2)] },
        { action: "bash", resources: ["rm -rf /"], effect: "deny", decidedBy: "rule", reply: undefined, requestID: undefined, rules: [configRule("rm *", "deny", 1)] },
        { action: "bash", resources: ["git push"], effect: "ask", decidedBy: "rule", reply: undefined, requestID: request.id, rules: [configRule("*", "ask", 0)] },
        { action: "bash", resources: ["git push"], effect: "allow", decidedBy: "person", reply: "once", requestID: request.id, rules: undefined },
      ])
    })))

  it.live("counts an ask as pending until its end is recorded, and tells each session's last decision", () =>
    run(Effect.gen(function* () {
      const permission = yield* Permission.Service
      const asked = yield* askedQueue
      const a = yield* session
      const b = yield* session
      yield* bash(a.id, "ls")
      const waiter = yield* Effect.forkChild(bash(b.id, "git push"))
      yield* Queue.take(asked)
      const waiting = yield* activity
      const last = (yield* records()).at(-1)?.at
      expect(waiting.toSorted((x, y) => (x.sessionID < y.sessionID ? -1 : 1))).toEqual([
        { sessionID: a.id, lastAt: (yield* records({ sessionID: a.id })).at(-1)?.at, pending: 0, interrupted: 0 },
        { sessionID: b.id, lastAt: last, pending: 1, interrupted: 0 },
      ])
      yield* permission.close
      yield* Fiber.join(waiter).pipe(Effect.flip)
      expect((yield* activity).map((entry) => entry.pending)).toEqual([0, 0])
    })))

  it.live("lists one session's records, or those from a time on", () =>
    run(Effect.gen(function* () {
      const a = yield* session
      const b = yield* session
      yield* bash(a.id, "ls")
      yield* bash(b.id, "ls")
      const all = yield* records()
      expect((yield* records({ sessionID: b.id })).map((record) => record.sessionID)).toEqual([b.id])
      expect(yield* records({ since: (all.at(-1)?.at as number) + 1 })).toEqual([])
      expect(yield* records({ since: all[0]?.at as number })).toEqual(all)
    })))

  it.live("keeps the records of a database of the previous version, without rules or request id", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const old = new BetterSqlite3(file)
      // Version 5: before migration 6 gave records their rules and request id.
      const before = Migrations.MIGRATIONS.findIndex((sql) => sql.includes("ADD COLUMN request_id"))
      Migrations.MIGRATIONS.slice(0, before).forEach((sql) => old.exec(sql))
      old.pragma(`user_version = ${before}`)
      old.prepare("INSERT INTO audit_log (id, at, project_id, session_id, action, resources, effect, decided_by, reply) VALUES ('aud_1', 5, 'prj_1', 'ses_1', 'bash', '[\"ls\"]', 'ask', 'rule', NULL)").run()
      old.close()
      const log = yield* Effect.flatMap(AuditLog.Service, (audit) => Effect.zip(audit.list("prj_1"), audit.activity("prj_1"))).pipe(
        Effect.provide(AuditLog.layer),
        Effect.provide(Database.layer(file)),
      )
      expect(log).toEqual([
        [{ id: "aud_1", at: 5, projectID: "prj_1", sessionID: "ses_1", action: "bash", resources: ["ls"], effect: "ask", decidedBy: "rule" }],
        // An old ask has no request id to pair its end with: it is not counted as pending.
        [{ sessionID: "ses_1", lastAt: 5, pending: 0, interrupted: 0 }],
      ])
    }))
})
