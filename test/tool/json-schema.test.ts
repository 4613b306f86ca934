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
  it("removes the NaN/Infinity string branches of a plain number", () => {
    const schema = ToolJsonSchema.make(Schema.Struct({ n: Schema.Number.annotate({ description: "n" }) }))
    expect(schema).toEqual({ type: "object", properties: { n: { type: "number" } }, required: ["n"] })
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
