/**
 * Loads, validates and merges config files: global, then project (`toolgate.json`, else
 * `.toolgate/toolgate.json` in the Location), then explicit (`TOOLGATE_CONFIG`, then `--config`).
 * Missing global and project files are simply absent; a missing explicit file is an error, as
 * is any syntax error, unknown key or invalid value: nothing starts on a half-read config.
 * Rules are not merged here: each file keeps its own ordered lists (see `File`), and settings
 * merge key by key with the later file winning.
 */
export * as Config from "./config.js"

import { readFile } from "node:fs/promises"
import path from "node:path"
import { Context, Effect, Layer } from "effect"
import { ConfigError } from "./config/errors.js"
import { Jsonc } from "./config/jsonc.js"
import { ConfigValidate } from "./config/validate.js"
import { Directories } from "./directories.js"
import { Agents } from "./permission/agents.js"

export { ConfigError, ConfigValidate }

export const DEFAULT_AGENT = "build"

export interface Info {
  /** Every file that was read, in rule order. */
  readonly files: ReadonlyArray<ConfigValidate.File>
  /**
   * The default agent as the trusted files (global, explicit) set it. A project file's choice
   * counts only once the project is trusted: see `defaultAgent`.
   */
  readonly default_agent: string
  readonly tool_output: { readonly max_lines?: number; readonly max_bytes?: number }
  readonly websearch: ConfigValidate.WebSearch
  readonly skills: ReadonlyArray<string>
  readonly models: { readonly apply_patch?: ReadonlyArray<string> }
  readonly tools: Readonly<Record<string, boolean>>
}

export interface LoadOptions {
  /** The Location's directory, where the project file is looked up. */
  readonly location: string
  /** `--config <file>`, added last. */
  readonly explicit?: string
  readonly environment?: Directories.Environment
}

export class Service extends Context.Service<Service, Info>()("@toolgate/Config") {}

interface Candidate {
  readonly file: string
  readonly scope: ConfigValidate.Scope
  readonly required: boolean
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

const loadFile = Effect.fnUntraced(function* (candidate: Candidate) {
  const text = yield* read(candidate.file, candidate.required)
  if (text === undefined) return undefined
  const parsed = Jsonc.parse(text)
  if ("error" in parsed) return yield* new ConfigError.SyntaxError({ file: candidate.file, ...parsed.error })
  const validated = ConfigValidate.file(candidate.file, candidate.scope, parsed.value)
  if (validated instanceof Error) return yield* validated
  return validated
})

/** The first project file that exists, else the first candidate (which will be found missing). */
const projectCandidate = Effect.fnUntraced(function* (location: string) {
  const [primary, secondary] = Directories.projectConfigFiles(location)
  const exists = yield* read(primary as string, false)
  return { file: exists === undefined ? (secondary as string) : (primary as string), scope: "project" as const, required: false }
})

/**
 * The default agent: the last file that names one wins, but an untrusted project's file does not
 * count — it could otherwise switch every run to an agent with looser rules.
 */
export const defaultAgent = (files: ReadonlyArray<ConfigValidate.File>, trusted: boolean): string =>
  files.reduce((agent, file) => (file.scope === "project" && !trusted ? agent : (file.default_agent ?? agent)), DEFAULT_AGENT)

/** Merges settings in file order, the later file winning key by key. */
export const merge = (files: ReadonlyArray<ConfigValidate.File>): Info => ({
  files,
  default_agent: defaultAgent(files, false),
  tool_output: Object.assign({}, ...files.map((file) => file.tool_output ?? {})),
  websearch: Object.assign({}, ...files.map((file) => file.websearch ?? {})),
  skills: files.flatMap((file) => file.skills ?? []),
  models: Object.assign({}, ...files.map((file) => file.models ?? {})),
  tools: Object.assign({}, ...files.map((file) => file.tools ?? {})),
})

export const load = Effect.fn("Config.load")(function* (options: LoadOptions) {
  const environment = options.environment ?? Directories.current()
  const fromEnv = environment.env.TOOLGATE_CONFIG
  const candidates: ReadonlyArray<Candidate> = [
    { file: Directories.globalConfigFile(environment), scope: "global", required: false },
    yield* projectCandidate(options.location),
    ...(fromEnv === undefined || fromEnv === "" ? [] : [{ file: path.resolve(fromEnv), scope: "explicit" as const, required: true }]),
    ...(options.explicit === undefined ? [] : [{ file: path.resolve(options.explicit), scope: "explicit" as const, required: true }]),
  ]
  const files = yield* Effect.forEach(candidates, loadFile)
  const info = merge(files.filter((file) => file !== undefined))
  const unknown = info.files.find((file) => file.default_agent !== undefined && !Agents.exists(info, file.default_agent))
  if (unknown?.default_agent !== undefined) return yield* new ConfigError.UnknownAgentError({ file: unknown.path, agent: unknown.default_agent })
  return info
})

/** Config for one Location, loaded once when the layer is built. */
export const layer = (options: LoadOptions) => Layer.effect(Service, load(options))

/** A fixed config, for tests and embedders that build it themselves. */
export const layerOf = (info: Partial<Info> = {}) => Layer.succeed(Service, Service.of({ ...merge([]), ...info }))
