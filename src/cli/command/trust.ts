/**
 * `toolgate trust` / `toolgate untrust`: whether the Location's own config file may loosen its
 * rules. Trust is given to that file with its content as it is now; after a change it counts as
 * untrusted again, and the next `trust` shows what changed since the last one (escaped, so the
 * file cannot redraw the terminal it is reviewed on). Only a person may trust: `trust` refuses in
 * a process a toolgate tool call started (`ToolCallMarker`). Trusting also lets the MCP servers the
 * file names start, so `trust` lists them with their commands. `untrust` only lowers rights, so an
 * agent may run it, and it runs with a broken config file left out (a recovery command).
 */
export * as TrustCommand from "./trust.js"

import { Effect } from "effect"
import type { ConfigProjectFile } from "../../config/project-file.js"
import type { ConfigTrust } from "../../config/trust.js"
import { Config } from "../../config.js"
import { ExternalServers } from "../../external/servers.js"
import { Location } from "../../location/location.js"
import { Project } from "../../project.js"
import { ToolCallMarker } from "../../tool-call-marker.js"
import { FileDiff } from "../../tool/builtin/diff.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { Io } from "../io.js"

export const Messages = {
  trusted: (directory: string) => `Trusted ${directory}: the allow rules of its toolgate.json now apply, as long as the file stays as it is now.`,
  untrusted: (directory: string) => `Untrusted ${directory}: the allow rules of its toolgate.json apply as ask again.`,
  changes: (file: string) => `Changes to ${file} since it was last trusted:`,
  insideToolCall: `toolgate trust refuses to run inside a toolgate tool call (${ToolCallMarker.VARIABLE} is set): an agent cannot trust a project for the person. Run it yourself, in your own terminal.`,
  noArguments: (name: string) => `toolgate ${name} takes no arguments`,
  servers: "It names MCP servers, which toolgate starts from now on when a catalog is needed:",
  server: (name: string, target: string) => `  ${name}: ${target}`,
} as const

/** What `trust` prints before it says it trusted: the diff from the content trusted last, if any. */
export const changes = (read: ConfigProjectFile.Read, before: ConfigTrust.Status): ReadonlyArray<string> => {
  if (read._tag !== "Found" || before._tag !== "Changed") return []
  return [Messages.changes(read.file), ...FileDiff.unified(read.file, before.previous, read.text).trimEnd().split("\n").map(Io.visible)]
}

const make = (name: "trust" | "untrust"): Command.Run => (parsed, environment) => {
    const { io } = environment
    if (parsed.positionals.length > 0) {
      io.stderr(Messages.noArguments(name))
      return Promise.resolve(ExitCode.USAGE)
    }
    // Before anything is opened or read: a tool call gets no further than this.
    if (name === "trust" && ToolCallMarker.of(io.env) !== undefined) {
      io.stderr(Messages.insideToolCall)
      return Promise.resolve(ExitCode.REFUSED)
    }
    return CliLocation.run(parsed, environment, Effect.gen(function* () {
      const project = yield* Project.Service
      const { directory } = yield* Location.Service
      if (name === "untrust") {
        yield* project.untrust
        io.stdout(Messages.untrusted(directory))
        return ExitCode.SUCCESS
      }
      const before = yield* project.trust
      changes(project.configFile, before).forEach((line) => io.stdout(line))
      const config = yield* Config.Service
      const started = config.mcp_servers.filter((entry) => entry.scope === "project" && entry.server.enabled !== false)
      if (started.length > 0) [Messages.servers, ...started.map((entry) => Messages.server(entry.name, Io.visible(ExternalServers.targetOf(entry))))].forEach((line) => io.stdout(line))
      io.stdout(Messages.trusted(directory))
      return ExitCode.SUCCESS
    }), { recovery: name === "untrust" })
  }

export const trust = make("trust")
export const untrust = make("untrust")
