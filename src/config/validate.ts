/**
 * Checks one parsed config file against the config shape and turns it into a `File`: its
 * permission rules in order (each remembering file, scope and position, for explain and trust),
 * and its settings. Unknown keys are errors, with the closest known key suggested, because a
 * misspelt `permissions` that is silently ignored would leave the person unprotected.
 */
export * as ConfigValidate from "./validate.js"

import path from "node:path"
import { Directories } from "../directories.js"
import { SandboxMode } from "../sandbox/mode.js"
import { PermissionRule } from "../permission/rule.js"
import { ConfigError } from "./errors.js"
import { Jsonc } from "./jsonc.js"

export const KEYS = ["$schema", "permission", "agent", "default_agent", "tool_output", "websearch", "skills", "models", "tools", "mcp", "server", "bash", "storage", "project"] as const
export const BASH_KEYS = ["sandbox", "network"] as const
export const STORAGE_KEYS = ["url"] as const
export const PROJECT_KEYS = ["id"] as const
export const TOOL_OUTPUT_KEYS = ["max_lines", "max_bytes"] as const
export const AGENT_KEYS = ["permission"] as const
export const WEBSEARCH_KEYS = ["provider", "exa_base_url", "parallel_base_url"] as const
export const WEBSEARCH_PROVIDERS = ["exa", "parallel"] as const
/** Settings that say where an API key is sent: a project file (anyone who can commit) must not set them. */
export const WEBSEARCH_TRUSTED_KEYS = ["exa_base_url", "parallel_base_url"] as const
export const MODELS_KEYS = ["apply_patch"] as const
export const MCP_KEYS = ["on_ask", "ask_timeout", "servers"] as const
export const SERVER_KEYS = ["directories", "model"] as const
export const SERVER_MODEL_KEYS = ["id", "base_url", "api_key_env", "max_steps"] as const
export const MCP_STDIO_KEYS = ["command", "env", "cwd", "enabled"] as const
export const MCP_HTTP_KEYS = ["url", "headers", "enabled"] as const
/** A server's name prefixes its tools' names (`<server>_<tool>`): letters, digits and dashes. */
export const MCP_SERVER_NAME = /^[A-Za-z][A-Za-z0-9-]{0,31}$/
/** What `toolgate mcp` does with an ask when the client cannot show forms: never an allow. */
export const MCP_ON_ASK = ["reject", "deny", "console"] as const
const SUGGESTION_DISTANCE = 2

export type Scope = "global" | "project" | "explicit"

export interface Source {
  readonly file: string
  readonly scope: Scope
  /** Position of the rule within its list in that file. */
  readonly index: number
  /** The agent section the rule came from; undefined for the top-level list. */
  readonly agent?: string
}

export interface SourcedRule extends PermissionRule.Rule {
  readonly source: Source
}

export interface File {
  readonly path: string
  readonly scope: Scope
  readonly permission: ReadonlyArray<SourcedRule>
  readonly agent: Readonly<Record<string, { readonly permission: ReadonlyArray<SourcedRule> }>>
  readonly default_agent?: string
  readonly tool_output?: { readonly max_lines?: number; readonly max_bytes?: number }
  readonly websearch?: WebSearch
  /** Skill folders, absolute (relative entries resolve against the config file's folder). */
  readonly skills?: ReadonlyArray<string>
  readonly models?: { readonly apply_patch?: ReadonlyArray<string> }
  readonly tools?: Readonly<Record<string, boolean>>
  readonly mcp?: Mcp
  readonly server?: Server
  /** The sandbox of bash commands (sandbox/mode.ts); a project file's may only make it stricter. */
  readonly bash?: { readonly sandbox?: SandboxMode.Mode; readonly network?: boolean }
}

/** `toolgate serve`'s settings: global or explicit files only (they decide what the server may open). */
export interface Server {
  /** The roots whose directories the server may open, absolute (a relative one resolves against the file's folder). */
  readonly directories?: ReadonlyArray<string>
  /** The model `POST /api/session/:id/run` runs (docs/run.md). */
  readonly model?: ServerModel
}

/** A model behind an OpenAI-compatible endpoint. */
export interface ServerModel {
  readonly id: string
  /** Default: Ollama's `http://localhost:11434/v1`. */
  readonly base_url?: string
  /** The variable holding the API key; default `OPENAI_API_KEY`, no key when unset. */
  readonly api_key_env?: string
  readonly max_steps?: number
}

export interface Mcp {
  readonly on_ask?: (typeof MCP_ON_ASK)[number]
  /** Milliseconds an ask shown by an MCP client may stay unanswered before it is a reject. */
  readonly ask_timeout?: number
  /** External MCP servers whose tools join the Location's catalog, by name. */
  readonly servers?: Readonly<Record<string, McpServer>>
}

/** An external MCP server: a command toolgate starts (stdio), or a Streamable HTTP endpoint. */
export type McpServer =
  | {
      /** The program and its arguments. */
      readonly command: ReadonlyArray<string>
      readonly env?: Readonly<Record<string, string>>
      /** Absolute (a relative one resolves against the config file's folder). */
      readonly cwd?: string
      readonly enabled?: boolean
    }
  | { readonly url: string; readonly headers?: Readonly<Record<string, string>>; readonly enabled?: boolean }

export type WebSearchProvider = (typeof WEBSEARCH_PROVIDERS)[number]

export interface WebSearch {
  readonly provider?: WebSearchProvider
  /** The provider's API origin (and path prefix), e.g. a proxy or a test server; global or explicit files only. */
  readonly exa_base_url?: string
  readonly parallel_base_url?: string
}

type Value = Record<string, unknown>

const isRecord = (value: unknown): value is Value => typeof value === "object" && value !== null && !Array.isArray(value)

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length] ?? 0
}

/** The known key closest to `key`, if one is close enough to be a likely typo. */
export const suggest = (key: string, known: ReadonlyArray<string>): string | undefined =>
  known
    .map((candidate) => ({ candidate, cost: distance(key.toLowerCase(), candidate.toLowerCase()) }))
    .filter(({ cost }) => cost <= SUGGESTION_DISTANCE)
    .sort((a, b) => a.cost - b.cost)[0]?.candidate

/** Throws nothing: returns the first unknown key of `value` as an error, or undefined. */
const unknownKey = (file: string, value: Value, known: ReadonlyArray<string>, prefix: string) => {
  const key = Object.keys(value).find((candidate) => !known.includes(candidate))
  if (key === undefined) return undefined
  const suggestion = suggest(key, known)
  return new ConfigError.UnknownKeyError({ file, key: `${prefix}${key}`, ...(suggestion === undefined ? {} : { suggestion: `${prefix}${suggestion}` }) })
}

const invalid = (file: string, key: string, expected: string) => new ConfigError.InvalidValueError({ file, key, expected })

const isEffect = (value: unknown): value is PermissionRule.Effect => PermissionRule.EFFECTS.includes(value as PermissionRule.Effect)

/** A rule list, or OpenCode's object form converted in key order: `{ edit: "ask", bash: { "git *": "allow" } }`. */
const rules = (file: string, scope: Scope, value: unknown, key: string, agent?: string): ReadonlyArray<SourcedRule> | ConfigError.ConfigError => {
  const raw = Array.isArray(value) ? value : isRecord(value) ? fromObjectForm(value) : undefined
  if (raw === undefined) return invalid(file, key, "a list of rules or an object of actions")
  const made: SourcedRule[] = []
  for (const [index, rule] of raw.entries()) {
    if (!isRecord(rule)) return invalid(file, key, "each rule to be an object with action, resource and effect")
    const extra = unknownKey(file, rule, ["action", "resource", "effect", "when"], `${key}[${index}].`)
    if (extra !== undefined) return extra
    if (rule.when !== undefined && rule.when !== SandboxMode.WHEN_SANDBOXED) return invalid(file, `${key}[${index}].when`, `"${SandboxMode.WHEN_SANDBOXED}" (the rule then applies only to bash commands run in the sandbox)`)
    if (typeof rule.action !== "string" || typeof rule.resource !== "string") return new ConfigError.InvalidRuleError({ file, problem: "pattern" })
    if (!isEffect(rule.effect)) return new ConfigError.InvalidRuleError({ file, problem: "effect" })
    made.push({ action: rule.action, resource: rule.resource, effect: rule.effect, ...(rule.when === undefined ? {} : { when: SandboxMode.WHEN_SANDBOXED }), source: { file, scope, index, ...(agent === undefined ? {} : { agent }) } })
  }
  return made
}

/** In the order the file wrote the keys: order is meaning for rules, even for keys like "0". */
const fromObjectForm = (value: Value): ReadonlyArray<unknown> =>
  Jsonc.entries(value).flatMap(([action, effect]) =>
    isRecord(effect)
      ? Jsonc.entries(effect).map(([resource, inner]) => ({ action, resource, effect: inner }))
      : [{ action, resource: "*", effect }],
  )

const stringList = (file: string, key: string, value: unknown) =>
  Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : invalid(file, key, "a list of strings")

const positiveInteger = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0

const toolOutput = (file: string, value: unknown) => {
  if (!isRecord(value)) return invalid(file, "tool_output", "an object")
  const extra = unknownKey(file, value, TOOL_OUTPUT_KEYS, "tool_output.")
  if (extra !== undefined) return extra
  const bad = TOOL_OUTPUT_KEYS.find((key) => value[key] !== undefined && !positiveInteger(value[key]))
  if (bad !== undefined) return invalid(file, `tool_output.${bad}`, "a positive integer")
  return value as File["tool_output"] & object
}

const stringRecord = (value: unknown) => isRecord(value) && Object.values(value).every((item) => typeof item === "string")

const mcpServer = (file: string, name: string, value: unknown): McpServer | ConfigError.ConfigError => {
  const key = `mcp.servers.${name}`
  if (!MCP_SERVER_NAME.test(name)) return invalid(file, key, "a name of letters, digits and dashes, starting with a letter (at most 32)")
  if (!isRecord(value)) return invalid(file, key, "an object with command (stdio) or url (Streamable HTTP)")
  if (value.enabled !== undefined && typeof value.enabled !== "boolean") return invalid(file, `${key}.enabled`, "true or false")
  if (value.url !== undefined) {
    const extra = unknownKey(file, value, MCP_HTTP_KEYS, `${key}.`)
    if (extra !== undefined) return extra
    if (!isHttpUrl(value.url)) return invalid(file, `${key}.url`, "an http:// or https:// URL")
    if (value.headers !== undefined && !stringRecord(value.headers)) return invalid(file, `${key}.headers`, "an object of header names to strings")
    return value as McpServer
  }
  const extra = unknownKey(file, value, MCP_STDIO_KEYS, `${key}.`)
  if (extra !== undefined) return extra
  const command = value.command
  if (!Array.isArray(command) || command.length === 0 || !command.every((item) => typeof item === "string") || command[0] === "") return invalid(file, `${key}.command`, "a non-empty list of strings: the program and its arguments")
  if (value.env !== undefined && !stringRecord(value.env)) return invalid(file, `${key}.env`, "an object of variable names to strings")
  if (value.cwd !== undefined && typeof value.cwd !== "string") return invalid(file, `${key}.cwd`, "a folder path")
  return { ...(value as McpServer), ...(typeof value.cwd === "string" ? { cwd: path.resolve(path.dirname(file), value.cwd) } : {}) }
}

const mcpServers = (file: string, value: unknown): Readonly<Record<string, McpServer>> | ConfigError.ConfigError => {
  if (!isRecord(value)) return invalid(file, "mcp.servers", "an object of server names to servers")
  const made: Record<string, McpServer> = {}
  for (const [name, body] of Object.entries(value)) {
    const server = mcpServer(file, name, body)
    if (server instanceof Error) return server
    made[name] = server
  }
  return made
}

const isHttpUrl = (value: unknown) => typeof value === "string" && URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol)

const websearch = (file: string, scope: Scope, inner: Value): ConfigError.ConfigError | undefined => {
  if (inner.provider !== undefined && !WEBSEARCH_PROVIDERS.includes(inner.provider as WebSearchProvider)) return invalid(file, "websearch.provider", "exa or parallel")
  const untrusted = scope === "project" ? WEBSEARCH_TRUSTED_KEYS.find((key) => inner[key] !== undefined) : undefined
  if (untrusted !== undefined) return invalid(file, `websearch.${untrusted}`, "no value in a project file (it decides where the API key is sent)")
  const bad = WEBSEARCH_TRUSTED_KEYS.find((key) => inner[key] !== undefined && !isHttpUrl(inner[key]))
  return bad === undefined ? undefined : invalid(file, `websearch.${bad}`, "an http:// or https:// URL")
}

const section = <K extends string>(file: string, key: string, value: unknown, known: ReadonlyArray<K>, check: (inner: Value) => ConfigError.ConfigError | undefined) => {
  if (!isRecord(value)) return invalid(file, key, "an object")
  return unknownKey(file, value, known, `${key}.`) ?? check(value) ?? value
}

const agents = (file: string, scope: Scope, value: unknown): File["agent"] | ConfigError.ConfigError => {
  if (!isRecord(value)) return invalid(file, "agent", "an object of agents")
  const made: Record<string, { permission: ReadonlyArray<SourcedRule> }> = {}
  for (const [id, body] of Object.entries(value)) {
    if (!isRecord(body)) return invalid(file, `agent.${id}`, "an object")
    const extra = unknownKey(file, body, AGENT_KEYS, `agent.${id}.`)
    if (extra !== undefined) return extra
    const list = body.permission === undefined ? [] : rules(file, scope, body.permission, `agent.${id}.permission`, id)
    if (list instanceof Error) return list
    made[id] = { permission: list }
  }
  return made
}

const isError = (value: unknown): value is ConfigError.ConfigError => value instanceof Error

/** Validates one parsed file. */
export const file = (filePath: string, scope: Scope, value: unknown): File | ConfigError.ConfigError => {
  if (!isRecord(value)) return invalid(filePath, "(root)", "an object")
  const extra = unknownKey(filePath, value, KEYS, "")
  if (extra !== undefined) return extra
  const permission = value.permission === undefined ? [] : rules(filePath, scope, value.permission, "permission")
  const agent = value.agent === undefined ? {} : agents(filePath, scope, value.agent)
  const output = value.tool_output === undefined ? undefined : toolOutput(filePath, value.tool_output)
  const search = value.websearch === undefined ? undefined : section(filePath, "websearch", value.websearch, WEBSEARCH_KEYS, (inner) => websearch(filePath, scope, inner))
  const skills = value.skills === undefined ? undefined : stringList(filePath, "skills", value.skills)
  const models = value.models === undefined ? undefined : section(filePath, "models", value.models, MODELS_KEYS, (inner) => {
    const list = inner.apply_patch === undefined ? [] : stringList(filePath, "models.apply_patch", inner.apply_patch)
    return isError(list) ? list : undefined
  })
  const tools = value.tools === undefined ? undefined : isRecord(value.tools) && Object.values(value.tools).every((v) => typeof v === "boolean")
    ? (value.tools as Record<string, boolean>)
    : invalid(filePath, "tools", "an object of tool names to true or false")
  const mcp = value.mcp === undefined ? undefined : section(filePath, "mcp", value.mcp, MCP_KEYS, (inner) => {
    if (inner.on_ask !== undefined && !MCP_ON_ASK.includes(inner.on_ask as Mcp["on_ask"] & string)) return invalid(filePath, "mcp.on_ask", `${MCP_ON_ASK.slice(0, -1).join(", ")} or ${MCP_ON_ASK.at(-1)}`)
    if (inner.ask_timeout !== undefined && !positiveInteger(inner.ask_timeout)) return invalid(filePath, "mcp.ask_timeout", "a positive integer (milliseconds)")
    const servers = inner.servers === undefined ? undefined : mcpServers(filePath, inner.servers)
    if (servers instanceof Error) return servers
    if (servers !== undefined) inner.servers = servers
    return undefined
  })
  const server = value.server === undefined ? undefined : section(filePath, "server", value.server, SERVER_KEYS, (inner) => {
    if (scope === "project") return invalid(filePath, "server", "no value in a project file (it decides which directories toolgate serve opens)")
    const list = inner.directories === undefined ? [] : stringList(filePath, "server.directories", inner.directories)
    if (isError(list)) return list
    return inner.model === undefined ? undefined : serverModel(filePath, inner.model)
  })
  const bash = value.bash === undefined ? undefined : section(filePath, "bash", value.bash, BASH_KEYS, (inner) => {
    if (inner.sandbox !== undefined && !SandboxMode.isMode(inner.sandbox)) return invalid(filePath, "bash.sandbox", SandboxMode.MODES.map((mode) => `"${mode}"`).join(", "))
    if (inner.network !== undefined && typeof inner.network !== "boolean") return invalid(filePath, "bash.network", "true or false")
    return undefined
  })
  // Read once per process, before any Location (storage/storage.ts): only the global file may name it.
  const storage = value.storage === undefined ? undefined : section(filePath, "storage", value.storage, STORAGE_KEYS, (inner) => {
    if (scope !== "global") return invalid(filePath, "storage", `no value in a ${scope === "project" ? "project" : "--config"} file (the database is chosen once per process: the global config file or ${Directories.DATABASE_URL_ENV} names it)`)
    if (inner.url !== undefined && (typeof inner.url !== "string" || !/^postgres(ql)?:\/\/[^/]/.test(inner.url))) return invalid(filePath, "storage.url", "a postgres:// URL")
    return undefined
  })
  // The project's id on a shared database when it has no git history (project-identity.ts).
  const project = value.project === undefined ? undefined : section(filePath, "project", value.project, PROJECT_KEYS, (inner) =>
    inner.id !== undefined && (typeof inner.id !== "string" || inner.id.trim() === "") ? invalid(filePath, "project.id", "a non-empty string") : undefined,
  )
  const defaultAgent = value.default_agent === undefined || typeof value.default_agent === "string" ? value.default_agent : invalid(filePath, "default_agent", "a string")
  const failure = [permission, agent, output, search, skills, models, tools, mcp, server, bash, storage, project, defaultAgent].find(isError)
  if (failure !== undefined) return failure
  const folder = path.dirname(filePath)
  return {
    path: filePath,
    scope,
    permission: permission as ReadonlyArray<SourcedRule>,
    agent: agent as File["agent"],
    ...(defaultAgent === undefined ? {} : { default_agent: defaultAgent as string }),
    ...(output === undefined ? {} : { tool_output: output as File["tool_output"] & object }),
    ...(search === undefined ? {} : { websearch: search as WebSearch }),
    // `~` and `~/…` stay as written: the home directory is known where skills are found.
    ...(skills === undefined ? {} : { skills: (skills as string[]).map((entry) => (entry === "~" || entry.startsWith("~/") ? entry : path.resolve(folder, entry))) }),
    ...(models === undefined ? {} : { models: models as File["models"] & object }),
    ...(tools === undefined ? {} : { tools: tools as Record<string, boolean> }),
    ...(mcp === undefined ? {} : { mcp: mcp as Mcp }),
    ...(server === undefined ? {} : { server: serverOf(server as Server, folder) }),
    ...(bash === undefined ? {} : { bash: bash as File["bash"] & object }),
  }
}

const serverOf = (server: Server, folder: string): Server => ({
  ...(server.directories === undefined ? {} : { directories: server.directories.map((entry) => path.resolve(folder, entry)) }),
  ...(server.model === undefined ? {} : { model: server.model }),
})

const serverModel = (file: string, value: unknown): ConfigError.ConfigError | undefined => {
  if (!isRecord(value)) return invalid(file, "server.model", "an object with the model's id")
  const extra = unknownKey(file, value, SERVER_MODEL_KEYS, "server.model.")
  if (extra !== undefined) return extra
  if (typeof value.id !== "string" || value.id.trim() === "") return invalid(file, "server.model.id", "the model id the endpoint serves")
  if (value.base_url !== undefined && (typeof value.base_url !== "string" || !/^https?:\/\/[^/]/.test(value.base_url))) return invalid(file, "server.model.base_url", "an http or https URL")
  if (value.api_key_env !== undefined && typeof value.api_key_env !== "string") return invalid(file, "server.model.api_key_env", "the name of an environment variable")
  if (value.max_steps !== undefined && !positiveInteger(value.max_steps)) return invalid(file, "server.model.max_steps", "a positive integer")
  return undefined
}
