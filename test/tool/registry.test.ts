import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Queue, Schema, Scope, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import { ApplicationTools } from "../../src/tool/application-tools.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { Tool } from "../../src/tool/tool.js"
import { context, makeEcho } from "../lib/echo.js"
import { openScope, runtimeLayer } from "../lib/runtime.js"
import { tmpdir } from "../lib/tmp.js"

const call = (name: string, input: unknown = { text: "hi" }): Tool.Call => ({ id: "call_1", name, input })

type Services = ToolRegistry.Service | ToolRegistry.Tools | ApplicationTools.Service | Bus.Service | Scope.Scope

const withRuntime = <A, E>(body: Effect.Effect<A, E, Services>, config = {}) =>
  Effect.gen(function* () {
    const dir = yield* tmpdir
    return yield* body.pipe(Effect.provide(runtimeLayer({ outputDirectory: dir, config })))
  })

const textOf = (outcome: ToolRegistry.Outcome) => (outcome.type === "success" ? outcome.content : outcome.message)

describe("ToolRegistry", () => {
  it.live("closing a scope reveals the registration it replaced", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const a = yield* openScope
        const b = yield* openScope
        yield* a.run(registry.register({ echo: makeEcho(undefined, "A:") }))
        yield* b.run(registry.register({ echo: makeEcho(undefined, "B:") }))
        const first = yield* registry.materialize({ rules: [] })
        expect(textOf(yield* first.settle(call("echo"), context))).toEqual([{ type: "text", text: "B:hi" }])
        yield* b.close
        const second = yield* registry.materialize({ rules: [] })
        expect(textOf(yield* second.settle(call("echo"), context))).toEqual([{ type: "text", text: "A:hi" }])
        yield* a.close
        const third = yield* registry.materialize({ rules: [] })
        expect(third.definitions).toEqual([])
      }),
    ))

  it.live("a Location registration beats the process one, and revealing goes back to it", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const tools = yield* ToolRegistry.Tools
        const application = yield* openScope
        const location = yield* openScope
        yield* application.run(ApplicationTools.register({ echo: makeEcho(undefined, "process:") }))
        yield* location.run(tools.register({ echo: makeEcho(undefined, "location:") }))
        const catalog = yield* registry.materialize({ rules: [] })
        expect(textOf(yield* catalog.settle(call("echo"), context))).toEqual([{ type: "text", text: "location:hi" }])
        yield* location.close
        const after = yield* registry.materialize({ rules: [] })
        expect(textOf(yield* after.settle(call("echo"), context))).toEqual([{ type: "text", text: "process:hi" }])
        yield* application.close
      }),
    ))

  it.live("rejects an invalid name and registers nothing of that record", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const scope = yield* openScope
        for (const name of ["1echo", "echo tool", "", "a".repeat(65), "e.cho"]) {
          const error = yield* scope.run(registry.register({ good: makeEcho(), [name]: makeEcho() })).pipe(Effect.flip)
          expect(error).toBeInstanceOf(Tool.RegistrationError)
          expect(error.message).toBe(Tool.Messages.invalidName(name))
        }
        expect(registry.lookup("good")).toBeUndefined()
        yield* scope.run(registry.register({ ["a".repeat(64)]: makeEcho(), "A-b_9": makeEcho() }))
        expect(registry.lookup("A-b_9")).toBeDefined()
        yield* scope.close
      }),
    ))

  it.live("rejects a tool whose input fields are not described", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const scope = yield* openScope
        const vague = Tool.make({
          description: "Vague.",
          input: Schema.Struct({ path: Schema.String, line: Schema.Int.annotate({ description: "Line" }) }),
          output: Schema.String,
          execute: () => Effect.succeed(""),
        })
        const error = yield* scope.run(registry.register({ vague })).pipe(Effect.flip)
        expect(error.message).toBe(Tool.Messages.undescribed("vague", ["path"]))
        yield* scope.close
      }),
    ))

  it.live("publishes registry.changed on register and on revoke", () =>
    withRuntime(
      Effect.gen(function* () {
        const bus = yield* Bus.Service
        const registry = yield* ToolRegistry.Service
        const events = yield* Queue.unbounded<unknown>()
        const changes = yield* bus.on(ApplicationTools.Changed)
        yield* changes.pipe(Stream.runForEach((event) => Queue.offer(events, event.payload)), Effect.forkScoped)
        const scope = yield* openScope
        yield* scope.run(registry.register({ echo: makeEcho() }))
        yield* scope.close
        expect(yield* Queue.take(events)).toEqual({ layer: "location", names: ["echo"] })
        expect(yield* Queue.take(events)).toEqual({ layer: "location", names: ["echo"] })
      }),
    ))
})

describe("ToolRegistry catalog", () => {
  it.live("settles a call to a name never advertised as Unknown tool", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const catalog = yield* registry.materialize({ rules: [] })
        expect(yield* catalog.settle(call("nope"), context)).toEqual({ type: "error", message: ToolRegistry.Messages.unknownTool("nope") })
      }),
    ))

  it.live("a call advertised as B and settled after B's scope closed is stale, not run as A", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const counterA = { runs: 0 }
        const a = yield* openScope
        const b = yield* openScope
        yield* a.run(registry.register({ echo: makeEcho(counterA) }))
        yield* b.run(registry.register({ echo: makeEcho() }))
        const catalog = yield* registry.materialize({ rules: [] })
        yield* b.close
        expect(yield* catalog.settle(call("echo"), context)).toEqual({ type: "error", message: ToolRegistry.Messages.staleToolCall("echo") })
        expect(counterA.runs).toBe(0)
        yield* a.close
        expect(yield* catalog.settle(call("echo"), context)).toEqual({ type: "error", message: ToolRegistry.Messages.staleToolCall("echo") })
      }),
    ))

  it.live("a registration replaced after the turn began makes the call stale", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const counter = { runs: 0 }
        const a = yield* openScope
        yield* a.run(registry.register({ echo: makeEcho() }))
        const catalog = yield* registry.materialize({ rules: [] })
        yield* a.run(registry.register({ echo: makeEcho(counter) }))
        expect(yield* catalog.settle(call("echo"), context)).toEqual({ type: "error", message: ToolRegistry.Messages.staleToolCall("echo") })
        expect(counter.runs).toBe(0)
        yield* a.close
      }),
    ))

  it.live("a registry change during a running call does not affect it", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const started = yield* Deferred.make<void>()
        const proceed = yield* Deferred.make<void>()
        const gated = Tool.make({
          description: "Waits for a signal.",
          input: Schema.Struct({}),
          output: Schema.String,
          execute: () => Deferred.succeed(started, undefined).pipe(Effect.andThen(Deferred.await(proceed)), Effect.as("original")),
        })
        const a = yield* openScope
        yield* a.run(registry.register({ gated }))
        const catalog = yield* registry.materialize({ rules: [] })
        const fiber = yield* Effect.forkChild(catalog.settle(call("gated", {}), context))
        yield* Deferred.await(started)
        yield* a.close
        yield* Deferred.succeed(proceed, undefined)
        expect(textOf(yield* Fiber.join(fiber))).toEqual([{ type: "text", text: "original" }])
      }),
    ))

  it.live("an invalid input is an error outcome and never runs the tool", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        const counter = { runs: 0 }
        const a = yield* openScope
        yield* a.run(registry.register({ echo: makeEcho(counter) }))
        const catalog = yield* registry.materialize({ rules: [] })
        expect(yield* catalog.settle(call("echo", {}), context)).toEqual({
          type: "error",
          message: Tool.Messages.invalidInput('Missing key\n  at ["text"]'),
        })
        expect(counter.runs).toBe(0)
        yield* a.close
      }),
    ))

  it.live("publishes tool.started and tool.settled around a call", () =>
    withRuntime(
      Effect.gen(function* () {
        const bus = yield* Bus.Service
        const registry = yield* ToolRegistry.Service
        const events = yield* Queue.unbounded<Bus.Event>()
        const all = yield* bus.subscribe
        yield* all.pipe(
          Stream.filter((event) => event.type.startsWith("tool.")),
          Stream.runForEach((event) => Queue.offer(events, event)),
          Effect.forkScoped,
        )
        const a = yield* openScope
        yield* a.run(registry.register({ echo: makeEcho() }))
        const catalog = yield* registry.materialize({ rules: [] })
        yield* catalog.settle(call("echo"), context)
        const started = yield* Queue.take(events)
        const settled = yield* Queue.take(events)
        expect(started).toEqual({ type: "tool.started", payload: { sessionID: "ses_test", toolCallID: "call_test", tool: "echo" } })
        expect(settled.type).toBe("tool.settled")
        expect(settled.payload).toMatchObject({ sessionID: "ses_test", toolCallID: "call_test", tool: "echo", failed: false })
        yield* a.close
      }),
    ))
})
