/** A `toolgate mcp` started by a tool call: its client is the agent, which must not answer its own asks. */
import { execFile } from "node:child_process"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { promisify } from "node:util"
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { describe, expect, it } from "vitest"
import { OWN_PROCESS } from "../lib/own-process.js"

const bin = path.resolve("dist/cli/bin.cjs")

describe("toolgate mcp inside a toolgate tool call", () => {
  it("answers asks by mcp.on_ask even when the client could answer them, and saves nothing", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-mcp-marked-"))
    const work = path.join(root, "work")
    await mkdir(work)
    const env = { PATH: process.env.PATH ?? "", TOOLGATE_DATA_DIR: path.join(root, "data"), HOME: path.join(root, "home"), TOOLGATE_TOOL_CALL: "call_outer", ...OWN_PROCESS }
    const client = new Client({ name: "agent", version: "1" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "legacy" } })
    let asked = 0
    client.setRequestHandler("elicitation/create", async () => {
      asked++
      return { action: "accept", content: { decision: "always" } }
    })
    try {
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "--dir", work], env, stderr: "ignore" }))
      const result = await client.callTool({ name: "read", arguments: { path: "/etc/hostname" } })
      expect(result.isError).toBe(true)
      const text = (result.content as ReadonlyArray<{ text: string }>)[0]?.text ?? ""
      expect(text).toContain("toolgate needed a person to approve external_directory on /etc/*")
      expect(asked).toBe(0)
      await client.close()
      const { stdout } = await promisify(execFile)(process.execPath, [bin, "approvals", "list", "--dir", work, "--json"], { env })
      expect(JSON.parse(stdout)).toEqual([])
    } finally {
      await client.close()
      await rm(root, { recursive: true, force: true })
    }
  }, 60_000)
})
