/**
 * `toolgate config [--dir D] [--config F] [--json]`: what the config of a Location is made of.
 * The files in the order they are read (global, project, explicit) with what was found in each
 * (a project file: whether it is trusted with its content; a broken file: why it was left out),
 * the settings the files set, and every agent with how many built-in and configured rules it
 * gets. A recovery command: it runs with a broken file, and names it. API keys, server commands,
 * environments and headers are not printed: only the names of the MCP servers.
 */
export * as ConfigCommand from "./config.js"

import { Effect } from "effect"
import { Config } from "../../config.js"
import type { ConfigTrust } from "../../config/trust.js"
import { Directories } from "../../directories.js"
import { Location } from "../../location/location.js"
import { Agents } from "../../permission/agents.js"
import { Permission } from "../../permission/permission.js"
import { Project } from "../../project.js"
import { CliLocation } from "../location.js"
import type { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

/** A project file's trust, as listed. */
export type Trust = "trusted" | "changed" | "untrusted"

/** One file looked for, as listed. */
export interface File {
  readonly file: string
  readonly scope: Config.Source["scope"]
  readonly state: Config.Source["state"]
  readonly trust?: Trust
  readonly error?: string
}

export interface AgentRules {
  readonly name: string
  readonly default: boolean
  readonly builtin: number
  readonly config: number
}

const STATE: Readonly<Record<Exclude<File["state"], "ignored">, string>> = { found: "found", absent: "not found" }
const TRUST: Readonly<Record<Trust, string>> = {
  trusted: "trusted",
  changed: "changed since it was trusted: its allow rules apply as ask",
  untrusted: "not trusted: its allow rules apply as ask",
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`

/** What was found in a file: `not found`, `found, trusted`, `ignored: <error>`. */
const stateOf = (file: File) => {
  if (file.state === "ignored") return `ignored: ${file.error ?? ""}`
  return file.trust === undefined ? STATE[file.state] : `${STATE[file.state]}, ${TRUST[file.trust]}`
}

/** The scope column is as wide as the longest scope and one space. */
const SCOPE_WIDTH = "explicit".length + 1

export const Messages = {
  noArguments: "toolgate config takes no arguments: toolgate config [--dir D] [--config F] [--json]",
  files: "Config files, in the order they are read:",
  file: (file: File) => `  ${file.scope.padEnd(SCOPE_WIDTH)}${file.file}: ${stateOf(file)}`,
  settings: "Settings:",
  noSettings: "  none: every setting has its default",
  setting: (key: string, value: unknown) => `  ${key}: ${JSON.stringify(value)}`,
  agents: "Agents:",
  agent: (agent: AgentRules) => `  ${agent.name}${agent.default ? " (default)" : ""}: ${count(agent.builtin, "built-in rule")}, ${agent.config} from config`,
} as const

const trustOf = (status: ConfigTrust.Status): Trust => (status._tag === "Trusted" ? "trusted" : status._tag === "Changed" ? "changed" : "untrusted")

/** Every file looked for; the project's two places both, up to the one read. */
const filesOf = (sources: ReadonlyArray<Config.Source>, location: string, trust: Trust): ReadonlyArray<File> =>
  sources.flatMap((source): ReadonlyArray<File> => {
    if (source.scope !== "project") return [source]
    const places = Directories.projectConfigFiles(location)
    const before = places.slice(0, Math.max(0, places.indexOf(source.file)))
    return [
      ...before.map((file): File => ({ file, scope: "project", state: "absent" })),
      source.state === "found" ? { ...source, trust } : source,
    ]
  })

/** The settings some file sets; a section none sets is left out. */
const settingsOf = (info: Config.Info, trusted: boolean) => {
  // An untrusted project's default_agent does not count (Config.defaultAgent).
  const named = info.files.some((file) => file.default_agent !== undefined && (file.scope !== "project" || trusted))
  const sections: ReadonlyArray<readonly [string, unknown]> = [
    ["default_agent", named ? Config.defaultAgent(info.files, trusted) : undefined],
    ["tool_output", info.tool_output],
    ["websearch", info.websearch],
    ["skills", info.skills.length === 0 ? undefined : info.skills],
    ["models", info.models],
    ["tools", info.tools],
    ["mcp", { ...info.mcp, ...(info.mcp_servers.length === 0 ? {} : { servers: info.mcp_servers.map((entry) => entry.name) }) }],
  ]
  return Object.fromEntries(sections.filter(([, value]) => value !== undefined && !(isSection(value) && Object.keys(value).length === 0)))
}

const isSection = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

/** `key: value` lines, a section's keys as `section.key`. */
const settingLines = (settings: Readonly<Record<string, unknown>>, prefix = ""): ReadonlyArray<string> =>
  Object.entries(settings).flatMap(([key, value]) => (isSection(value) ? settingLines(value, `${prefix}${key}.`) : [Messages.setting(`${prefix}${key}`, value)]))

const program = (parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const info = yield* Config.Service
    const project = yield* Project.Service
    const permission = yield* Permission.Service
    const { directory } = yield* Location.Service
    const trusted = yield* project.trusted
    const files = filesOf(info.sources, directory, trustOf(yield* project.status))
    const settings = settingsOf(info, trusted)
    const defaultAgent = yield* permission.defaultAgent
    const agents = yield* Effect.forEach(Agents.names(info), (name) =>
      Effect.map(permission.configured(name), (rules): AgentRules => ({
        name,
        default: name === defaultAgent,
        builtin: rules.filter((rule) => rule.source.kind === "builtin").length,
        config: rules.filter((rule) => rule.source.kind === "config").length,
      })),
    )
    const { io } = environment
    if (parsed.values.json === true) {
      io.stdout(JSON.stringify({ files, settings, agents }, null, 2))
      return ExitCode.SUCCESS
    }
    const lines = settingLines(settings)
    const text = [Messages.files, ...files.map(Messages.file), Messages.settings, ...(lines.length === 0 ? [Messages.noSettings] : lines), Messages.agents, ...agents.map(Messages.agent)]
    text.forEach((line) => io.stdout(line))
    return ExitCode.SUCCESS
  })

export const run: Command.Run = (parsed, environment) => {
  if (parsed.positionals.length > 0) {
    environment.io.stderr(Messages.noArguments)
    return Promise.resolve(ExitCode.USAGE)
  }
  return CliLocation.run(parsed, environment, program(parsed, environment), { recovery: true })
}
