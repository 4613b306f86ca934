import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, type Scope } from "effect"
import { ApplicationTools } from "../../src/tool/application-tools.js"
import type { Bus } from "../../src/bus.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { Tool } from "../../src/tool/tool.js"
import { makeEcho } from "../lib/echo.js"
import { runtimeLayer } from "../lib/runtime.js"
import { tmpdir } from "../lib/tmp.js"

type Services = ToolRegistry.Service | ToolRegistry.Tools | ApplicationTools.Service | Bus.Service | Scope.Scope

const withRuntime = <A, E>(body: Effect.Effect<A, E, Services>) =>
  Effect.gen(function* () {
    const dir = yield* tmpdir
    return yield* body.pipe(Effect.provide(runtimeLayer({ outputDirectory: dir })))
  })

/** A tool that says it would ask `touch [path]` for the decoded input, and fails for "-". */
const touch = Tool.make({
  description: "Touches a file.",
  input: Schema.Struct({ path: Schema.String.annotate({ description: "The file" }), times: Schema.optional(Schema.Int.annotate({ description: "How often" })) }),
  output: Schema.String,
  execute: () => Effect.succeed("touched"),
  requests: (input, context) =>
    input.path === "-" ? Effect.fail(new Tool.Failure({ message: "no path" })) : Effect.succeed([{ action: "touch", resources: [input.path], save: [input.path], metadata: { agent: context.agent, times: input.times ?? 1 } }]),
})

describe("ToolRegistry.requests", () => {
  it.live("lists what a call would ask, from the registration a call would run, with the input decoded as settle decodes it", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        yield* registry.register({ touch: Tool.withPermission(touch, "edit") })
        expect(yield* registry.requests("touch", { path: "a", times: null }, { agent: "build" })).toEqual([
          { action: "touch", resources: ["a"], save: ["a"], metadata: { agent: "build", times: 1 } },
        ])
        expect(Tool.declaresRequests(touch)).toBe(true)
        expect(Tool.declaresRequests(makeEcho())).toBe(false)
      }),
    ))

  it.live("fails by tag: an unknown name, a tool that does not declare its requests, an input that does not decode, the tool's own failure", () =>
    withRuntime(
      Effect.gen(function* () {
        const registry = yield* ToolRegistry.Service
        yield* ApplicationTools.register({ echo: makeEcho(), touch })
        const unknown = yield* registry.requests("nope", {}, { agent: "build" }).pipe(Effect.flip)
        expect(unknown).toEqual(new ToolRegistry.UnknownToolError({ name: "nope" }))
        expect(unknown.message).toBe(ToolRegistry.Messages.unknownTool("nope"))
        const undeclared = yield* registry.requests("echo", { text: "x" }, { agent: "build" }).pipe(Effect.flip)
        expect(undeclared).toEqual(new ToolRegistry.UndeclaredError({ name: "echo" }))
        expect(undeclared.message).toBe(ToolRegistry.Messages.undeclared("echo"))
        const invalid = yield* registry.requests("touch", { path: 1 }, { agent: "build" }).pipe(Effect.flip)
        expect(invalid).toBeInstanceOf(Tool.InvalidInputError)
        expect(invalid.message).toBe(Tool.Messages.invalidInput("Expected string\n  at [\"path\"]"))
        expect(yield* registry.requests("touch", { path: "-" }, { agent: "build" }).pipe(Effect.flip)).toEqual(new Tool.Failure({ message: "no path" }))
      }),
    ))
})
