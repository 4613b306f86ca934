/**
 * `toolgate mcp` against a hostile client (the 2026-12-06 review of `mcp` and `run`), over raw
 * newline-delimited JSON-RPC to the built server: arguments nested deeper than anything walks.
 */
import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { JsonDepth } from "../../src/json-depth.js"
import { Tool } from "../../src/tool/tool.js"
import { rawInitialize, sandbox, spawnRaw } from "../lib/mcp-client.js"

/** `{"command": …, "x": [[[…]]]}` as raw JSON text, `depth` arrays deep. */
const nested = (id: number, depth: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo ran > ran.txt","description":"d","x":${"[".repeat(depth)}${"]".repeat(depth)}}}}\n`

describe("toolgate mcp against a hostile client", () => {
  it("arguments nested deeper than JsonDepth.MAX are refused before anything runs, and the server goes on", async () => {
    const box = await sandbox()
    const raw = spawnRaw(box)
    try {
      await rawInitialize(raw)
      for (const [id, depth] of [[101, 5_000], [102, 100_000]] as const) {
        const answered = new Promise<Readonly<Record<string, unknown>>>((resolve) => {
          const check = setInterval(() => {
            const line = raw.lines.find((entry) => entry.endsWith(`"id":${id}}`))
            if (line !== undefined) {
              clearInterval(check)
              resolve(JSON.parse(line) as Readonly<Record<string, unknown>>)
            }
          }, 20)
        })
        raw.child.stdin.write(nested(id, depth))
        const response = await answered
        expect(response.error).toBeUndefined()
        expect(response.result).toMatchObject({ isError: true, content: [{ type: "text", text: Tool.Messages.invalidInput(JsonDepth.Messages.tooDeep) }] })
      }
      // Nothing ran: before, the command ran while the client was told "Maximum call stack size exceeded".
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(existsSync(path.join(box.work, "ran.txt"))).toBe(false)
      const read = await raw.request("tools/call", { name: "bash", arguments: { command: "echo fine", description: "d" } })
      expect(JSON.stringify(read.result)).toContain("fine")
      expect(raw.stderr()).not.toContain("    at ")
    } finally {
      raw.child.stdin.end()
      await raw.exited
      await box.dispose()
    }
  }, 60_000)
})

describe("JsonDepth.deeperThan", () => {
  it("counts arrays and objects, not strings, without recursion", () => {
    expect(JsonDepth.deeperThan({ a: [1] }, 2)).toBe(false)
    expect(JsonDepth.deeperThan({ a: [[1]] }, 2)).toBe(true)
    expect(JsonDepth.deeperThan("[[[[", 1)).toBe(false)
    let deep: unknown = 1
    for (let index = 0; index < 1_000_000; index++) deep = [deep]
    expect(JsonDepth.deeperThan(deep)).toBe(true)
  })
})
