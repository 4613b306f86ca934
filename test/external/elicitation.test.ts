import { describe, expect, it } from "vitest"
import { ExternalElicitation } from "../../src/external/elicitation.js"

const form = (properties: Record<string, unknown>) => ({ message: "Set up the repo", requestedSchema: { type: "object", properties } })

describe("ExternalElicitation", () => {
  it("refuses a form that asks for a secret, by name, title or description", () => {
    for (const properties of [{ password: { type: "string" } }, { x: { type: "string", title: "API key" } }, { y: { type: "string", description: "Your GitHub token" } }, { otp: { type: "string" } }]) {
      expect(ExternalElicitation.fields(form(properties))).toEqual({ refused: Object.keys(properties)[0] })
    }
    expect(ExternalElicitation.fields(form({ username: { type: "string" }, passes: { type: "integer" } }))).not.toHaveProperty("refused")
  })

  it("makes one question per field, saying which server asks, with enum, titled, boolean and multi-select options", () => {
    const fields = ExternalElicitation.fields(form({
      name: { type: "string", title: "Name", description: "Who you are" },
      env: { type: "string", oneOf: [{ const: "prod", title: "Production" }, { const: "dev", title: "Development" }] },
      ok: { type: "boolean" },
      tags: { type: "array", items: { enum: ["a", "b"] } },
      count: { type: "integer" },
    }))
    if ("refused" in fields) throw new Error("refused")
    const questions = ExternalElicitation.questions("github", form({}), fields)
    expect(questions.map((question) => question.header)).toEqual(["github: Name", "github: env", "github: ok", "github: tags", "github: count"])
    expect(questions[0]?.question).toBe("The MCP server github asks: Set up the repo\nName: Who you are")
    expect(questions.map((question) => question.options.map((option) => option.label))).toEqual([["(no answer)"], ["Production", "Development"], ["Yes", "No"], ["a", "b"], ["(no answer)"]])
    expect(questions[3]?.multiple).toBe(true)
    expect(ExternalElicitation.content(fields, [["Ada"], ["Production"], ["No"], ["a", "b"], ["12"]])).toEqual({ name: "Ada", env: "prod", ok: false, tags: ["a", "b"], count: 12 })
    expect(ExternalElicitation.content(fields, [["(no answer)"], [], [], [], ["many"]])).toEqual({})
  })
})
