import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Schema } from "effect"
import { ToolJsonSchema } from "../../src/tool/json-schema.js"
import { Tool } from "../../src/tool/tool.js"
import { context, makeEcho } from "../lib/echo.js"

const call = (input: unknown): Tool.Call => ({ id: "call_1", name: "echo", input })

describe("Tool", () => {
  it.effect("settles a valid call into one text part", () =>
    Effect.gen(function* () {
      const settled = yield* Tool.settle(makeEcho(), call({ text: "hi" }), context)
      expect(settled).toEqual({ content: [{ type: "text", text: "hi" }], structured: "hi", outputPaths: [] })
    }))

  it.effect("never executes a tool whose input does not decode", () =>
    Effect.gen(function* () {
      const counter = { runs: 0 }
      const error = yield* Tool.settle(makeEcho(counter), call({ text: 42 }), context).pipe(Effect.flip)
      expect(error).toBeInstanceOf(Tool.Failure)
      expect(error.message).toBe(Tool.Messages.invalidInput('Expected string\n  at ["text"]'))
      expect(counter.runs).toBe(0)
    }))

  it.effect("never reports an output that does not encode as success", () =>
    Effect.gen(function* () {
      const liar = Tool.make({
        description: "Claims a number, returns a string.",
        input: Schema.Struct({}),
        output: Schema.Finite,
        execute: () => Effect.succeed("not a number" as unknown as number),
      })
      const error = yield* Tool.settle(liar, call({}), context).pipe(Effect.flip)
      expect(error.message).toBe(Tool.Messages.invalidOutput("Expected number"))
    }))

  it.effect("projects structured output as pretty JSON, or through toModelOutput", () =>
    Effect.gen(function* () {
      const output = Schema.Struct({ count: Schema.Int })
      const input = Schema.Struct({})
      const plain = Tool.make({ description: "Counts.", input, output, execute: () => Effect.succeed({ count: 3 }) })
      expect((yield* Tool.settle(plain, call({}), context)).content).toEqual([{ type: "text", text: '{\n  "count": 3\n}' }])
      const projected = Tool.make({
        description: "Counts.",
        input,
        output,
        execute: () => Effect.succeed({ count: 3 }),
        toModelOutput: ({ output }) => [{ type: "text", text: `count=${output.count}` }],
      })
      expect((yield* Tool.settle(projected, call({}), context)).content).toEqual([{ type: "text", text: "count=3" }])
    }))

  it.effect("passes the typed Failure of execute to the caller unchanged", () =>
    Effect.gen(function* () {
      const failing = Tool.make({
        description: "Fails.",
        input: Schema.Struct({}),
        output: Schema.String,
        execute: () => Effect.fail(new Tool.Failure({ message: "file not found: a.txt" })),
      })
      const error = yield* Tool.settle(failing, call({}), context).pipe(Effect.flip)
      expect(error.message).toBe("file not found: a.txt")
    }))

  it.effect("does not convert a defect into a Failure", () =>
    Effect.gen(function* () {
      const broken = Tool.make({ description: "Dies.", input: Schema.Struct({}), output: Schema.String, execute: () => Effect.die(new RangeError("bug")) })
      const exit = yield* Effect.exit(Tool.settle(broken, call({}), context))
      expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
      expect(Exit.isFailure(exit) && Cause.findErrorOption(exit.cause)._tag).toBe("None")
    }))

  it.live("interrupting a running tool reaches its finalizers", () =>
    Effect.gen(function* () {
      const started = yield* Deferred.make<void>()
      const released = { count: 0 }
      const slow = Tool.make({
        description: "Waits forever.",
        input: Schema.Struct({}),
        output: Schema.String,
        execute: () =>
          Effect.acquireRelease(Deferred.succeed(started, undefined), () => Effect.sync(() => released.count++)).pipe(
            Effect.andThen(Effect.never),
            Effect.scoped,
          ),
      })
      const fiber = yield* Effect.forkChild(Tool.settle(slow, call({}), context))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      const exit = yield* Fiber.await(fiber)
      expect(Exit.isFailure(exit) && Cause.hasInterrupts(exit.cause)).toBe(true)
      expect(released.count).toBe(1)
    }))

  it("is an opaque, frozen, empty value", () => {
    const tool = makeEcho()
    expect(Object.keys(tool)).toEqual([])
    expect(Object.isFrozen(tool)).toBe(true)
    expect(() => Tool.definition("x", {} as Tool.AnyTool)).toThrow(new TypeError(Tool.Messages.invalidValue))
  })

  it.effect("settling a value that is not a tool is a defect", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Tool.settle({} as Tool.AnyTool, call({}), context))
      expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
    }))

  it("withPermission keeps the runtime and sets only the catalog action", () => {
    const tool = makeEcho()
    const edit = Tool.withPermission(tool, "edit")
    expect(edit).not.toBe(tool)
    expect(Tool.action(tool)).toBeUndefined()
    expect(Tool.action(edit)).toBe("edit")
    expect(Tool.definition("echo", edit)).toEqual(Tool.definition("echo", tool))
  })

  it("generates a definition's JSON Schemas when first read, once, and shows them to spread and JSON", () => {
    const tool = Tool.make({ description: "Lazy.", input: Schema.Struct({ path: Schema.String.annotate({ description: "Path" }) }), output: Schema.String, execute: () => Effect.succeed("") })
    const definition = Tool.definition("lazy", tool)
    const expected = {
      name: "lazy",
      description: "Lazy.",
      inputSchema: ToolJsonSchema.make(Schema.Struct({ path: Schema.String.annotate({ description: "Path" }) })),
      outputSchema: ToolJsonSchema.make(Schema.String),
    }
    expect(JSON.parse(JSON.stringify(definition))).toEqual(expected)
    expect({ ...definition }).toEqual(expected)
    expect(definition.inputSchema).toBe(definition.inputSchema)
    expect(Object.keys(definition)).toEqual(["name", "description", "inputSchema", "outputSchema"])
  })
})

describe("Tool JSON forms", () => {
  it.effect("decodes the model's JSON form and encodes the output to JSON-safe values", () =>
    Effect.gen(function* () {
      const big = Tool.make({
        description: "Doubles.",
        input: Schema.Struct({
          n: Schema.BigInt.annotate({ description: "A big integer, as a decimal string" }),
          note: Schema.optional(Schema.String.annotate({ description: "A note" })),
        }),
        output: Schema.Struct({ doubled: Schema.BigInt }),
        execute: ({ n }) => Effect.succeed({ doubled: n * 2n }),
      })
      const settled = yield* Tool.settle(big, call({ n: "12345678901234567890", note: null }), context)
      expect(settled.structured).toEqual({ doubled: "24691357802469135780" })
      expect(settled.content).toEqual([{ type: "text", text: '{\n  "doubled": "24691357802469135780"\n}' }])
    }))

  it.effect("fails with the output-schema message, instead of dying, when JSON cannot hold the output", () =>
    Effect.gen(function* () {
      const cyclic: Record<string, unknown> = {}
      cyclic.self = cyclic
      const loop = Tool.make({ description: "Loops.", input: Schema.Struct({}), output: Schema.Unknown, execute: () => Effect.succeed(cyclic) })
      const error = yield* Tool.settle(loop, call({}), context).pipe(Effect.flip)
      expect(error).toBeInstanceOf(Tool.Failure)
      expect(error.message).toBe(Tool.Messages.invalidOutput("Expected JSON value"))
    }))
})
