import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { ToolJsonSchema } from "../../src/tool/json-schema.js"

interface Node {
  readonly name: string
  readonly children: ReadonlyArray<Node>
}
const NodeSchema: Schema.Codec<Node> = Schema.Struct({
  name: Schema.String,
  children: Schema.Array(Schema.suspend((): Schema.Codec<Node> => NodeSchema)),
}).annotate({ identifier: "Node" })

const contains = (value: unknown, needle: string) => JSON.stringify(value).includes(needle)

describe("ToolJsonSchema", () => {
  it("removes the NaN/Infinity string branches of a plain number and keeps its description", () => {
    const schema = ToolJsonSchema.make(Schema.Struct({ n: Schema.Number.annotate({ description: "n" }) }))
    expect(schema).toEqual({ type: "object", properties: { n: { type: "number", description: "n" } }, required: ["n"] })
    expect(contains(schema, "NaN")).toBe(false)
  })

  it("drops the null branch of an optional field but keeps a meant null", () => {
    const schema = ToolJsonSchema.make(
      Schema.Struct({
        optional: Schema.optional(Schema.String.annotate({ description: "a" })),
        nullable: Schema.optionalKey(Schema.NullOr(Schema.String)).annotate({ description: "b" }),
      }),
    )
    expect(schema.properties).toEqual({
      optional: { type: "string", description: "a" },
      nullable: { anyOf: [{ type: "string" }, { type: "null" }], description: "b" },
    })
    expect(schema.required).toBeUndefined()
  })

  it("drops the null branch of optional fields in nested structs too", () => {
    const schema = ToolJsonSchema.make(
      Schema.Struct({
        edits: Schema.Array(Schema.Struct({ path: Schema.String, replace: Schema.optional(Schema.String) })).annotate({ description: "e" }),
        inner: Schema.optional(Schema.Struct({ note: Schema.optional(Schema.Finite) })).annotate({ description: "i" }),
      }),
    )
    expect(schema.properties).toEqual({
      edits: {
        type: "array",
        description: "e",
        items: { type: "object", properties: { path: { type: "string" }, replace: { type: "string" } }, required: ["path"] },
      },
      inner: { type: "object", description: "i", properties: { note: { type: "number" } } },
    })
  })

  it("keeps one null branch when an optional field accepts null itself", () => {
    const schema = ToolJsonSchema.make(Schema.Struct({ nn: Schema.optional(Schema.NullOr(Schema.String)).annotate({ description: "nn" }) }))
    expect(schema.properties).toEqual({ nn: { anyOf: [{ type: "string" }, { type: "null" }], description: "nn" } })
  })

  it("inlines non-recursive definitions and keeps recursive ones in $defs", () => {
    const inner = Schema.Struct({ a: Schema.String }).annotate({ identifier: "Inner" })
    const schema = ToolJsonSchema.make(Schema.Struct({ inner, root: NodeSchema }))
    expect((schema.properties as Record<string, unknown>).inner).toEqual({ type: "object", properties: { a: { type: "string" } }, required: ["a"] })
    expect((schema.properties as Record<string, unknown>).root).toEqual({ $ref: "#/$defs/Node" })
    expect(Object.keys(schema.$defs as object)).toEqual(["Node"])
    expect(contains(schema, "#/$defs/Inner")).toBe(false)
  })

  it("gives a struct without fields an empty object schema", () => {
    expect(ToolJsonSchema.make(Schema.Struct({}))).toEqual({ type: "object", properties: {} })
  })

  it("lists input properties without a description", () => {
    const schema = ToolJsonSchema.make(Schema.Struct({ a: Schema.String, b: Schema.String.annotate({ description: "b" }) }))
    expect(ToolJsonSchema.undescribed(schema)).toEqual(["a"])
  })
})
