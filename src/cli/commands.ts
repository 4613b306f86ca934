/**
 * Loads a command's implementation by name, each on first use, so a command pays only for
 * the modules it needs. This is also the entry of the bundled CLI (build/cli.mjs): there the
 * dynamic imports become parts of one code-cached file that run only when reached.
 */
export * as Commands from "./commands.js"

import type { Command } from "./command.js"

const LOADERS: Readonly<Record<string, () => Promise<Command.Run>>> = {
  call: () => import("./command/call.js").then((module) => module.run),
  run: () => import("./command/run.js").then((module) => module.run),
  tools: () => import("./command/tools.js").then((module) => module.run),
  permission: () => import("./command/permission.js").then((module) => module.run),
  approvals: () => import("./command/approvals.js").then((module) => module.run),
  trust: () => import("./command/trust.js").then((module) => module.trust),
  untrust: () => import("./command/trust.js").then((module) => module.untrust),
  config: () => import("./command/config.js").then((module) => module.run),
  session: () => import("./command/session.js").then((module) => module.run),
  log: () => import("./command/log.js").then((module) => module.run),
  todo: () => import("./command/todo.js").then((module) => module.run),
  serve: () => import("./command/serve.js").then((module) => module.run),
  mcp: () => import("./command/mcp.js").then((module) => module.run),
  "mcp-servers": () => import("./command/mcp-servers.js").then((module) => module.run),
}

/** The `run` of the command `name`; undefined for a name no command has. */
export const load = (name: string): Promise<Command.Run> | undefined => LOADERS[name]?.()
