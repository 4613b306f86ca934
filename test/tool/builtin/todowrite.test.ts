import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Queue, type Scope, Stream } from "effect"
import { Approvals } from "../../../src/permission/approvals.js"
import { Bus } from "../../../src/bus.js"
import type { Config } from "../../../src/config.js"
import { Permission } from "../../../src/permission/permission.js"
import { Project } from "../../../src/project.js"
import { Todo } from "../../../src/todo.js"
import { TodoWriteTool } from "../../../src/tool/builtin/todowrite.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { gateLayer, makeRoot } from "../../lib/permission.js"

type Services = Scope.Scope | Todo.Service | Effect.Services<typeof TodoWriteTool.make> | Layer.Success<ReturnType<typeof gateLayer>>

/** The tool over a real database and gate in `root`; the same root reopens the same database. */
const withTool = <A, E>(root: string, body: (tool: Effect.Success<typeof TodoWriteTool.make>) => Effect.Effect<A, E, Services>, config?: Partial<Config.Info>) =>
  Effect.flatMap(TodoWriteTool.make, body).pipe(
    Effect.provide(Todo.layer.pipe(Layer.provideMerge(gateLayer(root, config === undefined ? {} : { config })))),
    Effect.scoped,
  )

const list = [
  { id: "a", content: "Read the spec", status: "completed", priority: "high" },
  { content: "Write the tool", status: "in_progress" },
  { content: "Write the tests", status: "pending", priority: "low" },
  { content: "Gold-plate it", status: "cancelled" },
] as const

const sessionOf = (asked: ReadonlyArray<Permission.Request>, fallback: string) => asked[0]?.sessionID ?? fallback

describe("TodoWriteTool", () => {
  it.live("stores the list and answers with one line per item and the count still open", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const { result } = yield* settle(tool, { todos: list })
          expect(textOf(result)).toBe(["[x] Read the spec", "[~] Write the tool", "[ ] Write the tests", "[-] Gold-plate it", "2 open"].join("\n"))
          expect(result._tag === "Success" && result.success.structured).toEqual({ todos: list })
        }),
      )
    }))

  it.live("replaces the previous list as a whole and publishes todo.updated", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const bus = yield* Bus.Service
          const todos = yield* Todo.Service
          const events = yield* Queue.unbounded<{ readonly sessionID: string; readonly todos: ReadonlyArray<Todo.Item> }>()
          yield* Stream.runForEach(yield* bus.on(Todo.Updated), (event) => Queue.offer(events, event.payload)).pipe(Effect.forkScoped)
          yield* settle(tool, { todos: list })
          const first = yield* Queue.take(events)
          expect(first.todos).toEqual(list)
          const { result } = yield* settle(tool, { todos: [{ content: "Ship", status: "pending" }] })
          expect(textOf(result)).toBe("[ ] Ship\n1 open")
          const second = yield* Queue.take(events)
          expect(second.todos).toEqual([{ content: "Ship", status: "pending" }])
          expect(yield* todos.get(first.sessionID)).toEqual(list)
          expect(yield* todos.get(second.sessionID)).toEqual([{ content: "Ship", status: "pending" }])
        }),
      )
    }))

  it.live("keeps the list across a restart", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const sessionID = yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const bus = yield* Bus.Service
          const events = yield* Queue.unbounded<string>()
          yield* Stream.runForEach(yield* bus.on(Todo.Updated), (event) => Queue.offer(events, event.payload.sessionID)).pipe(Effect.forkScoped)
          yield* settle(tool, { todos: list })
          return yield* Queue.take(events)
        }),
      )
      expect(yield* withTool(root, () => Effect.flatMap(Todo.Service, (todos) => todos.get(sessionID)))).toEqual(list)
    }))

  it.live("accepts two items in progress and says so in the text", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const both = [
            { content: "One", status: "in_progress" },
            { content: "Two", status: "in_progress" },
          ]
          const { result } = yield* settle(tool, { todos: both })
          expect(textOf(result)).toBe(["[~] One", "[~] Two", "2 open", TodoWriteTool.MULTIPLE_IN_PROGRESS].join("\n"))
          expect(result._tag === "Success" && result.success.structured).toEqual({ todos: both })
        }),
      )
    }))

  it.live("clears the list with an empty one", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          yield* settle(tool, { todos: list })
          const { result } = yield* settle(tool, { todos: [] })
          expect(textOf(result)).toBe("0 open")
        }),
      )
    }))

  it.live("refuses an unknown status or an empty item before storing anything", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const bad = yield* settle(tool, { todos: [{ content: "x", status: "done" }] })
          expect(bad.result._tag).toBe("Failure")
          expect(textOf(bad.result).startsWith("Invalid tool input: ")).toBe(true)
          const empty = yield* settle(tool, { todos: [{ content: "", status: "pending" }] })
          expect(textOf(empty.result).startsWith("Invalid tool input: ")).toBe(true)
          expect([...bad.asked, ...empty.asked]).toEqual([])
        }),
      )
    }))

  it.live("asks todowrite on * and saves * on always", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const config = globalConfig({ permission: [{ action: "todowrite", resource: "*", effect: "ask" }] })
      yield* withTool(
        root,
        (tool) =>
          Effect.gen(function* () {
            const { result, asked } = yield* settle(tool, { todos: list }, "always")
            expect(result._tag).toBe("Success")
            expect(asked.map(({ action, resources, save }) => ({ action, resources, save }))).toEqual([{ action: "todowrite", resources: ["*"], save: ["*"] }])
            const project = yield* Project.Service
            const saved = yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.list(project.id))
            expect(saved.map(({ action, resource }) => ({ action, resource }))).toEqual([{ action: "todowrite", resource: "*" }])
            expect((yield* settle(tool, { todos: list })).asked).toEqual([])
          }),
        config,
      )
    }))

  it.live("stores nothing when the person declines", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const config = globalConfig({ permission: [{ action: "todowrite", resource: "*", effect: "ask" }] })
      yield* withTool(
        root,
        (tool) =>
          Effect.gen(function* () {
            const { result, asked } = yield* settle(tool, { todos: list }, "reject")
            expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.DeclinedError)
            expect(yield* Effect.flatMap(Todo.Service, (todos) => todos.get(sessionOf(asked, "")))).toEqual([])
          }),
        config,
      )
    }))
})
