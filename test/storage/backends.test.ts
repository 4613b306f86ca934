/**
 * The storage boundary against both real databases (issue 21): one suite, run on a SQLite file
 * and on a PostgreSQL database of a throwaway cluster (test/lib/postgres.ts). The statements,
 * transactions and every service that keeps state (sessions, approvals, trust, the audit log,
 * todos, call outcomes, the change log, the event log) behave the same on both; the two schemas
 * have the same tables and columns.
 */
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Fiber, Layer, Queue, Schema, Stream } from "effect"
import BetterSqlite3 from "better-sqlite3"
import pg from "pg"
import { Bus } from "../../src/bus.js"
import { Approvals } from "../../src/permission/approvals.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import { Permission } from "../../src/permission/permission.js"
import { PermissionRule } from "../../src/permission/rule.js"
import { ToolRequests } from "../../src/tool/requests.js"
import { Config } from "../../src/config.js"
import { Project } from "../../src/project.js"
import { EventLog } from "../../src/server/event-log.js"
import { Session } from "../../src/session.js"
import { CallLog } from "../../src/session/call-log.js"
import { ChangeLog } from "../../src/snapshot/change-log.js"
import { Database } from "../../src/storage/database.js"
import { Migrations } from "../../src/storage/migrations.js"
import { PostgresSql } from "../../src/storage/postgres.js"
import { Sql } from "../../src/storage/sql.js"
import { Todo } from "../../src/todo.js"
import { globalFile } from "../lib/config.js"
import { askedQueue, gateLayer, makeRoot, source } from "../lib/permission.js"
import { applicationRole, cluster, clusterForFile, unavailable } from "../lib/postgres.js"
import { tmpdir } from "../lib/tmp.js"

const server = clusterForFile()

interface Backend {
  readonly name: "sqlite" | "postgres"
  /** The PostgreSQL URL of a new database, or undefined for the SQLite file of `root`. */
  readonly storage: () => Promise<string | undefined>
}

const BACKENDS: ReadonlyArray<Backend> = [
  { name: "sqlite", storage: async () => undefined },
  ...(unavailable === undefined ? [{ name: "postgres" as const, storage: () => server().database() }] : []),
]

/** The storage layer of a backend for a root folder. */
const storageLayer = (root: string, url: string | undefined) => (url === undefined ? Database.layer(path.join(root, "data", "toolgate.db")) : PostgresSql.layer(url))

const Ping = Bus.event("test.backends.ping", Schema.Struct({ n: Schema.Number }))

describe.each(BACKENDS)("storage on $name", (backend) => {
  it.live("statements: placeholders, integers as numbers, nulls, changes and RETURNING", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const url = yield* Effect.promise(backend.storage)
      yield* Effect.gen(function* () {
        const sql = yield* Sql.Service
        expect(sql.dialect).toBe(backend.name)
        const at = 1_764_000_000_123
        expect(yield* sql.run("INSERT INTO project (id, worktree, created_at) VALUES (?, ?, ?)", ["prj_a", "/w/'?'", at])).toEqual({ changes: 1 })
        expect(yield* sql.run("INSERT INTO project (id, worktree, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", ["prj_a", "/other", at])).toEqual({ changes: 0 })
        expect(yield* sql.get("SELECT id, worktree, trusted_at, created_at FROM project WHERE id = ?", ["prj_a"])).toEqual({ id: "prj_a", worktree: "/w/'?'", trusted_at: null, created_at: at })
        expect(yield* sql.get("SELECT count(*) AS n FROM project WHERE worktree <> '?'")).toEqual({ n: 1 })
        expect(yield* sql.get("SELECT id FROM project WHERE id = ?", ["prj_none"])).toBeUndefined()
        const opened = yield* sql.get<{ id: number }>("INSERT INTO snapshot_change (session_id, kind, before_tree, created_at) VALUES (?, 'tool', ?, ?) RETURNING id", ["ses_a", "t0", at])
        expect(typeof opened?.id).toBe("number")
        expect(yield* sql.run("UPDATE project SET trusted_at = ? WHERE id IN (?, ?)", [at, "prj_a", "prj_b"])).toEqual({ changes: 1 })
        expect(yield* sql.all("SELECT id FROM project ORDER BY id")).toEqual([{ id: "prj_a" }])
      }).pipe(Effect.provide(storageLayer(root, url)))
    }))

  it.live("a transaction commits whole or not at all, and a statement of another fiber never joins it", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const url = yield* Effect.promise(backend.storage)
      yield* Effect.gen(function* () {
        const sql = yield* Sql.Service
        const insert = (id: string) => sql.run("INSERT INTO project (id, worktree, created_at) VALUES (?, '/w', 1)", [id])
        const failed = yield* sql.transaction(Effect.andThen(insert("prj_rolled"), Effect.fail("stop" as const))).pipe(Effect.flip)
        expect(failed).toBe("stop")
        const died = yield* sql.transaction(Effect.andThen(insert("prj_died"), insert("prj_died"))).pipe(Effect.exit)
        expect(died._tag).toBe("Failure")
        yield* sql.transaction(Effect.andThen(insert("prj_one"), sql.transaction(insert("prj_nested"))))
        // A transaction that waits (yields to other fibers) before it fails: the other fiber's
        // write, made meanwhile, is its own and stays.
        const slow = yield* Effect.forkChild(sql.transaction(Effect.andThen(insert("prj_slow"), Effect.andThen(Effect.sleep("50 millis"), Effect.fail("late" as const)))))
        yield* Effect.sleep("10 millis")
        yield* insert("prj_beside")
        expect(yield* Fiber.join(slow).pipe(Effect.flip)).toBe("late")
        expect((yield* sql.all<{ id: string }>("SELECT id FROM project ORDER BY id")).map((row) => row.id)).toEqual(["prj_beside", "prj_nested", "prj_one"])
      }).pipe(Effect.provide(storageLayer(root, url)))
    }))

  it.live("sessions, approvals, trust and the audit log, through the real services", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const url = yield* Effect.promise(backend.storage)
      yield* Effect.promise(() => writeFile(path.join(root, "work", "toolgate.json"), '{ "permission": [] }\n'))
      yield* Effect.gen(function* () {
        const sessions = yield* Session.Service
        const approvals = yield* Approvals.Service
        const audit = yield* AuditLog.Service
        const project = yield* Project.Service
        const session = yield* sessions.ensure({ id: "ses_b1", agent: "build", rules: [{ action: "read", resource: "*", effect: "allow" }] })
        expect((yield* sessions.ensure({ id: "ses_b1", agent: "build" })).createdAt).toBe(session.createdAt)
        expect(yield* sessions.ensure({ id: "ses_b1", agent: "plan" }).pipe(Effect.flip)).toBeInstanceOf(Session.AgentMismatchError)
        expect((yield* sessions.list).map((info) => info.id)).toEqual(["ses_b1"])
        expect(yield* Session.find("ses_b1")).toEqual(session)
        expect(yield* Session.find("ses_none")).toBeUndefined()

        const saved = yield* approvals.add(project.id, "bash", ["git status", "git status", "git log *"])
        expect(saved.map((approval) => approval.resource)).toEqual(["git status", "git log *"])
        expect(yield* approvals.add(project.id, "bash", ["git status"])).toEqual([])
        yield* approvals.add(project.id, "edit", ["src/*"], "ses_b1")
        expect((yield* approvals.rules(project.id, "ses_b1")).map((rule) => `${rule.action} ${rule.resource}`)).toEqual(["bash git status", "bash git log *", "edit src/*"])
        expect(yield* Approvals.projectOf(saved[0]?.id as string)).toBe(project.id)
        expect((yield* approvals.remove(project.id, saved[0]?.id as string)).resource).toBe("git status")
        expect(yield* approvals.remove(project.id, "psv_none").pipe(Effect.flip)).toBeInstanceOf(Approvals.NotFoundError)

        const untrusted = (yield* project.status)._tag
        expect(untrusted).not.toBe("Trusted")
        yield* project.trust
        expect((yield* project.status)._tag).toBe("Trusted")
        yield* project.untrust
        expect((yield* project.status)._tag).toBe(untrusted)

        yield* audit.append({ projectID: project.id, sessionID: "ses_b1", action: "bash", resources: ["rm -rf x"], effect: "deny", decidedBy: "rule", toolCallID: "call_1" })
        yield* audit.append({ projectID: project.id, sessionID: "ses_b1", action: "bash", resources: ["make"], effect: "ask", decidedBy: "rule", requestID: "per_b1" })
        expect((yield* audit.activity(project.id)).map((activity) => ({ ...activity, lastAt: 0 }))).toEqual([{ sessionID: "ses_b1", lastAt: 0, pending: 1, interrupted: 0 }])
        yield* audit.append({ projectID: project.id, sessionID: "ses_b1", action: "bash", resources: ["make"], effect: "allow", decidedBy: "person", requestID: "per_b1", reply: "once" })
        const records = yield* audit.list(project.id, { sessionID: "ses_b1" })
        expect(records.map((record) => `${record.effect} ${record.reply ?? ""}`)).toEqual(["deny ", "ask ", "allow once"])
        expect(records[0]?.toolCallID).toBe("call_1")
        expect((yield* audit.activity(project.id))[0]?.pending).toBe(0)
        expect(yield* audit.list(project.id, { sessionID: "ses_other" })).toEqual([])

        yield* sessions.end("ses_b1")
        expect((yield* approvals.rules(project.id, "ses_b1")).map((rule) => rule.resource)).toEqual(["git log *"])
        expect(yield* sessions.ensure({ id: "ses_b1", agent: "build" }).pipe(Effect.flip)).toBeInstanceOf(Session.EndedError)
        expect(yield* approvals.clear(project.id)).toBe(1)
      }).pipe(Effect.provide(gateLayer(root, url === undefined ? {} : { storage: url })))
    }))

  it.live("the organization's policy: a deny no saved approval overrides, an ask that \"always\" does not save away, both named in the audit", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const url = yield* Effect.promise(backend.storage)
      const config = Config.merge([globalFile({ permission: [{ action: "bash", resource: "*", effect: "allow" }] })])
      yield* Effect.gen(function* () {
        const sql = yield* Sql.Service
        // What an administrator writes (docs/postgres.md).
        yield* sql.run("INSERT INTO policy (position, action, resource, effect, note) VALUES (1, 'bash', 'git push --force*', 'deny', 'no force pushes'), (2, 'bash', 'npm publish*', 'ask', NULL)")
        const project = yield* Project.Service
        const approvals = yield* Approvals.Service
        yield* approvals.add(project.id, "bash", ["git push --force", "npm publish"])
        const permission = yield* Permission.Service
        const { id } = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
        const bash = (command: string) => permission.assert({ sessionID: id, action: "bash", resources: [command], save: [`${command} *`], source })
        const blocked = yield* bash("git push --force").pipe(Effect.flip)
        expect(blocked).toBeInstanceOf(Permission.BlockedError)
        const asked = yield* askedQueue
        for (const round of [1, 2]) {
          const fiber = yield* Effect.forkChild(bash("npm publish"))
          const request = yield* Queue.take(asked)
          // Nothing to save: the form offers no "always" that could loosen the policy.
          expect(request.save, `round ${round}`).toEqual([])
          // Marked as the policy's: no automatic answerer lets it through (answerer.ts).
          expect(request.byPolicy, `round ${round}`).toBe(true)
          yield* permission.reply({ requestID: request.id, reply: "always" })
          yield* Fiber.join(fiber)
        }
        expect(yield* bash("npm test")).toBeUndefined()
        const records = yield* Effect.flatMap(AuditLog.Service, (audit) => audit.list(project.id))
        expect(records.filter((record) => record.decidedBy === "rule" && record.effect !== "allow").map((record) => [record.effect, record.rules?.map((rule) => PermissionRule.describeSource(rule.source))])).toEqual([
          ["deny", ["organization policy rule 1 (no force pushes)"]],
          ["ask", ["organization policy rule 2"]],
          ["ask", ["organization policy rule 2"]],
        ])
        // The saved approvals are as they were: "always" added none for the policy's ask.
        expect((yield* approvals.list(project.id)).map((approval) => approval.resource)).toEqual(["git push --force", "npm publish"])
        // What `permission eval --explain` and the console's explain are made of.
        const rules = yield* ToolRequests.rules("build")
        const judged = ToolRequests.judge({ action: "bash", resources: ["npm publish"] }, rules, permission.context)
        expect(judged.decision.effect).toBe("ask")
        expect(ToolRequests.explain(judged, rules, permission.context)[0]?.explanation.winner.rule.source).toEqual({ kind: "policy", position: 2 })
      }).pipe(Effect.provide(gateLayer(root, { config, ...(url === undefined ? {} : { storage: url }) })))
    }))

  it.live("a policy path rule's ~ and $HOME are the judging process's home, as in a config file", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const url = yield* Effect.promise(backend.storage)
      const home = path.join(root, "home")
      const config = Config.merge([globalFile({ permission: [{ action: "*", resource: "*", effect: "allow" }] })])
      yield* Effect.gen(function* () {
        const sql = yield* Sql.Service
        yield* sql.run("INSERT INTO policy (position, action, resource, effect) VALUES (1, 'read', '~/.ssh/*', 'deny'), (2, 'edit', '$HOME/.bashrc', 'deny'), (3, 'external_directory', '~/.ssh*', 'ask')")
        const permission = yield* Permission.Service
        const { id } = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
        const effectOf = (action: string, resource: string) => Effect.map(permission.decide({ sessionID: id, action, resources: [resource] }), (decision) => decision.effect)
        expect(yield* effectOf("read", path.join(home, ".ssh", "id_rsa"))).toBe("deny")
        expect(yield* effectOf("edit", path.join(home, ".bashrc"))).toBe("deny")
        expect(yield* effectOf("external_directory", path.join(home, ".ssh"))).toBe("ask")
        expect(yield* effectOf("read", path.join(home, "notes.txt"))).toBe("allow")
        // Outside a session too: what `permission eval` judges by.
        const judged = ToolRequests.judge({ action: "read", resources: [path.join(home, ".ssh", "id_rsa")] }, yield* ToolRequests.rules("build"), permission.context)
        expect(judged.decision.effect).toBe("deny")
      }).pipe(Effect.provide(gateLayer(root, { config, ...(url === undefined ? {} : { storage: url }) })))
    }))

  it.live("todos, call outcomes, the change log and the event log", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* Effect.promise(() => mkdir(path.join(root, "data"), { recursive: true }))
      const url = yield* Effect.promise(backend.storage)
      const layer = Layer.mergeAll(Todo.layer, CallLog.layer, EventLog.layer()).pipe(Layer.provideMerge(Layer.mergeAll(Bus.layer, storageLayer(root, url))))
      yield* Effect.gen(function* () {
        const todos = yield* Todo.Service
        yield* todos.replace("ses_t", [{ content: "one", status: "pending", priority: "high" }, { id: "b", content: "two", status: "completed" }])
        expect(yield* todos.get("ses_t")).toEqual([{ content: "one", status: "pending", priority: "high" }, { id: "b", content: "two", status: "completed" }])
        yield* todos.replace("ses_t", [])
        expect(yield* todos.get("ses_t")).toEqual([])

        const calls = yield* CallLog.Service
        yield* calls.record({ sessionID: "ses_t", toolCallID: "call_1", tool: "read", input: { path: "a" }, kind: "success", text: "first" })
        yield* calls.record({ sessionID: "ses_t", toolCallID: "call_1", tool: "read", input: { path: "a" }, kind: "failure", text: "again" })
        expect(yield* calls.get("ses_t", "call_1")).toMatchObject({ tool: "read", input: { path: "a" }, kind: "failure", text: "again" })
        expect(yield* calls.get("ses_t", "call_none")).toBeUndefined()

        const changes = ChangeLog.make(yield* Sql.Service)
        const first = yield* changes.open({ sessionID: "ses_t", kind: "tool", messageID: "msg_1", before: "tree0", at: 1 })
        const second = yield* changes.open({ sessionID: "ses_t", kind: "shell", before: "tree1", at: 2 })
        expect(second).toBeGreaterThan(first)
        yield* changes.close(first, "tree1", [{ path: "a.txt", after: { mode: "100644", hash: "h" } } as never])
        expect((yield* changes.list("ses_t")).map((entry) => [entry.kind, entry.messageID, entry.after, entry.changes?.length])).toEqual([
          ["tool", "msg_1", "tree1", 1],
          ["shell", undefined, undefined, undefined],
        ])

        const log = yield* EventLog.Service
        const bus = yield* Bus.Service
        const before = yield* log.latest
        const stored = yield* Effect.scoped(
          Effect.gen(function* () {
            const live = yield* log.live
            yield* bus.publish(Ping, { n: 1 })
            yield* bus.publish(Ping, { n: 2 })
            return [...(yield* Stream.runCollect(Stream.take(Stream.filter(live, (event) => event.type.endsWith(Ping.type)), 2)))]
          }),
        )
        expect(stored.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }])
        expect(yield* log.latest).toBeGreaterThanOrEqual(before + 2)
        const page = yield* log.after(before)
        expect(page.filter((event) => event.type.endsWith(Ping.type)).map((event) => event.seq)).toEqual(stored.map((event) => event.seq))
        yield* log.prune
      }).pipe(Effect.provide(layer))
    }))
})

describe.skipIf(unavailable !== undefined)("PostgreSQL only", () => {
  it.live("the schema has the same tables and columns as the SQLite file's", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const file = path.join(dir, "toolgate.db")
      yield* Effect.scoped(Effect.provide(Effect.void, Database.layer(file)))
      const sqlite = new BetterSqlite3(file, { readonly: true })
      const tables = sqlite.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence' ORDER BY name").all()
      const fromSqlite = tables.flatMap(({ name }) => sqlite.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}') ORDER BY name`).all().map((column) => `${name}.${column.name}`))
      sqlite.close()
      const url = yield* Effect.promise(() => server().database())
      yield* Effect.scoped(Effect.provide(Effect.void, PostgresSql.layer(url)))
      const client = new pg.Client({ connectionString: url })
      yield* Effect.promise(() => client.connect())
      const result = yield* Effect.promise(() =>
        client.query<{ column: string }>(
          "SELECT table_name || '.' || column_name AS column FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'toolgate_schema' ORDER BY table_name, column_name",
        ),
      )
      const version = yield* Effect.promise(() => client.query<{ version: number }>("SELECT version FROM toolgate_schema"))
      yield* Effect.promise(() => client.end())
      expect(result.rows.map((row) => row.column).sort()).toEqual([...fromSqlite].sort())
      expect(version.rows).toEqual([{ version: Migrations.VERSION }])
    }))

  it.live("servers starting at once on a new database: one migrates, all of them open it", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const open = Effect.scoped(Effect.provide(Effect.flatMap(Sql.Service, (sql) => sql.get<{ n: number }>("SELECT count(*) AS n FROM toolgate_schema")), PostgresSql.layer(url)))
      const counts = yield* Effect.all([open, open, open, open], { concurrency: "unbounded" })
      expect(counts).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }, { n: 1 }])
      // Run again by hand, the migration finds the current version and applies nothing.
      const pool = new pg.Pool({ connectionString: url })
      const found = yield* PostgresSql.migrate(PostgresSql.make(pool, "test"))
      yield* Effect.promise(() => pool.end())
      expect(found).toBe(Migrations.VERSION)
    }))

  it.live("the application's role of docs/postgres.md runs every service, cannot change or delete an audit record, and cannot write the policy", () =>
    Effect.gen(function* () {
      const owner = yield* Effect.promise(() => server().database())
      const app = yield* Effect.promise(() => applicationRole(owner, "toolgate_app"))
      const root = yield* makeRoot
      yield* Effect.gen(function* () {
        const sessions = yield* Session.Service
        const approvals = yield* Approvals.Service
        const audit = yield* AuditLog.Service
        const project = yield* Project.Service
        yield* sessions.ensure({ id: "ses_app", agent: "build" })
        yield* approvals.add(project.id, "bash", ["make"], "ses_app")
        yield* audit.append({ projectID: project.id, sessionID: "ses_app", action: "bash", resources: ["make"], effect: "ask", decidedBy: "rule", requestID: "per_app" })
        yield* audit.append({ projectID: project.id, sessionID: "ses_app", action: "bash", resources: ["make"], effect: "allow", decidedBy: "person", requestID: "per_app", reply: "always" })
        yield* sessions.end("ses_app")
        expect((yield* audit.list(project.id)).length).toBe(2)
        const sql = yield* Sql.Service
        for (const statement of ["UPDATE audit_log SET reply = 'reject'", "DELETE FROM audit_log", "TRUNCATE audit_log"]) {
          const refused = yield* sql.run(statement).pipe(Effect.exit)
          expect(refused._tag === "Failure" ? String(Cause.squash(refused.cause)) : "ran", statement).toContain("permission denied for table audit_log")
        }
        expect((yield* audit.list(project.id)).length).toBe(2)
        // The policy is the administrator's: the application may read it, never write it.
        expect(yield* sql.all("SELECT * FROM policy")).toEqual([])
        const written = yield* sql.run("INSERT INTO policy (position, action, resource, effect) VALUES (1, '*', '*', 'allow')").pipe(Effect.exit)
        expect(written._tag === "Failure" ? String(Cause.squash(written.cause)) : "ran").toContain("permission denied for table policy")
      }).pipe(Effect.provide(gateLayer(root, { storage: app })))
    }))

  it.live("two machines, one project: the clones of a repository are one project, an approval saved on one applies on the other; without history project.id names it", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const first = yield* makeRoot
      const second = yield* makeRoot
      const work = path.join(first, "work")
      const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore" })
      git(work, "init", "-q")
      yield* Effect.promise(() => writeFile(path.join(work, "a.txt"), "a\n"))
      git(work, "add", "a.txt")
      git(work, "commit", "-q", "-m", "first")
      rmSync(path.join(second, "work"), { recursive: true })
      git(second, "clone", "-q", work, "work")
      const projectOf = (root: string, storage?: string) => Effect.map(Project.Service, (project) => project.id).pipe(Effect.provide(gateLayer(root, storage === undefined ? {} : { storage })))
      const onFirst = yield* projectOf(first, url)
      expect(yield* projectOf(second, url)).toBe(onFirst)
      // On one person's SQLite file the id stays the path's, as before.
      expect(yield* projectOf(first)).toBe(Project.idOf(work))
      yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.add(onFirst, "bash", ["npm test"])).pipe(Effect.provide(gateLayer(first, { storage: url })))
      const onSecond = yield* Effect.gen(function* () {
        const permission = yield* Permission.Service
        const sessions = yield* Session.Service
        const session = yield* sessions.ensure({ agent: "build" })
        return yield* permission.allows({ sessionID: session.id, action: "bash", resources: ["npm test"] })
      }).pipe(Effect.provide(gateLayer(second, { storage: url })))
      expect(onSecond).toBe(true)
      // A shallow clone's oldest commit is only where the copy stopped: not the project's root.
      const shallow = yield* makeRoot
      rmSync(path.join(shallow, "work"), { recursive: true })
      git(shallow, "clone", "-q", "--depth", "1", pathToFileURL(work).href, "work")
      expect(yield* projectOf(shallow, url)).not.toBe(onFirst)
      // Folders without history: the same project.id, each file trusted by its person, is the same
      // project, and never a repository's id (an untrusted one: test/project-identity.test.ts).
      const trusted = (root: string) => Effect.flatMap(Project.Service, (project) => project.trust).pipe(Effect.provide(gateLayer(root, { storage: url })))
      const named = yield* Effect.forEach([yield* makeRoot, yield* makeRoot], (root) =>
        Effect.promise(() => writeFile(path.join(root, "work", "toolgate.json"), '{ "project": { "id": "team-docs" } }\n')).pipe(Effect.andThen(trusted(root)), Effect.andThen(projectOf(root, url))),
      )
      expect(named[0]).toBe(named[1])
      expect(named[0]).not.toBe(onFirst)
    }))

  it.live("an \"always\" and the record of that decision are one transaction: an audit log that refuses the record keeps no approval either", () =>
    Effect.gen(function* () {
      const owner = yield* Effect.promise(() => server().database())
      const app = yield* Effect.promise(() => applicationRole(owner, "toolgate_app"))
      const admin = new pg.Client({ connectionString: owner })
      yield* Effect.promise(() => admin.connect())
      yield* Effect.addFinalizer(() => Effect.promise(() => admin.end()))
      const root = yield* makeRoot
      const config = Config.merge([globalFile({ permission: [{ action: "bash", resource: "*", effect: "ask" }] })])
      yield* Effect.gen(function* () {
        const permission = yield* Permission.Service
        const project = yield* Project.Service
        const { id } = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
        const asked = yield* askedQueue
        const fiber = yield* Effect.forkChild(Effect.exit(permission.assert({ sessionID: id, action: "bash", resources: ["make"], save: ["make *"], source })))
        const request = yield* Queue.take(asked)
        // The log takes no more records from now on.
        yield* Effect.promise(() => admin.query("REVOKE INSERT ON audit_log FROM toolgate_app"))
        yield* Effect.exit(permission.reply({ requestID: request.id, reply: "always" }))
        yield* Fiber.join(fiber)
        expect(yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.list(project.id))).toEqual([])
      }).pipe(Effect.provide(gateLayer(root, { config, storage: app })))
    }))

  it.live("a database newer than this toolgate is refused, naming its version", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      yield* Effect.scoped(Effect.provide(Effect.void, PostgresSql.layer(url)))
      const client = new pg.Client({ connectionString: url })
      yield* Effect.promise(() => client.connect())
      yield* Effect.promise(() => client.query("UPDATE toolgate_schema SET version = $1", [Migrations.VERSION + 1]))
      yield* Effect.promise(() => client.end())
      const refused = yield* Effect.scoped(Effect.provide(Effect.void, PostgresSql.layer(url))).pipe(Effect.flip)
      expect(refused.message).toBe(Database.Messages.open(PostgresSql.redacted(url), Database.Messages.newer(Migrations.VERSION + 1, Migrations.VERSION)))
    }))

  it.live("the database stopped mid-run: a statement fails as unavailable, naming the database; started again, the same layer works", () =>
    Effect.gen(function* () {
      const own = yield* Effect.promise(cluster)
      yield* Effect.addFinalizer(() => Effect.sync(own.destroy))
      const url = yield* Effect.promise(own.database)
      yield* Effect.gen(function* () {
        const sql = yield* Sql.Service
        const insert = (id: string) => sql.run("INSERT INTO project (id, worktree, created_at) VALUES (?, '/w', 1)", [id])
        yield* insert("prj_before")
        own.stop()
        const down = yield* insert("prj_down").pipe(Effect.exit)
        const failure = down._tag === "Failure" ? Sql.unavailableIn(down.cause) : undefined
        expect(failure).toBeInstanceOf(Sql.UnavailableError)
        expect(failure?.message.startsWith(`The database is unavailable (${PostgresSql.redacted(url)}): `)).toBe(true)
        expect((yield* sql.transaction(insert("prj_down")).pipe(Effect.exit))._tag).toBe("Failure")
        own.start()
        yield* insert("prj_after")
        expect((yield* sql.all<{ id: string }>("SELECT id FROM project ORDER BY id")).map((row) => row.id)).toEqual(["prj_after", "prj_before"])
      }).pipe(Effect.provide(PostgresSql.layer(url)))
    }), 120_000)
})
