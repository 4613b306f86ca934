import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { ApplyPatchTool } from "../../src/tool/builtin/apply-patch.js"
import { BashTool } from "../../src/tool/builtin/bash.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { GlobTool } from "../../src/tool/builtin/glob.js"
import { GrepTool } from "../../src/tool/builtin/grep.js"
import { QuestionTool } from "../../src/tool/builtin/question.js"
import { ReadTool } from "../../src/tool/builtin/read.js"
import { SkillTool } from "../../src/tool/builtin/skill.js"
import { TodoWriteTool } from "../../src/tool/builtin/todowrite.js"
import { WebFetchTool } from "../../src/tool/builtin/webfetch.js"
import { WebSearchTool } from "../../src/tool/builtin/websearch.js"
import { WriteTool } from "../../src/tool/builtin/write.js"
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

  describe("describesEveryField", () => {
    const cases = {
      plain: Schema.Struct({ a: Schema.String.annotate({ description: "a" }) }),
      lostInJson: Schema.Struct({ n: Schema.Finite.annotate({ description: "n" }), big: Schema.BigInt.annotate({ description: "b" }) }),
      optional: Schema.Struct({ o: Schema.optional(Schema.String.annotate({ description: "o" })), k: Schema.optionalKey(Schema.NullOr(Schema.String)).annotate({ description: "k" }) }),
      optionalLostInJson: Schema.Struct({ n: Schema.optional(Schema.Finite.annotate({ description: "n" })), d: Schema.optional(Schema.Date.annotate({ description: "d" })) }),
      nested: Schema.Struct({ inner: Schema.optional(Schema.Struct({ note: Schema.String })).annotate({ description: "i" }) }),
      recursive: Schema.Struct({ root: NodeSchema.annotate({ description: "r" }) }),
      empty: Schema.Struct({}),
      oneMissing: Schema.Struct({ a: Schema.String, b: Schema.String.annotate({ description: "b" }) }),
      emptyDescription: Schema.Struct({ a: Schema.String.annotate({ description: "" }) }),
      optionalMissing: Schema.Struct({ o: Schema.optional(Schema.String) }),
      notAStruct: Schema.String,
    }

    it("says yes only where the generated schema has no undescribed property", () => {
      for (const [name, schema] of Object.entries(cases)) {
        if (ToolJsonSchema.describesEveryField(schema)) expect([name, ToolJsonSchema.undescribed(ToolJsonSchema.make(schema))]).toEqual([name, []])
      }
    })

    it("is yes for every built-in, so registering them generates no JSON Schema", () => {
      const inputs = { ApplyPatchTool, BashTool, EditTool, GlobTool, GrepTool, QuestionTool, ReadTool, SkillTool, TodoWriteTool, WebFetchTool, WebSearchTool, WriteTool }
      for (const [name, module] of Object.entries(inputs)) expect([name, ToolJsonSchema.describesEveryField(module.Input)]).toEqual([name, true])
    })

    it("is yes for described fields, however the JSON form spells them, and no for a missing or empty description", () => {
      const answers = Object.fromEntries(Object.entries(cases).map(([name, schema]) => [name, ToolJsonSchema.describesEveryField(schema)]))
      expect(answers).toEqual({
        plain: true,
        lostInJson: true,
        optional: true,
        optionalLostInJson: true,
        nested: true,
        recursive: true,
        empty: true,
        oneMissing: false,
        emptyDescription: false,
        optionalMissing: false,
        notAStruct: false,
      })
    })
  })
})
