import { mkdir, realpath, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Config } from "../src/config.js"
import { ConfigTrust } from "../src/config/trust.js"
import { Directories } from "../src/directories.js"
import { Location } from "../src/location/location.js"
import { Project } from "../src/project.js"
import { Database } from "../src/storage/database.js"
import { tmpdir } from "./lib/tmp.js"

const { ConfigError } = Config

interface Layout {
  readonly global?: string
  readonly project?: string
  readonly hidden?: string
  readonly explicit?: string
  readonly fromEnv?: string
}

/** Writes the given files into a fresh home, Location and explicit path, then loads them. */
const loadWith = (layout: Layout) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const home = path.join(root, "home")
    const location = path.join(root, "project")
    const files = {
      global: path.join(home, ".config", "toolgate", "toolgate.json"),
      project: path.join(location, "toolgate.json"),
      hidden: path.join(location, ".toolgate", "toolgate.json"),
      explicit: path.join(root, "explicit.json"),
      fromEnv: path.join(root, "env.json"),
    }
    yield* Effect.promise(async () => {
      await mkdir(location, { recursive: true })
      for (const [key, text] of Object.entries(layout)) {
        const file = files[key as keyof Layout]
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(file, text as string)
      }
    })
    const env = layout.fromEnv === undefined ? {} : { TOOLGATE_CONFIG: files.fromEnv }
    const info = yield* Config.load({
      location,
      ...(layout.explicit === undefined ? {} : { explicit: files.explicit }),
      environment: { env, home },
    }).pipe(Effect.result)
    return { info, files }
  })

const failure = (layout: Layout) =>
  Effect.gen(function* () {
    const { info, files } = yield* loadWith(layout)
    if (info._tag === "Success") throw new Error("expected the config to be rejected")
    return { error: info.failure, files }
  })

const loaded = (layout: Layout) =>
  Effect.gen(function* () {
    const { info, files } = yield* loadWith(layout)
    if (info._tag === "Failure") throw new Error(`unexpected: ${info.failure.message}`)
    return { info: info.success, files }
  })

describe("Config", () => {
  it.live("loads nothing and gives the defaults when no file exists", () =>
    Effect.gen(function* () {
      const { info, files } = yield* loaded({})
      // Both project places were tried: the last one tried is the one named.
      const sources = [{ file: files.global, scope: "global", state: "absent" }, { file: files.hidden, scope: "project", state: "absent" }]
      expect(info).toEqual({ ...Config.merge([]), sources })
      expect(info.default_agent).toBe(Config.DEFAULT_AGENT)
    }))

  it.live("reads JSONC with comments and trailing commas", () =>
    Effect.gen(function* () {
      const { info } = yield* loaded({ project: '{\n  // limits\n  "tool_output": { "max_lines": 10, },\n}' })
      expect(info.tool_output).toEqual({ max_lines: 10 })
    }))

  it.live("reads a file that starts with a UTF-8 byte-order mark", () =>
    Effect.gen(function* () {
      const { info } = yield* loaded({ project: '\uFEFF{ "default_agent": "plan" }' })
      expect(Config.defaultAgent(info.files, true)).toBe("plan")
    }))

  it.live("merges global → project → explicit, the later file winning key by key", () =>
    Effect.gen(function* () {
      const { info, files } = yield* loaded({
        global: '{ "tool_output": { "max_lines": 1, "max_bytes": 100 }, "tools": { "bash": false }, "default_agent": "plan" }',
        project: '{ "tool_output": { "max_lines": 2 }, "tools": { "websearch": false } }',
        fromEnv: '{ "tool_output": { "max_bytes": 300 } }',
        explicit: '{ "tool_output": { "max_lines": 3 }, "tools": { "bash": true } }',
      })
      expect(info.files.map((file) => [file.path, file.scope])).toEqual([
        [files.global, "global"],
        [files.project, "project"],
        [files.fromEnv, "explicit"],
        [files.explicit, "explicit"],
      ])
      expect(info.tool_output).toEqual({ max_lines: 3, max_bytes: 300 })
      expect(info.tools).toEqual({ bash: true, websearch: false })
      expect(info.default_agent).toBe("plan")
    }))

  it.live("falls back to .toolgate/toolgate.json, and prefers toolgate.json when both exist", () =>
    Effect.gen(function* () {
      const hidden = yield* loaded({ hidden: '{ "default_agent": "plan" }' })
      expect(Config.defaultAgent(hidden.info.files, true)).toBe("plan")
      const both = yield* loaded({ hidden: '{ "default_agent": "plan" }', project: '{ "default_agent": "top", "agent": { "top": {} } }' })
      expect(Config.defaultAgent(both.info.files, true)).toBe("top")
      expect(both.info.default_agent).toBe(Config.DEFAULT_AGENT)
      expect(both.info.files.map((file) => file.path)).toEqual([both.files.project])
    }))

  it.live("keeps each file's rules in order with their source, converting the object form in key order", () =>
    Effect.gen(function* () {
      const { info, files } = yield* loaded({
        global: '{ "permission": [ { "action": "bash", "resource": "git push *", "effect": "ask" } ] }',
        project: '{ "permission": { "edit": "ask", "bash": { "git *": "allow", "rm *": "deny" } }, "agent": { "review": { "permission": [ { "action": "*", "resource": "*", "effect": "deny" } ] } } }',
      })
      const [global, project] = info.files
      expect(global?.permission).toEqual([{ action: "bash", resource: "git push *", effect: "ask", source: { file: files.global, scope: "global", index: 0 } }])
      expect(project?.permission.map(({ action, resource, effect }) => [action, resource, effect])).toEqual([
        ["edit", "*", "ask"],
        ["bash", "git *", "allow"],
        ["bash", "rm *", "deny"],
      ])
      expect(project?.agent.review?.permission).toEqual([
        { action: "*", resource: "*", effect: "deny", source: { file: files.project, scope: "project", index: 0, agent: "review" } },
      ])
    }))

  it.live("keeps the object form's key order even for integer-like keys", () =>
    Effect.gen(function* () {
      const { info } = yield* loaded({ project: '{ "permission": { "bash": { "*": "allow", "0": "deny", "10": "ask" } } }' })
      expect(info.files[0]?.permission.map(({ resource, effect }) => [resource, effect])).toEqual([
        ["*", "allow"],
        ["0", "deny"],
        ["10", "ask"],
      ])
    }))

  it.live("resolves skill folders against the file that names them", () =>
    Effect.gen(function* () {
      const { info, files } = yield* loaded({ project: '{ "skills": ["./team-skills", "/abs/skills", "~/skills", "~"] }' })
      // `~` stays as written: skill discovery knows the home directory.
      expect(info.skills).toEqual([path.join(path.dirname(files.project), "team-skills"), "/abs/skills", "~/skills", "~"])
    }))

  it.live("names an unknown key and its file, suggesting the likely key", () =>
    Effect.gen(function* () {
      const { error, files } = yield* failure({ project: '{ "permissions": [] }' })
      expect(error).toBeInstanceOf(ConfigError.UnknownKeyError)
      expect(error.message).toBe(`Unknown config key "permissions" in ${files.project} (did you mean "permission"?)`)
      const nested = yield* failure({ global: '{ "tool_output": { "max_line": 3 } }' })
      expect(nested.error.message).toBe(`Unknown config key "tool_output.max_line" in ${nested.files.global} (did you mean "tool_output.max_lines"?)`)
      const far = yield* failure({ global: '{ "colour": "red" }' })
      expect(far.error.message).toBe(`Unknown config key "colour" in ${far.files.global}`)
    }))

  it.live("reports a syntax error with file, line and column", () =>
    Effect.gen(function* () {
      const { error, files } = yield* failure({ project: '{\n  "tools": {\n    "bash": false,,\n  }\n}' })
      expect(error).toBeInstanceOf(ConfigError.SyntaxError)
      expect(error.message).toBe(ConfigError.Messages.syntax(files.project, 3, 19, "property name expected"))
    }))

  it.live("rejects a rule with an unknown effect or a non-string pattern", () =>
    Effect.gen(function* () {
      const effect = yield* failure({ project: '{ "permission": [ { "action": "bash", "resource": "*", "effect": "allwo" } ] }' })
      expect(effect.error.message).toBe(`Invalid permission rule in ${effect.files.project}: effect must be allow, ask or deny`)
      const pattern = yield* failure({ project: '{ "permission": { "bash": { "rm *": 1 } } }' })
      expect(pattern.error.message).toBe(`Invalid permission rule in ${pattern.files.project}: effect must be allow, ask or deny`)
      const resource = yield* failure({ global: '{ "permission": [ { "action": "bash", "resource": 3, "effect": "deny" } ] }' })
      expect(resource.error.message).toBe(`Invalid permission rule in ${resource.files.global}: action and resource must be strings`)
    }))

  it.live("rejects invalid values with the key and what was expected", () =>
    Effect.gen(function* () {
      const limits = yield* failure({ project: '{ "tool_output": { "max_bytes": -1 } }' })
      expect(limits.error.message).toBe(ConfigError.Messages.invalidValue("tool_output.max_bytes", limits.files.project, "a positive integer"))
      const tools = yield* failure({ project: '{ "tools": { "bash": "no" } }' })
      expect(tools.error.message).toBe(ConfigError.Messages.invalidValue("tools", tools.files.project, "an object of tool names to true or false"))
    }))

  it.live("rejects a default agent that is neither built in nor defined in config", () =>
    Effect.gen(function* () {
      const { error, files } = yield* failure({ global: '{ "agent": { "review": {} } }', project: '{ "default_agent": "reveiw" }' })
      expect(error.message).toBe(ConfigError.Messages.unknownAgent("reveiw", files.project))
      const defined = yield* loaded({ global: '{ "agent": { "review": {} } }', project: '{ "default_agent": "review" }' })
      expect(Config.defaultAgent(defined.info.files, true)).toBe("review")
      expect(Config.defaultAgent(defined.info.files, false)).toBe(Config.DEFAULT_AGENT)
    }))

  it.live("a missing explicit file is an error; a missing global or project file is not", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const missing = path.join(root, "nope.json")
      const result = yield* Config.load({ location: root, explicit: missing, environment: { env: {}, home: root } }).pipe(Effect.flip)
      expect(result.message).toBe(ConfigError.Messages.unreadable(missing, "ENOENT"))
    }))
})

describe("Directories", () => {
  const home = "/home/ada"
  it("resolves data and config folders from overrides, then XDG, then home", () => {
    expect(Directories.data({ env: {}, home })).toBe("/home/ada/.local/share/toolgate")
    expect(Directories.data({ env: { XDG_DATA_HOME: "/xdg/data" }, home })).toBe("/xdg/data/toolgate")
    expect(Directories.data({ env: { XDG_DATA_HOME: "/xdg/data", TOOLGATE_DATA_DIR: "/td" }, home })).toBe("/td")
    expect(Directories.globalConfigFile({ env: {}, home })).toBe("/home/ada/.config/toolgate/toolgate.json")
    expect(Directories.globalConfigFile({ env: { XDG_CONFIG_HOME: "/xdg/cfg" }, home })).toBe("/xdg/cfg/toolgate/toolgate.json")
    expect(Directories.globalConfigFile({ env: { TOOLGATE_CONFIG_DIR: "/tc" }, home })).toBe("/tc/toolgate.json")
    expect(Directories.toolOutput({ env: { TOOLGATE_DATA_DIR: "/td" }, home })).toBe("/td/tool-output")
  })
})

describe("Config attacks", () => {
  it.live("a __proto__ key cannot smuggle settings past validation", () =>
    Effect.gen(function* () {
      const { error, files } = yield* failure({ project: '{ "__proto__": { "tools": { "bash": true }, "bogus": 1 } }' })
      expect(error.message).toBe(`Unknown config key "__proto__" in ${files.project}`)
    }))

  it.live("an empty or non-object file is rejected with its path", () =>
    Effect.gen(function* () {
      const empty = yield* failure({ project: "" })
      expect(empty.error).toBeInstanceOf(ConfigError.SyntaxError)
      const list = yield* failure({ project: "[]" })
      expect(list.error.message).toBe(ConfigError.Messages.invalidValue("(root)", list.files.project, "an object"))
    }))

  it.live("a project config that is a directory is unreadable, not silently skipped", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* Effect.promise(() => mkdir(path.join(root, "toolgate.json")))
      const error = yield* Config.load({ location: root, environment: { env: {}, home: root } }).pipe(Effect.flip)
      expect(error.message).toBe(ConfigError.Messages.unreadable(path.join(root, "toolgate.json"), "EISDIR"))
    }))
})

describe("Config websearch", () => {
  it.live("merges the provider and base URLs key by key", () =>
    Effect.gen(function* () {
      const { info } = yield* loaded({
        global: '{ "websearch": { "provider": "exa", "exa_base_url": "http://127.0.0.1:9/exa" } }',
        explicit: '{ "websearch": { "parallel_base_url": "https://proxy.example/parallel" } }',
      })
      expect(info.websearch).toEqual({ provider: "exa", exa_base_url: "http://127.0.0.1:9/exa", parallel_base_url: "https://proxy.example/parallel" })
    }))

  it.live("rejects an unknown provider, a base URL that is not http(s), and unknown keys", () =>
    Effect.gen(function* () {
      const provider = yield* failure({ global: '{ "websearch": { "provider": "bing" } }' })
      expect(provider.error.message).toBe(ConfigError.Messages.invalidValue("websearch.provider", provider.files.global, "exa or parallel"))
      const url = yield* failure({ global: '{ "websearch": { "exa_base_url": "ftp://x" } }' })
      expect(url.error.message).toBe(ConfigError.Messages.invalidValue("websearch.exa_base_url", url.files.global, "an http:// or https:// URL"))
      const key = yield* failure({ global: '{ "websearch": { "exa_base": "http://x" } }' })
      expect(key.error.message).toBe(`Unknown config key "websearch.exa_base" in ${key.files.global}`)
      const typo = yield* failure({ global: '{ "websearch": { "provder": "exa" } }' })
      expect(typo.error.message).toBe(`Unknown config key "websearch.provder" in ${typo.files.global} (did you mean "websearch.provider"?)`)
    }))

  it.live("refuses base URLs in a project file, which could send the API key elsewhere; the provider is fine there", () =>
    Effect.gen(function* () {
      const { error, files } = yield* failure({ project: '{ "websearch": { "parallel_base_url": "https://attacker.example" } }' })
      expect(error.message).toBe(
        ConfigError.Messages.invalidValue("websearch.parallel_base_url", files.project, "no value in a project file (it decides where the API key is sent)"),
      )
      const { info } = yield* loaded({ project: '{ "websearch": { "provider": "parallel" } }' })
      expect(info.websearch).toEqual({ provider: "parallel" })
    }))
})

/** A repository `<root>/repo` (with `.git`) and a database file shared by every Location opened on it. */
const repository = Effect.gen(function* () {
  const root = yield* Effect.flatMap(tmpdir, (dir) => Effect.promise(() => realpath(dir)))
  const repo = path.join(root, "repo")
  yield* Effect.promise(() => mkdir(path.join(repo, ".git"), { recursive: true }))
  const put = (relative: string, body: unknown) =>
    Effect.promise(async () => {
      await mkdir(path.dirname(path.join(repo, relative)), { recursive: true })
      await writeFile(path.join(repo, relative), typeof body === "string" ? body : JSON.stringify(body))
    })
  /** Runs `body` in a fresh Location (a new process, as far as the files are concerned). */
  const at = <A, E>(relative: string, body: Effect.Effect<A, E, Project.Service | Config.Service>) => {
    const location = path.join(repo, relative)
    const project = Project.layer.pipe(Layer.provideMerge(Layer.mergeAll(Location.layer(location), Database.layer(path.join(root, "toolgate.db")))))
    return Effect.provide(body, Config.layer({ location, environment: { env: {}, home: path.join(root, "home") } }).pipe(Layer.provideMerge(project)))
  }
  return { root, repo, put, at }
})

const stateOf = Effect.gen(function* () {
  const project = yield* Project.Service
  return { status: yield* project.status, trusted: yield* project.trusted, notice: yield* project.notice }
})

const trustHere = Effect.flatMap(Project.Service, (project) => project.trust)

describe("Project trust", () => {
  it.live("binds trust to the file's content: after a change it is not trusted, says so, and remembers what was trusted", () =>
    Effect.gen(function* () {
      const { repo, put, at } = yield* repository
      const file = path.join(repo, "toolgate.json")
      const before = JSON.stringify({ permission: [{ action: "bash", resource: "npm test", effect: "allow" }] })
      yield* put("toolgate.json", before)
      expect(yield* at(".", stateOf)).toEqual({ status: { _tag: "Untrusted", file }, trusted: false, notice: undefined })
      expect(yield* at(".", trustHere)).toEqual({ _tag: "Untrusted", file })
      expect(yield* at(".", stateOf)).toEqual({ status: { _tag: "Trusted", file }, trusted: true, notice: undefined })
      yield* put("toolgate.json", { permission: [{ action: "bash", resource: "*", effect: "allow" }] })
      expect(yield* at(".", stateOf)).toEqual({ status: { _tag: "Changed", file, previous: before }, trusted: false, notice: ConfigTrust.Messages.changed(file, repo) })
      expect(ConfigTrust.Messages.changed(file, repo)).toBe(
        `Project config ${file} changed since it was trusted: its allow rules apply as ask, and its default_agent and skills do not count, until you run toolgate trust in ${repo} again (it shows what changed).`,
      )
      // Putting the trusted bytes back makes it trusted again: trust is the content, not a moment.
      yield* put("toolgate.json", before)
      expect((yield* at(".", stateOf)).trusted).toBe(true)
    }))

  it.live("does not trust a file created after trust, nor the same repository's file in a subfolder", () =>
    Effect.gen(function* () {
      const { repo, put, at } = yield* repository
      yield* put("toolgate.json", {})
      yield* at(".", trustHere)
      yield* put(".toolgate/toolgate.json", { permission: [{ action: "*", resource: "*", effect: "allow" }] })
      expect((yield* at(".", stateOf)).trusted).toBe(true)
      yield* Effect.promise(() => rm(path.join(repo, "toolgate.json")))
      const hidden = path.join(repo, ".toolgate", "toolgate.json")
      expect(yield* at(".", stateOf)).toEqual({ status: { _tag: "New", file: hidden }, trusted: false, notice: ConfigTrust.Messages.notTrusted(hidden, repo) })
      yield* put("vendor/pkg/toolgate.json", { permission: [{ action: "bash", resource: "*", effect: "allow" }] })
      const vendored = path.join(repo, "vendor", "pkg", "toolgate.json")
      expect(yield* at("vendor/pkg", stateOf)).toEqual({
        status: { _tag: "New", file: vendored },
        trusted: false,
        notice: `Project config ${vendored} is not trusted (trust is given to each config file and its content, and this one was not trusted): its allow rules apply as ask until you run toolgate trust in ${path.join(repo, "vendor", "pkg")}.`,
      })
      yield* at("vendor/pkg", trustHere)
      expect((yield* at("vendor/pkg", stateOf)).trusted).toBe(true)
      expect((yield* at(".", stateOf)).trusted).toBe(false)
    }))

  it.live("does not count a project an older toolgate trusted without recording the content, and says so", () =>
    Effect.gen(function* () {
      const { root, repo, put, at } = yield* repository
      yield* put("toolgate.json", {})
      yield* at(".", Effect.void)
      const db = yield* Database.open(path.join(root, "toolgate.db"))
      db.prepare("UPDATE project SET trusted_at = 1").run()
      db.close()
      const file = path.join(repo, "toolgate.json")
      expect(yield* at(".", stateOf)).toEqual({ status: { _tag: "Legacy", file }, trusted: false, notice: ConfigTrust.Messages.legacy(file, repo) })
      yield* at(".", trustHere)
      expect(yield* at(".", stateOf)).toEqual({ status: { _tag: "Trusted", file }, trusted: true, notice: undefined })
      yield* at(".", Effect.flatMap(Project.Service, (project) => project.untrust))
      expect(yield* at(".", stateOf)).toEqual({ status: { _tag: "Untrusted", file }, trusted: false, notice: undefined })
    }))

  it.live("refuses to trust a Location without a project file, naming the folder", () =>
    Effect.gen(function* () {
      const { repo, at } = yield* repository
      const error = yield* at(".", trustHere).pipe(Effect.flip)
      expect(error).toBeInstanceOf(Project.NothingToTrustError)
      expect(error.message).toBe(`Nothing to trust in ${repo}: it has no toolgate.json or .toolgate/toolgate.json (trust is given to a config file and its content, not to a folder)`)
    }))

  it.live("parses the very bytes Project read, so a file changed after that cannot slip in as trusted", () =>
    Effect.gen(function* () {
      const { repo, put } = yield* repository
      yield* put("toolgate.json", { default_agent: "plan" })
      const project = Project.layer.pipe(Layer.provideMerge(Layer.mergeAll(Location.layer(repo), Database.layerMemory)))
      const info = yield* Effect.provide(
        Effect.gen(function* () {
          // Config is built after Project: the file changes in between.
          yield* put("toolgate.json", { default_agent: "build" })
          return yield* Effect.provide(Config.Service, Config.layer({ location: repo, environment: { env: {}, home: repo } }))
        }),
        project,
      )
      expect(info.files.map((file) => file.default_agent)).toEqual(["plan"])
      const alone = yield* Config.load({ location: repo, environment: { env: {}, home: repo } })
      expect(alone.files.map((file) => file.default_agent)).toEqual(["build"])
    }))
})

describe("ConfigTrust.classify", () => {
  const found = { _tag: "Found", location: "/r", file: "/r/toolgate.json", real: "/r/toolgate.json", text: "{}", hash: "h1" } as const
  const cases: ReadonlyArray<{ readonly name: string; readonly facts: ConfigTrust.Facts; readonly status: ConfigTrust.Status }> = [
    { name: "no file: nothing to trust", facts: { read: { _tag: "Absent", location: "/r", file: "/r/.toolgate/toolgate.json" }, record: undefined, others: true, legacy: true }, status: { _tag: "Absent" } },
    { name: "an unreadable file is not trusted", facts: { read: { _tag: "Unreadable", location: "/r", file: "/r/toolgate.json", detail: "EACCES" }, record: { hash: "h1", content: "{}" }, others: false, legacy: false }, status: { _tag: "Absent" } },
    { name: "the trusted hash", facts: { read: found, record: { hash: "h1", content: "{}" }, others: false, legacy: false }, status: { _tag: "Trusted", file: found.file } },
    { name: "another hash", facts: { read: found, record: { hash: "h0", content: "[]" }, others: true, legacy: true }, status: { _tag: "Changed", file: found.file, previous: "[]" } },
    { name: "no record, other files trusted", facts: { read: found, record: undefined, others: true, legacy: true }, status: { _tag: "New", file: found.file } },
    { name: "no record, an older toolgate's trust", facts: { read: found, record: undefined, others: false, legacy: true }, status: { _tag: "Legacy", file: found.file } },
    { name: "never trusted", facts: { read: found, record: undefined, others: false, legacy: false }, status: { _tag: "Untrusted", file: found.file } },
  ]
  for (const c of cases) it(`${c.name}`, () => expect(ConfigTrust.classify(c.facts)).toEqual(c.status))
})
