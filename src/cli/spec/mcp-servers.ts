/** `toolgate mcp-servers`, as help and the flag parser see it (cli/spec.ts). */
export * as McpServersSpec from "./mcp-servers.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "mcp-servers",
  summary: "List the external MCP servers of the config and their tools",
  usage: ["toolgate mcp-servers [flags]"],
  description: ["Starts the servers of mcp.servers as a catalog would, then prints each one's state, its", "tools, and the tools it skipped with why."],
  flags: { dir: Spec.DIR, config: Spec.CONFIG, json: Spec.JSON_OUTPUT },
  examples: [{ command: "toolgate mcp-servers --json", description: "Every server's state and tools as JSON" }],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
