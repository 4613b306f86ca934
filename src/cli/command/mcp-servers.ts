/**
 * `toolgate mcp-servers [--dir D] [--config F] [--json]`: the external MCP servers the config of
 * the Location names, each with the file that names it, what it starts (or reaches), whether it
 * is running, its tools and the tools it had to skip with why. Listing starts them as a catalog
 * would (a project file's only once trusted), and stops them when it is done.
 */
export * as McpServersCommand from "./mcp-servers.js"

import { Effect } from "effect"
import { ExternalServers } from "../../external/servers.js"
import { Project } from "../../project.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { Io } from "../io.js"

export const Messages = {
  none: "No MCP servers are configured (mcp.servers in toolgate.json, the global config or --config).",
  server: (status: ExternalServers.Status) => `${status.name} (${status.scope} ${status.file}): ${status.state}${status.target === "" ? "" : `: ${Io.visible(status.target)}`}`,
  error: (error: string) => `  ${Io.visible(error)}`,
  tools: (tools: ReadonlyArray<string>) => `  tools: ${tools.length === 0 ? "none" : tools.join(", ")}`,
  skipped: (skipped: ExternalServers.Status["skipped"][number]) => `  skipped ${Io.visible(skipped.tool)}: ${Io.visible(skipped.reason)}`,
} as const

/** The lines printed for one server. */
export const lines = (status: ExternalServers.Status): ReadonlyArray<string> => [
  Messages.server(status),
  ...(status.error === undefined ? [] : [Messages.error(status.error)]),
  ...(status.state === "off" ? [] : [Messages.tools(status.tools)]),
  ...status.skipped.map(Messages.skipped),
]

export const run: Command.Run = (parsed, environment) =>
    CliLocation.run(parsed, environment, Effect.gen(function* () {
      yield* Project.announce(environment.io.stderr)
      const servers = yield* ExternalServers.Service
      yield* servers.ready
      const statuses = yield* servers.list
      const { io } = environment
      if (parsed.values.json === true) io.stdout(JSON.stringify(statuses, null, 2))
      else if (statuses.length === 0) io.stdout(Messages.none)
      else statuses.flatMap(lines).forEach((line) => io.stdout(line))
      return ExitCode.SUCCESS
    }))
