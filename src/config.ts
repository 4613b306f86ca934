/**
 * Loads, validates and merges config files: global, then what the project files of the folders
 * enclosing the Location in its repository forbid or ask (config/enclosing.ts), then project
 * (`toolgate.json`, else `.toolgate/toolgate.json` in the Location), then explicit
 * (`TOOLGATE_CONFIG`, then `--config`).
 * Missing global and project files are simply absent; a missing explicit file is an error, as
 * is any syntax error, unknown key or invalid value: nothing starts on a half-read config. Only
 * with `skipBroken` (the CLI's recovery commands, which run no tool) is a broken file left out
 * and listed in `sources` as ignored, with why.
 * Rules are not merged here: each file keeps its own ordered lists (see `File`), and settings
 * merge key by key with the later file winning. With a `Project` in context the project file is
 * the one Project read, byte for byte: trust is decided on those bytes, so they are what counts.
 */
export * as Config from "./config.js"

import { readFile } from "node:fs/promises"
import path from "node:path"
import { Context, Effect, Layer, Option } from "effect"
import { ConfigError } from "./config/errors.js"
import { Jsonc } from "./config/jsonc.js"
import { ConfigEnclosing } from "./config/enclosing.js"
import { ConfigProjectFile } from "./config/project-file.js"
import { ConfigValidate } from "./config/validate.js"
import { Directories } from "./directories.js"
import { Agents } from "./permission/agents.js"
import { Project } from "./project.js"
import { SandboxMode } from "./sandbox/mode.js"
import { Tracing } from "./tracing.js"

export { ConfigError, ConfigProjectFile, ConfigValidate }

export const DEFAULT_AGENT = "build"

export interface Info {
  /** Every file that was read, in rule order. */
  readonly files: ReadonlyArray<ConfigValidate.File>
  /** Every file the load looked for, in the order it read them, with what it found. */
  readonly sources: ReadonlyArray<Source>
  /**
   * The default agent as the trusted files (global, explicit) set it. A project file's choice
   * counts only once the project is trusted: see `defaultAgent`.
   */
  readonly default_agent: string
  readonly tool_output: { readonly max_lines?: number; readonly max_bytes?: number }
  readonly websearch: ConfigValidate.WebSearch
  /** Every file's `skills` entries, trust not applied: `SkillCatalog` drops an untrusted project's. */
  readonly skills: ReadonlyArray<string>
  readonly models: { readonly apply_patch?: ReadonlyArray<string> }
  readonly tools: Readonly<Record<string, boolean>>
  readonly mcp: Omit<ConfigValidate.Mcp, "servers">
  /** `toolgate serve`'s settings (global and explicit files only; a later file's list replaces an earlier one). */
  readonly server: ConfigValidate.Server
  /** The sandbox of bash commands: trusted files in order, a project file only tightening it, then `--sandbox`. */
  readonly bash: SandboxMode.Setting
  /** The external MCP servers of every file, by name (a later file's wins), each with the file that named it. */
  readonly mcp_servers: ReadonlyArray<McpServerEntry>
  /** Servers a project file named under a name the person's config already gives another server. */
  readonly mcp_servers_refused: ReadonlyArray<RefusedMcpServer>
}

/** One config file as the load found it. */
export interface Source {
  readonly file: string
  readonly scope: ConfigValidate.Scope
  /** `found`: read and used; `absent`: no such file; `ignored`: broken and left out (only with `skipBroken`). */
  readonly state: "found" | "absent" | "ignored"
  /** Why an ignored file was left out: its error's message. */
  readonly error?: string
}

export interface McpServerEntry {
  readonly name: string
  readonly server: ConfigValidate.McpServer
  readonly file: string
  readonly scope: ConfigValidate.Scope
}

export interface RefusedMcpServer {
  readonly name: string
  readonly file: string
  /** The person's file that already names a server so. */
  readonly named: string
}

/**
 * The servers by name, a later file's winning, except that a project file cannot take a name the
 * person's own config (global or explicit) gives a server: the person's rules for `<name>_*`
 * were written for that server, not for whatever the repository would start under its name.
 */
const mcpServers = (files: ReadonlyArray<ConfigValidate.File>) => {
  const byName = new Map<string, McpServerEntry>()
  const refused: Array<RefusedMcpServer> = []
  for (const file of files)
    for (const [name, server] of Object.entries(file.mcp?.servers ?? {})) {
      const before = byName.get(name)
      if (file.scope === "project" && before !== undefined && before.scope !== "project") refused.push({ name, file: file.path, named: before.file })
      else byName.set(name, { name, server, file: file.path, scope: file.scope })
    }
  const servers = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { servers, refused }
}

export interface LoadOptions {
  /** The Location's directory, where the project file is looked up. */
  readonly location: string
  /** `--config <file>`, added last. */
  readonly explicit?: string
  readonly environment?: Directories.Environment
  /** The project file as already read for this Location (by `Project`); read here when absent. */
  readonly project?: ConfigProjectFile.Read
  /**
   * Leave a broken file out (listed in `sources` as ignored) instead of failing. Only for what
   * runs no tool and judges no call: rules with a file missing would be rules nobody wrote.
   */
  readonly skipBroken?: boolean
  /** `--sandbox <mode>`: the bash sandbox whatever the files say. */
  readonly sandbox?: SandboxMode.Mode
}

export class Service extends Context.Service<Service, Info>()("@toolgate/Config") {}

interface Candidate {
  readonly file: string
  readonly scope: ConfigValidate.Scope
  readonly required: boolean
}

/** A file the load looked for: what it found, and the parsed file when it is used. */
interface Loaded {
  readonly source: Source
  readonly file: ConfigValidate.File | undefined
}

const read = (file: string, required: boolean) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (cause) => cause as NodeJS.ErrnoException,
  }).pipe(
    Effect.map((text): string | undefined => text),
    Effect.catch((cause) =>
      !required && (cause.code === "ENOENT" || cause.code === "ENOTDIR")
        ? Effect.succeed(undefined)
        : Effect.fail(new ConfigError.UnreadableError({ file, detail: cause.code ?? cause.message })),
    ),
  )

const parseFile = Effect.fnUntraced(function* (file: string, scope: ConfigValidate.Scope, text: string) {
  const parsed = Jsonc.parse(text)
  if ("error" in parsed) return yield* new ConfigError.SyntaxError({ file, ...parsed.error })
  const validated = ConfigValidate.file(file, scope, parsed.value)
  if (validated instanceof Error) return yield* validated
  return validated
})

const loadFile = Effect.fnUntraced(function* (candidate: Candidate) {
  const text = yield* read(candidate.file, candidate.required)
  if (text === undefined) return undefined
  return yield* parseFile(candidate.file, candidate.scope, text)
})

/** The project file from what was read: absent, parsed, or the reason it could not be read. */
const loadProject = Effect.fnUntraced(function* (found: ConfigProjectFile.Read) {
  if (found._tag === "Absent") return undefined
  if (found._tag === "Unreadable") return yield* new ConfigError.UnreadableError({ file: found.file, detail: found.detail })
  return yield* parseFile(found.file, "project", found.text)
})

/**
 * The default agent: the last file that names one wins, but an untrusted project's file does not
 * count — it could otherwise switch every run to an agent with looser rules.
 */
export const defaultAgent = (files: ReadonlyArray<ConfigValidate.File>, trusted: boolean): string =>
  files.reduce((agent, file) => (file.scope === "project" && !trusted ? agent : (file.default_agent ?? agent)), DEFAULT_AGENT)

/** Merges settings in file order, the later file winning key by key. */
export const merge = (files: ReadonlyArray<ConfigValidate.File>, sandbox?: SandboxMode.Mode): Info => {
  const servers = mcpServers(files)
  return {
    files,
    sources: files.map((file): Source => ({ file: file.path, scope: file.scope, state: "found" })),
    default_agent: defaultAgent(files, false),
    tool_output: Object.assign({}, ...files.map((file) => file.tool_output ?? {})),
    websearch: Object.assign({}, ...files.map((file) => file.websearch ?? {})),
    skills: files.flatMap((file) => file.skills ?? []),
    models: Object.assign({}, ...files.map((file) => file.models ?? {})),
    tools: Object.assign({}, ...files.map((file) => file.tools ?? {})),
    // Servers are merged by name (mcpServers); the other mcp settings key by key.
    mcp: Object.assign({}, ...files.map(({ mcp }) => {
      const { servers: _servers, ...settings } = mcp ?? {}
      return settings
    })),
    mcp_servers: servers.servers,
    mcp_servers_refused: servers.refused,
    server: Object.assign({}, ...files.map((file) => file.server ?? {})),
    bash: SandboxMode.combine(files.map((file) => ({ scope: file.scope, ...file.bash })), sandbox),
  }
}

/** A file's load as a `Loaded`; with `skipBroken` a broken file is ignored rather than failing. */
const loaded = (
  source: Pick<Source, "file" | "scope">,
  loading: Effect.Effect<ConfigValidate.File | undefined, ConfigError.ConfigError>,
  skipBroken: boolean,
): Effect.Effect<Loaded, ConfigError.ConfigError> =>
  loading.pipe(
    Effect.map((file): Loaded => ({ source: { file: source.file, scope: source.scope, state: file === undefined ? "absent" : "found" }, file })),
    Effect.catchTag(ConfigError.TAGS, (error) => (skipBroken ? Effect.succeed(ignored(source, error)) : Effect.fail(error))),
  )

const ignored = (source: Pick<Source, "file" | "scope">, error: ConfigError.ConfigError): Loaded => ({
  source: { file: source.file, scope: source.scope, state: "ignored", error: error.message },
  file: undefined,
})

const used = (entries: ReadonlyArray<Loaded>) => entries.flatMap((entry) => (entry.file === undefined ? [] : [entry.file]))

/** The first file whose default_agent names an agent none of `files` defines. */
const unknownAgentOf = (files: ReadonlyArray<ConfigValidate.File>) => {
  const info = merge(files)
  const file = info.files.find((candidate) => candidate.default_agent !== undefined && !Agents.exists(info, candidate.default_agent))
  return file?.default_agent === undefined ? undefined : new ConfigError.UnknownAgentError({ file: file.path, agent: file.default_agent })
}

/** Leaves out, one at a time, each file whose default_agent names no agent (leaving one out can orphan another's). */
const withoutUnknownAgents = (entries: ReadonlyArray<Loaded>): ReadonlyArray<Loaded> => {
  const unknown = unknownAgentOf(used(entries))
  if (unknown === undefined) return entries
  return withoutUnknownAgents(entries.map((entry) => (entry.file?.path === unknown.file ? ignored(entry.source, unknown) : entry)))
}

export const load = Tracing.fn("Config.load")(function* (options: LoadOptions) {
  const environment = options.environment ?? Directories.current()
  const skipBroken = options.skipBroken === true
  const fromEnv = environment.env.TOOLGATE_CONFIG
  const explicit: ReadonlyArray<Candidate> = [
    ...(fromEnv === undefined || fromEnv === "" ? [] : [{ file: path.resolve(fromEnv), scope: "explicit" as const, required: true }]),
    ...(options.explicit === undefined ? [] : [{ file: path.resolve(options.explicit), scope: "explicit" as const, required: true }]),
  ]
  const given = options.project?.location === options.location ? options.project : undefined
  const globalCandidate: Candidate = { file: Directories.globalConfigFile(environment), scope: "global", required: false }
  const globalFile = yield* loaded(globalCandidate, loadFile(globalCandidate), skipBroken)
  // What the project files of the folders around the Location forbid or ask holds in it too.
  const enclosingFiles = yield* Effect.forEach(ConfigEnclosing.folders(options.location, Project.outermostRoot(options.location)), (folder) =>
    Effect.flatMap(ConfigProjectFile.read(folder), (read) =>
      loaded({ file: read.file, scope: "project" }, Effect.map(loadProject(read), (file) => (file === undefined ? undefined : ConfigEnclosing.imposed(file, folder))), skipBroken),
    ),
  )
  const found = given ?? (yield* ConfigProjectFile.read(options.location))
  const projectFile = yield* loaded({ file: found.file, scope: "project" }, loadProject(found), skipBroken)
  const explicitFiles = yield* Effect.forEach(explicit, (candidate) => loaded(candidate, loadFile(candidate), skipBroken))
  const all = [globalFile, ...enclosingFiles.filter((entry) => entry.source.state !== "absent"), projectFile, ...explicitFiles]
  const unknown = unknownAgentOf(used(all))
  if (unknown !== undefined && !skipBroken) return yield* unknown
  const entries = withoutUnknownAgents(all)
  return { ...merge(used(entries), options.sandbox), sources: entries.map((entry) => entry.source) } satisfies Info
})

/**
 * Config for one Location, loaded once when the layer is built. The project file is the one the
 * `Project` in context read (when there is one), so trust and rules come from the same bytes.
 */
export const layer = (options: LoadOptions) =>
  Layer.effect(
    Service,
    Effect.flatMap(Effect.serviceOption(Project.Service), (project) =>
      load(Option.isSome(project) ? { ...options, project: project.value.configFile } : options),
    ),
  )

/** A fixed config, for tests and embedders that build it themselves. */
export const layerOf = (info: Partial<Info> = {}) => Layer.succeed(Service, Service.of({ ...merge([]), ...info }))
