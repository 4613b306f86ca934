import { describe, expect, it } from "vitest"
import { McpResult } from "../../src/mcp/result.js"
import type { SessionTurn } from "../../src/session/turn.js"
import { ToolOutputPreview } from "../../src/tool-output-preview.js"

const limits = { maxLines: 50, maxBytes: 2_000 }
const call = { sessionID: "ses_1", messageID: "msg_1" }
const objectSchema = { type: "object", properties: { output: { type: "string" }, exit: { type: "integer" } }, required: ["output", "exit"] }
const base = { toolCallID: "call_1" }

describe("McpResult.of", () => {
  it("gives a success's bounded text as content and the structured output as is when it fits", () => {
    const outcome: SessionTurn.Outcome = { kind: "success", ...base, content: [{ type: "text", text: "hi" }], structured: { output: "hi", exit: 0 }, outputPaths: [] }
    expect(McpResult.of(outcome, call, { limits, era: "modern", outputSchema: objectSchema })).toEqual({
      content: [{ type: "text", text: "hi" }],
      structuredContent: { output: "hi", exit: 0 },
      _meta: { "toolgate/sessionID": "ses_1", "toolgate/messageID": "msg_1" },
    })
  })

  it("cuts every string over the limits in structuredContent to the preview the model reads, pointing at the saved output", () => {
    const full = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n")
    const saved = "/data/tool-output/p/s/tool_1"
    const preview = ToolOutputPreview.tailPreview(full, saved, limits)
    const outcome: SessionTurn.Outcome = { kind: "success", ...base, content: [{ type: "text", text: preview }], structured: { output: full, exit: 0 }, outputPaths: [saved], preview: "tail" }
    const result = McpResult.of(outcome, call, { limits, era: "modern", outputSchema: objectSchema })
    expect(result.structuredContent).toEqual({ output: preview, exit: 0 })
    expect(result.content).toEqual([{ type: "text", text: preview }])
    expect(result._meta).toEqual({ "toolgate/sessionID": "ses_1", "toolgate/messageID": "msg_1", "toolgate/outputPaths": [saved], "toolgate/outputPath": saved })
    expect(Buffer.byteLength(JSON.stringify(result.structuredContent))).toBeLessThan(2 * limits.maxBytes)
  })

  it("wraps structured output in result for a 2025-era client when the schema's root is not an object", () => {
    const anyOf = { anyOf: [{ type: "object", properties: { kind: { type: "string" } } }] }
    const outcome: SessionTurn.Outcome = { kind: "success", ...base, content: [{ type: "text", text: "x" }], structured: { kind: "text" }, outputPaths: [] }
    expect(McpResult.of(outcome, call, { limits, era: "legacy", outputSchema: anyOf }).structuredContent).toEqual({ result: { kind: "text" } })
    expect(McpResult.of(outcome, call, { limits, era: "modern", outputSchema: anyOf }).structuredContent).toEqual({ kind: "text" })
    expect(McpResult.of(outcome, call, { limits, era: "legacy", outputSchema: objectSchema }).structuredContent).toEqual({ kind: "text" })
  })

  it("gives images as image content", () => {
    const outcome: SessionTurn.Outcome = { kind: "success", ...base, content: [{ type: "text", text: "an image" }, { type: "file", mime: "image/png", data: "iVBORw0KGgo=" }], structured: null, outputPaths: [] }
    expect(McpResult.of(outcome, call, { limits, era: "modern" }).content).toEqual([{ type: "text", text: "an image" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }])
  })

  it("makes failures, denies and rejects errors with the exact text, and says a decline stopped the agent", () => {
    const failed = McpResult.of({ kind: "failed", ...base, message: "The user rejected this call with feedback: no" }, call, { limits, era: "modern" })
    expect(failed).toEqual({ content: [{ type: "text", text: "The user rejected this call with feedback: no" }], isError: true, _meta: { "toolgate/sessionID": "ses_1", "toolgate/messageID": "msg_1" } })
    expect(McpResult.of({ kind: "blocked", ...base, message: "Permission denied: bash" }, call, { limits, era: "modern" }).content).toEqual([{ type: "text", text: "Permission denied: bash" }])
    const declined = McpResult.of({ kind: "declined", ...base, message: "Permission declined by the user: bash" }, call, { limits, era: "modern" })
    expect(declined.isError).toBe(true)
    expect(declined.content).toEqual([{ type: "text", text: "Permission declined by the user: bash\nThe person stopped the agent: do not retry this call or work around it; wait for their instructions." }])
  })

  it("lets Claude Code take a bounded result inline", () => {
    expect(McpResult.maxResultSize(51_200)).toBe(112_400)
    expect(McpResult.maxResultSize(10_000_000)).toBe(500_000)
  })
})
