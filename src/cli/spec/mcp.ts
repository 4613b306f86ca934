/** `toolgate mcp`, as help and the flag parser see it (cli/spec.ts). */
export * as McpSpec from "./mcp.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "mcp",
  summary: "Serve the tools, behind the gate, to an MCP client over stdio",
  usage: ["toolgate mcp [flags]"],
  description: [
    "Started by an MCP client (Claude Code, Codex, Cursor, VS Code, OpenCode): one connection is one",
    "session; asks become forms in the client, or follow mcp.on_ask when it cannot show them.",
    "Only protocol frames go to standard output. See docs/mcp.md for each client's setup.",
  ],
  flags: { dir: Spec.DIR, config: Spec.CONFIG, agent: Spec.AGENT, model: Spec.MODEL, sandbox: Spec.SANDBOX },
  examples: [
    { command: "claude mcp add --transport stdio toolgate -- npx --no toolgate mcp", description: "Add toolgate to Claude Code for this project" },
    { command: "toolgate mcp --dir ~/src/app --agent plan", description: "Serve another directory with the plan agent's rules" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
