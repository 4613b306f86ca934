import { describe, expect, it } from "vitest"
import { McpRequestState } from "../../src/mcp/request-state.js"

const NOW = 1_000_000
const claims = { call: "call_1", asks: ["per_1", "per_2"], digest: McpRequestState.digest("bash", { command: "ls", description: "List" }) }

describe("McpRequestState", () => {
  it("opens a state it sealed for the same call once, with its claims", () => {
    const sealer = McpRequestState.make()
    const state = sealer.seal(claims, 60_000, NOW)
    const opened = sealer.open(state, claims.digest, NOW + 1)
    expect(opened).toMatchObject({ ...claims, expires: NOW + 60_000 })
  })

  it("refuses a replay of a state already used", () => {
    const sealer = McpRequestState.make()
    const state = sealer.seal(claims, 60_000, NOW)
    sealer.open(state, claims.digest, NOW)
    expect(sealer.open(state, claims.digest, NOW)).toEqual({ refused: "replayed" })
  })

  it("refuses an expired state", () => {
    const sealer = McpRequestState.make()
    const state = sealer.seal(claims, 60_000, NOW)
    expect(sealer.open(state, claims.digest, NOW + 60_000)).toEqual({ refused: "expired" })
  })

  it("refuses a state for other arguments, and keeps it usable for its own call", () => {
    const sealer = McpRequestState.make()
    const state = sealer.seal(claims, 60_000, NOW)
    expect(sealer.open(state, McpRequestState.digest("bash", { command: "rm -rf /", description: "List" }), NOW)).toEqual({ refused: "mismatched" })
    expect(sealer.open(state, claims.digest, NOW)).toMatchObject({ call: "call_1" })
  })

  it("refuses a state sealed with another key, a changed payload, and garbage", () => {
    const sealer = McpRequestState.make()
    const other = McpRequestState.make()
    const state = other.seal(claims, 60_000, NOW)
    expect(sealer.open(state, claims.digest, NOW)).toEqual({ refused: "forged" })
    const [payload, mac] = sealer.seal(claims, 60_000, NOW).split(".") as [string, string]
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>
    const widened = Buffer.from(JSON.stringify({ ...decoded, asks: ["per_other"] })).toString("base64url")
    expect(sealer.open(`${widened}.${mac}`, claims.digest, NOW)).toEqual({ refused: "forged" })
    for (const garbage of ["", ".", "a.b.c", "not-a-state", `${payload}.`, `.${mac}`]) expect(sealer.open(garbage, claims.digest, NOW)).toEqual({ refused: "forged" })
  })

  it("digests arguments by value: key order does not matter, values do", () => {
    expect(McpRequestState.digest("edit", { a: 1, b: { c: [1, 2], d: "x" } })).toBe(McpRequestState.digest("edit", { b: { d: "x", c: [1, 2] }, a: 1 }))
    expect(McpRequestState.digest("edit", { a: 1 })).not.toBe(McpRequestState.digest("edit", { a: "1" }))
    expect(McpRequestState.digest("edit", { a: 1 })).not.toBe(McpRequestState.digest("write", { a: 1 }))
    expect(McpRequestState.digest("edit", { a: [1, 2] })).not.toBe(McpRequestState.digest("edit", { a: [2, 1] }))
  })

  it("says why in the text the model reads", () => {
    expect(McpRequestState.Messages.refused("replayed")).toBe(
      "toolgate refused this retried call: its requestState is not valid (it was already used). Nothing was answered and nothing ran; call the tool again to be asked anew.",
    )
  })
})
