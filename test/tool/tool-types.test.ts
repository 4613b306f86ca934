/**
 * Locks in inference at `Tool.make`: `tsc --noEmit` (part of npm test) fails if execute stops
 * receiving the decoded input type or starts accepting a wrong output type.
 */
import { describe, expect, expectTypeOf, it } from "vitest"
import { Effect, Schema } from "effect"
import { Tool } from "../../src/tool/tool.js"

describe("Tool.make types", () => {
  it("infers execute's input from the input schema and checks its output against the output schema", () => {
    const tool = Tool.make({
      description: "Types.",
      input: Schema.Struct({
        path: Schema.String.annotate({ description: "A path" }),
        limit: Schema.optional(Schema.Int.annotate({ description: "A limit" })),
      }),
      output: Schema.Struct({ lines: Schema.Int }),
      execute: (input, context) => {
        expectTypeOf(input).toEqualTypeOf<{ readonly path: string; readonly limit?: number | undefined }>()
        expectTypeOf(context).toEqualTypeOf<Tool.Context>()
        return Effect.succeed({ lines: input.path.length })
      },
    })
    expectTypeOf(tool).toEqualTypeOf<Tool.Value<{ readonly path: string; readonly limit?: number | undefined }, { readonly lines: number }>>()

    Tool.make({
      description: "Wrong output.",
      input: Schema.Struct({}),
      output: Schema.Struct({ lines: Schema.Int }),
      // @ts-expect-error the output must match the output schema's type
      execute: () => Effect.succeed({ lines: "many" }),
    })

    Tool.make({
      description: "Wrong error.",
      input: Schema.Struct({}),
      output: Schema.String,
      // @ts-expect-error execute may only fail with Tool.Failure
      execute: () => Effect.fail(new Error("untyped")),
    })
    expect(Tool.isTool(tool)).toBe(true)
  })
})
