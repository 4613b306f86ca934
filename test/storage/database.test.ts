import { writeFile } from "node:fs/promises"
import path from "node:path"
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import BetterSqlite3 from "better-sqlite3"
import { Effect } from "effect"
import { Database } from "../../src/storage/database.js"
import { Migrations } from "../../src/storage/migrations.js"
import { tmpdir } from "../lib/tmp.js"

const tables = (db: Database.Connection) =>
  db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((row) => row.name)

describe("Database", () => {
  it.live("creates the schema with WAL, foreign keys and the current version", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "nested", "toolgate.db")
      const db = yield* Effect.acquireRelease(Database.open(file), (db) => Effect.sync(() => db.close()))
      expect(tables(db)).toEqual(["audit_log", "audit_pending", "call_outcome", "event", "event_pruned", "permission", "policy", "project", "revert", "session", "session_approval", "shared_ask", "snapshot", "snapshot_change", "sqlite_sequence", "todo", "trusted_config"])
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal")
      expect(db.pragma("foreign_keys", { simple: true })).toBe(1)
      expect(db.pragma("user_version", { simple: true })).toBe(Migrations.VERSION)
    }))

  it.live("reopens an existing database without migrating it again", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const first = yield* Database.open(file)
      first.prepare("INSERT INTO project (id, worktree, created_at) VALUES ('prj_1', '/w', 1)").run()
      first.close()
      const second = yield* Database.open(file)
      expect(second.prepare("SELECT worktree FROM project").all()).toEqual([{ worktree: "/w" }])
      second.close()
    }))

  it.live("upgrades a database of the previous version in place: its rows stay, trust by content starts empty", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const old = new BetterSqlite3(file)
      Migrations.MIGRATIONS.slice(0, 3).forEach((sql) => old.exec(sql))
      old.pragma("user_version = 3")
      old.prepare("INSERT INTO project (id, worktree, trusted_at, created_at) VALUES ('prj_1', '/w', 5, 1)").run()
      old.prepare("INSERT INTO permission (id, project_id, action, resource, created_at) VALUES ('psv_1', 'prj_1', 'bash', 'git *', 2)").run()
      old.close()
      const db = yield* Effect.acquireRelease(Database.open(file), (db) => Effect.sync(() => db.close()))
      expect(db.pragma("user_version", { simple: true })).toBe(Migrations.VERSION)
      expect(db.prepare("SELECT id, worktree, trusted_at FROM project").all()).toEqual([{ id: "prj_1", worktree: "/w", trusted_at: 5 }])
      expect(db.prepare("SELECT action, resource FROM permission").all()).toEqual([{ action: "bash", resource: "git *" }])
      expect(db.prepare("SELECT * FROM trusted_config").all()).toEqual([])
      db.prepare("INSERT INTO trusted_config (path, project_id, hash, content, trusted_at) VALUES ('/w/toolgate.json', 'prj_1', 'h', '{}', 6)").run()
      db.prepare("DELETE FROM project WHERE id = 'prj_1'").run()
      // A project's trust goes with it.
      expect(db.prepare("SELECT * FROM trusted_config").all()).toEqual([])
    }))

  it.live("refuses a database written by a newer toolgate, naming the path", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const raw = new BetterSqlite3(file)
      raw.pragma(`user_version = ${Migrations.VERSION + 1}`)
      raw.close()
      const error = yield* Database.open(file).pipe(Effect.flip)
      expect(error.message).toBe(Database.Messages.open(file, Database.Messages.newer(Migrations.VERSION + 1, Migrations.VERSION)))
      const after = new BetterSqlite3(file)
      expect(after.pragma("user_version", { simple: true })).toBe(Migrations.VERSION + 1)
      expect(after.pragma("journal_mode", { simple: true })).toBe("delete")
      after.close()
      expect(existsSync(`${file}-wal`)).toBe(false)
    }))

  it.live("refuses a file that is not a database, with SQLite's message, and leaves it alone", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const garbage = "this is not a database, it is a shopping list\n".repeat(100)
      yield* Effect.promise(() => writeFile(file, garbage))
      const error = yield* Database.open(file).pipe(Effect.flip)
      expect(error.message).toBe(Database.Messages.open(file, "file is not a database"))
      expect(yield* Effect.promise(() => import("node:fs/promises").then((fs) => fs.readFile(file, "utf8")))).toBe(garbage)
    }))

  it.live("migrates a new file once when several processes open it at the same moment", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
      const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href
      const module = pathToFileURL(path.join(root, "src/storage/database.ts")).href
      const open = `import { Effect } from "effect"; const { Database } = await import(${JSON.stringify(module)});
        const db = await Effect.runPromise(Database.open(${JSON.stringify(file)})); db.close(); console.log("ok")`
      const children = Array.from({ length: 6 }, () => spawn(process.execPath, ["--import", tsx, "--input-type=module", "-e", open], { cwd: root }))
      const results = yield* Effect.promise(() =>
        Promise.all(children.map((child) => new Promise<string>((resolve) => {
          const output: string[] = []
          child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()))
          child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()))
          child.on("close", (code) => resolve(`${code} ${output.join("").trim()}`))
        }))),
      )
      expect(results).toEqual(Array.from({ length: 6 }, () => "0 ok"))
    }))

  it.live("keeps what one process wrote for the next process", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
      const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href
      const module = pathToFileURL(path.join(root, "src/storage/database.ts")).href
      const write = `import { Effect } from "effect"; const { Database } = await import(${JSON.stringify(module)});
        const db = await Effect.runPromise(Database.open(${JSON.stringify(file)}));
        db.prepare("INSERT INTO project (id, worktree, created_at) VALUES ('prj_x', '/x', 1)").run(); db.close()`
      const child = spawnSync(process.execPath, ["--import", tsx, "--input-type=module", "-e", write], { cwd: root, encoding: "utf8" })
      expect(child.stderr).toBe("")
      const db = yield* Database.open(file)
      expect(db.prepare("SELECT id FROM project").all()).toEqual([{ id: "prj_x" }])
      db.close()
    }))
})
