/**
 * The baseline of bench/mcp.ts: the smallest MCP stdio server the SDK toolgate uses builds, one
 * `echo` tool that returns its `text` argument as text content. Plain JavaScript run with `node`
 * (no loader), so its startup is the SDK's and node's alone.
 */
import { McpServer } from "@modelcontextprotocol/server"
import { serveStdio } from "@modelcontextprotocol/server/stdio"
import * as z from "zod/v4"

serveStdio(() => {
  const server = new McpServer({ name: "echo", version: "1.0.0" })
  server.registerTool("echo", { description: "Returns its text.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }))
  return server
})
