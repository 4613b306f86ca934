/** `mcp.on_ask` in a config file: reject, deny and console are read as given; anything else names the three. */
import { describe, expect, it } from "vitest"
import { ConfigError } from "../../src/config/errors.js"
import { ConfigValidate } from "../../src/config/validate.js"

describe("ConfigValidate mcp.on_ask", () => {
  for (const value of ConfigValidate.MCP_ON_ASK)
    it(`reads ${value}`, () => {
      const file = ConfigValidate.file("/global/toolgate.json", "global", { mcp: { on_ask: value } })
      expect(file).not.toBeInstanceOf(Error)
      expect((file as ConfigValidate.File).mcp?.on_ask).toBe(value)
    })

  it("refuses any other value, naming the three", () => {
    const file = ConfigValidate.file("/global/toolgate.json", "global", { mcp: { on_ask: "allow" } })
    expect(file).toBeInstanceOf(ConfigError.InvalidValueError)
    expect((file as ConfigError.InvalidValueError).expected).toBe("reject, deny or console")
  })
})
