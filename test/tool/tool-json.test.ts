import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Tool } from "../../src/tool/tool.js"
import { context } from "../lib/echo.js"

const inputSchema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] }

describe("Tool.fromJsonSchema", () => {
  it("advertises its schemas as given, with no output schema when it declares none", () => {
    const tool = Tool.fromJsonSchema({ description: "Search.", inputSchema, execute: () => Effect.succeed({ content: [] }) })
    expect(Tool.definition("search", tool)).toEqual({ name: "search", description: "Search.", inputSchema })
    const typed = Tool.fromJsonSchema({ description: "Search.", inputSchema, outputSchema: { type: "object" }, execute: () => Effect.succeed({ content: [] }) })
    expect(Tool.definition("search", typed).outputSchema).toEqual({ type: "object" })
  })

  it.effect("settles to the content and structured output execute returns, passing the arguments through", () =>
    Effect.gen(function* () {
      const seen: Array<unknown> = []
      const tool = Tool.fromJsonSchema({
        description: "Search.",
        inputSchema,
        execute: (input) =>
          Effect.sync(() => {
            seen.push(input)
            return { content: [{ type: "text", text: "found" }], structured: { hits: 1 } }
          }),
      })
      const settled = yield* Tool.settle(tool, { id: "c", name: "search", input: { q: "x", extra: [1] } }, context)
      expect(settled).toEqual({ content: [{ type: "text", text: "found" }], structured: { hits: 1 }, outputPaths: [] })
      expect(seen).toEqual([{ q: "x", extra: [1] }])
    }))

  it.effect("refuses arguments that are not a JSON object before execute runs", () =>
    Effect.gen(function* () {
      let runs = 0
      const tool = Tool.fromJsonSchema({ description: "Search.", inputSchema, execute: () => Effect.sync(() => (runs++, { content: [] })) })
      const exit = yield* Effect.exit(Tool.settle(tool, { id: "c", name: "search", input: ["q"] }, context))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(runs).toBe(0)
    }))

  it("refuses registration when the input schema is not an object schema", () => {
    const tool = Tool.fromJsonSchema({ description: "Bad.", inputSchema: { type: "string" }, execute: () => Effect.succeed({ content: [] }) })
    expect(Tool.validate("bad", tool)?.message).toBe(Tool.Messages.notObjectSchema("bad"))
    expect(Tool.validate("good", Tool.fromJsonSchema({ description: "Good.", inputSchema, execute: () => Effect.succeed({ content: [] }) }))).toBeUndefined()
  })
})
