/**
 * The recovery sweep over a real SQLite file: asks owned by a process that died (a real child,
 * killed), by a pid reused since, by nobody (before migration 7) or by a live process, and what
 * the next opening of the audit log makes of each.
 */
import { spawn } from "node:child_process"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import BetterSqlite3 from "better-sqlite3"
import { Effect, Layer } from "effect"
import { AuditLog } from "../../src/permission/audit-log.js"
import { Database } from "../../src/storage/database.js"
import { Migrations } from "../../src/storage/migrations.js"
import { Owner } from "../../src/storage/owner.js"
import { tmpdir } from "../lib/tmp.js"

const ask = (requestID: string, sessionID = "ses_1"): AuditLog.Entry => ({
  projectID: "prj_1",
  sessionID,
  action: "bash",
  resources: ["git push"],
  effect: "ask",
  decidedBy: "rule",
  requestID,
})

/** The audit log as a new process opening `file` sees it: its layer built afresh, so the sweep at open runs. */
const opened = <A>(file: string, body: (audit: AuditLog.Interface) => Effect.Effect<A>) =>
  Effect.flatMap(AuditLog.Service, body).pipe(Effect.provide(AuditLog.layer), Effect.provide(Database.layer(file)))

/** Appends `entries`, their asks owned by `owner`. */
const appendAs = (file: string, owner: Owner.Owner, entries: ReadonlyArray<AuditLog.Entry>) =>
  opened(file, (audit) => Effect.forEach(entries, (entry) => audit.append(entry), { discard: true }).pipe(Effect.provideService(Owner.Current, owner)))

/** The owner of a real process that ran and was killed. */
const deadOwner = Effect.promise(
  () =>
    new Promise<Owner.Owner>((resolve) => {
      const sleeper = spawn("sleep", ["30"], { stdio: "ignore" })
      const owner = Owner.of(sleeper.pid as number) as Owner.Owner
      sleeper.on("exit", () => resolve(owner))
      sleeper.kill("SIGKILL")
    }),
)

const summary = (records: ReadonlyArray<AuditLog.Record>) => records.map(({ effect, decidedBy, reply, requestID }) => ({ effect, decidedBy, reply, requestID }))

const pendingRows = (file: string) => {
  const db = new BetterSqlite3(file)
  const rows = db.prepare("SELECT request_id FROM audit_pending ORDER BY request_id").all()
  db.close()
  return rows
}

describe("AuditLog.recover", () => {
  it.live("ends an ask whose process died as interrupted, once, when the log is next opened", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const owner = yield* deadOwner
      yield* appendAs(file, owner, [ask("per_dead")])
      const [records, activity, again] = yield* opened(file, (audit) => Effect.all([audit.list("prj_1"), audit.activity("prj_1"), audit.recover]))
      expect(summary(records)).toEqual([
        { effect: "ask", decidedBy: "rule", reply: undefined, requestID: "per_dead" },
        { effect: "ask", decidedBy: "rule", reply: AuditLog.INTERRUPTED, requestID: "per_dead" },
      ])
      expect(records[0]?.owner).toEqual(owner)
      expect(records[1]?.owner).toBeUndefined()
      expect(records[1]?.at).toBeGreaterThanOrEqual(records[0]?.at as number)
      expect(activity).toEqual([{ sessionID: "ses_1", lastAt: records[1]?.at, pending: 0, interrupted: 1 }])
      expect(again).toEqual([])
      expect(pendingRows(file)).toEqual([])
    }))

  it.live("returns the records it wrote", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const dead = yield* deadOwner
      const ended = yield* Effect.gen(function* () {
        const audit = yield* AuditLog.Service
        const { db } = yield* Database.Service
        // Written straight into the tables once the log is open, so its sweep at open has not seen them.
        db.prepare("INSERT INTO audit_log (id, at, project_id, session_id, action, resources, effect, decided_by, request_id, owner) VALUES ('aud_1', 1, 'prj_1', NULL, 'bash', '[\"ls\"]', 'ask', 'rule', 'per_1', ?)").run(Owner.encode(dead))
        db.prepare("INSERT INTO audit_pending (request_id, audit_id) VALUES ('per_1', 'aud_1')").run()
        return yield* audit.recover
      }).pipe(Effect.provide(AuditLog.layer.pipe(Layer.provideMerge(Database.layer(file)))))
      expect(ended.map(({ projectID, sessionID, action, resources, effect, decidedBy, reply, requestID }) => ({ projectID, sessionID, action, resources, effect, decidedBy, reply, requestID }))).toEqual([
        { projectID: "prj_1", sessionID: undefined, action: "bash", resources: ["ls"], effect: "ask", decidedBy: "rule", reply: AuditLog.INTERRUPTED, requestID: "per_1" },
      ])
    }))

  it.live("leaves the asks of a live process pending, and those ended by their process alone", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      yield* appendAs(file, Owner.current(), [
        ask("per_live"),
        ask("per_done", "ses_2"),
        { ...ask("per_done", "ses_2"), effect: "allow", decidedBy: "person", reply: "once" },
      ])
      const [ended, activity] = yield* opened(file, (audit) => Effect.all([audit.recover, audit.activity("prj_1")]))
      expect(ended).toEqual([])
      expect(activity.toSorted((a, b) => (a.sessionID < b.sessionID ? -1 : 1)).map(({ sessionID, pending, interrupted }) => ({ sessionID, pending, interrupted }))).toEqual([
        { sessionID: "ses_1", pending: 1, interrupted: 0 },
        { sessionID: "ses_2", pending: 0, interrupted: 0 },
      ])
      expect(pendingRows(file)).toEqual([{ request_id: "per_live" }])
    }))

  it.live("takes a pid with another start time for a reused pid: its process is gone", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const here = Owner.current()
      // Without /proc a reused pid cannot be told apart: its asks stay pending.
      if (here.start === undefined) return
      yield* appendAs(file, { pid: here.pid, start: { ...here.start, ticks: "1" } }, [ask("per_reused")])
      const records = yield* opened(file, (audit) => audit.list("prj_1"))
      expect(summary(records).map((record) => record.reply)).toEqual([undefined, AuditLog.INTERRUPTED])
    }))

  it.live("ends at the first opening the asks an older toolgate left without an end, and no answered one", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const old = new BetterSqlite3(file)
      Migrations.MIGRATIONS.slice(0, 6).forEach((sql) => old.exec(sql))
      old.pragma("user_version = 6")
      const insert = old.prepare("INSERT INTO audit_log (id, at, project_id, session_id, action, resources, effect, decided_by, reply, request_id) VALUES (?, ?, 'prj_1', 'ses_1', 'bash', '[\"ls\"]', ?, ?, ?, ?)")
      insert.run("aud_1", 1, "ask", "rule", null, "per_left")
      insert.run("aud_2", 2, "ask", "rule", null, "per_answered")
      insert.run("aud_3", 3, "allow", "person", "once", "per_answered")
      // Before migration 6 an ask had no request id: there is nothing to pair it with, so it is left as it is.
      insert.run("aud_4", 4, "ask", "rule", null, null)
      old.close()
      const records = yield* opened(file, (audit) => audit.list("prj_1"))
      expect(records.map(({ id, effect, reply, requestID }) => [id.startsWith("aud_") && id.length > 5 ? "new" : id, effect, reply, requestID])).toEqual([
        ["aud_1", "ask", undefined, "per_left"],
        ["aud_2", "ask", undefined, "per_answered"],
        ["aud_3", "allow", "once", "per_answered"],
        ["aud_4", "ask", undefined, undefined],
        ["new", "ask", AuditLog.INTERRUPTED, "per_left"],
      ])
    }))
})
