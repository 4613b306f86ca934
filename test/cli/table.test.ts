import { describe, expect, it } from "@effect/vitest"
import { CliTable } from "../../src/cli/table.js"

describe("CliTable", () => {
  it("pads every column but the last to its widest cell, two spaces apart, with no trailing spaces", () => {
    expect(CliTable.format([["ID", "AGENT", "NOTE"], ["ses_1", "build", "a long free text"], ["s", "plan", ""]])).toBe(
      ["ID     AGENT  NOTE", "ses_1  build  a long free text", "s      plan"].join("\n"),
    )
    expect(CliTable.format([["only"]])).toBe("only")
    expect(CliTable.format([])).toBe("")
  })
})
