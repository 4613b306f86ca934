import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import BetterSqlite3 from "better-sqlite3"
import { Effect, Layer, Queue, Stream } from "effect"
import { Bus } from "../src/bus.js"
import { Database } from "../src/storage/database.js"
import { Migrations } from "../src/storage/migrations.js"
import { Todo } from "../src/todo.js"
import { tmpdir } from "./lib/tmp.js"

const todoLayer = (file: string) => Todo.layer.pipe(Layer.provideMerge(Layer.mergeAll(Database.layer(file), Bus.layer)))

/** Runs `body` against the database file in its own layer, closed afterwards (a process's lifetime). */
const withTodos = <A>(file: string, body: Effect.Effect<A, never, Todo.Service | Bus.Service>) => Effect.scoped(Effect.provide(body, todoLayer(file)))

const list: ReadonlyArray<Todo.Item> = [
  { id: "1", content: "Read the spec", status: "completed", priority: "high" },
  { content: "Write the migration", status: "in_progress" },
  { id: "3", content: "Write tests", status: "pending", priority: "low" },
  { content: "Port the old tool", status: "cancelled", priority: "medium" },
]

describe("Todo", () => {
  it.live("replaces the whole list, keeping order and leaving absent ids and priorities absent", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      yield* withTodos(
        file,
        Effect.gen(function* () {
          const todos = yield* Todo.Service
          expect(yield* todos.get("ses_a")).toEqual([])
          yield* todos.replace("ses_a", list)
          expect(yield* todos.get("ses_a")).toEqual(list)
          yield* todos.replace("ses_a", [{ content: "Only this", status: "pending" }])
          expect(yield* todos.get("ses_a")).toEqual([{ content: "Only this", status: "pending" }])
          yield* todos.replace("ses_a", [])
          expect(yield* todos.get("ses_a")).toEqual([])
        }),
      )
    }))

  it.live("keeps each session's list apart", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      yield* withTodos(
        file,
        Effect.gen(function* () {
          const todos = yield* Todo.Service
          yield* todos.replace("ses_a", list)
          yield* todos.replace("ses_b", [{ content: "Other", status: "pending" }])
          yield* todos.replace("ses_b", [])
          expect(yield* todos.get("ses_a")).toEqual(list)
          expect(yield* todos.get("ses_b")).toEqual([])
        }),
      )
    }))

  it.live("survives closing and reopening the database", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      yield* withTodos(file, Effect.flatMap(Todo.Service, (todos) => todos.replace("ses_a", list)))
      expect(yield* withTodos(file, Effect.flatMap(Todo.Service, (todos) => todos.get("ses_a")))).toEqual(list)
    }))

  it.live("leaves the old list whole when the new one cannot be stored", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      yield* withTodos(file, Effect.flatMap(Todo.Service, (todos) => todos.replace("ses_a", list)))
      // A status the table refuses, past the first row: the rows before it must not stay deleted or half-written.
      const broken = [{ content: "New", status: "pending" }, { content: "Bad", status: "done" }] as unknown as ReadonlyArray<Todo.Item>
      const exit = yield* withTodos(file, Effect.exit(Effect.flatMap(Todo.Service, (todos) => todos.replace("ses_a", broken))))
      expect(exit._tag).toBe("Failure")
      expect(yield* withTodos(file, Effect.flatMap(Todo.Service, (todos) => todos.get("ses_a")))).toEqual(list)
    }))

  it.live("publishes todo.updated with the new list after storing it", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      yield* withTodos(
        file,
        Effect.gen(function* () {
          const bus = yield* Bus.Service
          const todos = yield* Todo.Service
          const events = yield* Queue.unbounded<Bus.Event>()
          yield* Stream.runForEach(yield* bus.on(Todo.Updated), (event) => Queue.offer(events, event)).pipe(Effect.forkScoped)
          yield* todos.replace("ses_a", list)
          const event = yield* Queue.take(events)
          expect(event).toEqual({ type: "todo.updated", payload: { sessionID: "ses_a", todos: list } })
        }).pipe(Effect.scoped),
      )
    }))

  it.live("adds the todo table to a database of the previous version, keeping its data", () =>
    Effect.gen(function* () {
      const file = path.join(yield* tmpdir, "toolgate.db")
      const old = new BetterSqlite3(file)
      // The version before the migration that made the todo table.
      const before = Migrations.MIGRATIONS.findIndex((sql) => sql.includes("CREATE TABLE todo"))
      Migrations.MIGRATIONS.slice(0, before).forEach((sql) => old.exec(sql))
      old.pragma(`user_version = ${before}`)
      old.prepare("INSERT INTO project (id, worktree, created_at) VALUES ('prj_1', '/w', 1)").run()
      old.close()
      yield* withTodos(file, Effect.flatMap(Todo.Service, (todos) => todos.replace("ses_a", list)))
      const db = yield* Effect.acquireRelease(Database.open(file), (db) => Effect.sync(() => db.close()))
      expect(db.prepare("SELECT worktree FROM project").all()).toEqual([{ worktree: "/w" }])
      expect(db.prepare("SELECT count(*) AS n FROM todo").get()).toEqual({ n: list.length })
    }))

  it("shows one line per item and the count still open", () => {
    expect(Todo.text(list)).toBe(["[x] Read the spec", "[~] Write the migration", "[ ] Write tests", "[-] Port the old tool", "2 open"].join("\n"))
    expect(Todo.text([])).toBe("0 open")
    expect(Todo.text([{ content: "two\nlines ", status: "pending" }])).toBe("[ ] two lines\n1 open")
    expect(Todo.text([{ content: "  a \r\n\n  b\r c  ", status: "pending" }])).toBe("[ ] a b c\n1 open")
    // A long run of spaces stays as it is (and costs a linear scan, not a quadratic one).
    const spaced = `a${" ".repeat(200_000)}b`
    expect(Todo.text([{ content: spaced, status: "pending" }])).toBe(`[ ] ${spaced}\n1 open`)
  })
})
