/**
 * `toolgate config`: the files read in order with what was found in each (and the project
 * file's trust), the settings they set, and every agent with its rule counts; with a broken
 * file it still runs, lists the file as ignored and warns once. Real files and SQLite.
 */
import { mkdir, realpath, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigCommand } from "../../src/cli/command/config.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { CliLocation } from "../../src/cli/location.js"
import { ConfigError } from "../../src/config/errors.js"
import { Agents } from "../../src/permission/agents.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const BUILD = Agents.BUILD_RULES.length
const PLAN = Agents.PLAN_RULES.length

/** A home `<root>` and a repository `<root>/repo`; `global`, `project` and `hidden` are where config files go. */
const setup = Effect.gen(function* () {
  const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
  const dir = path.join(root, "repo")
  yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
  const files = {
    global: path.join(root, ".config", "toolgate", "toolgate.json"),
    project: path.join(dir, "toolgate.json"),
    hidden: path.join(dir, ".toolgate", "toolgate.json"),
    explicit: path.join(root, "extra.json"),
  }
  const put = (file: string, body: unknown) =>
    promise(async () => {
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, typeof body === "string" ? body : JSON.stringify(body))
    })
  const cli = (argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", dir], { root }))
  return { root, dir, files, put, cli }
})

const lines = (...text: ReadonlyArray<string>) => `${text.join("\n")}\n`

describe("toolgate config", () => {
  it.live("with no config file: every place looked in, no settings, the built-in agents", () =>
    Effect.gen(function* () {
      const { files, cli } = yield* setup
      expect(yield* cli(["config"])).toEqual({
        code: ExitCode.SUCCESS,
        stdout: lines(
          "Config files, in the order they are read:",
          `  global   ${files.global}: not found`,
          `  project  ${files.project}: not found`,
          `  project  ${files.hidden}: not found`,
          "Settings:",
          "  none: every setting has its default",
          "Agents:",
          `  build (default): ${BUILD} built-in rules, 0 from config`,
          `  plan: ${PLAN} built-in rules, 0 from config`,
        ),
        stderr: "",
      })
    }))

  it.live("lists the files in order with the project file's trust, the settings they set and each agent's rules", () =>
    Effect.gen(function* () {
      const { files, put, cli } = yield* setup
      yield* put(files.global, {
        default_agent: "plan",
        tool_output: { max_lines: 500 },
        agent: { review: { permission: [{ action: "*", resource: "*", effect: "deny" }, { action: "read", resource: "*", effect: "allow" }] } },
        mcp: { on_ask: "deny", servers: { github: { command: ["gh-mcp"], env: { TOKEN: "secret" } } } },
      })
      yield* put(files.hidden, { permission: [{ action: "bash", resource: "npm *", effect: "allow" }], tools: { websearch: false } })
      yield* put(files.explicit, { tool_output: { max_bytes: 1000 }, skills: ["/skills"] })
      const expected = (trust: string) =>
        lines(
          "Config files, in the order they are read:",
          `  global   ${files.global}: found`,
          `  project  ${files.project}: not found`,
          `  project  ${files.hidden}: found, ${trust}`,
          `  explicit ${files.explicit}: found`,
          "Settings:",
          '  default_agent: "plan"',
          "  tool_output.max_lines: 500",
          "  tool_output.max_bytes: 1000",
          '  skills: ["/skills"]',
          "  tools.websearch: false",
          '  mcp.on_ask: "deny"',
          '  mcp.servers: ["github"]',
          "Agents:",
          `  build: ${BUILD} built-in rules, 1 from config`,
          `  plan (default): ${PLAN} built-in rules, 1 from config`,
          "  review: 0 built-in rules, 3 from config",
        )
      const shown = yield* cli(["config", "--config", files.explicit])
      expect(shown).toEqual({ code: ExitCode.SUCCESS, stdout: expected("not trusted: its allow rules apply as ask"), stderr: "" })
      expect((yield* cli(["trust"])).code).toBe(ExitCode.SUCCESS)
      expect((yield* cli(["config", "--config", files.explicit])).stdout).toBe(expected("trusted"))
      yield* put(files.hidden, { permission: [{ action: "bash", resource: "*", effect: "allow" }], tools: { websearch: false } })
      expect((yield* cli(["config", "--config", files.explicit])).stdout).toBe(expected("changed since it was trusted: its allow rules apply as ask"))
    }))

  it.live("counts an untrusted project's default_agent as not set, and shows it once the file is trusted", () =>
    Effect.gen(function* () {
      const { files, put, cli } = yield* setup
      yield* put(files.project, { default_agent: "plan" })
      const settings = (stdout: string) => stdout.split("\n").slice(3, 5)
      expect(settings((yield* cli(["config"])).stdout)).toEqual(["Settings:", "  none: every setting has its default"])
      yield* cli(["trust"])
      expect(settings((yield* cli(["config"])).stdout)).toEqual(["Settings:", '  default_agent: "plan"'])
    }))

  it.live("runs with a broken file: lists it as ignored with why, warns once, and shows the rest", () =>
    Effect.gen(function* () {
      const { files, put, cli } = yield* setup
      yield* put(files.global, { tool_output: { max_lines: 10 } })
      yield* put(files.project, '{ "toolz": {} }')
      const error = ConfigError.Messages.unknownKey("toolz", files.project, "tools")
      expect(yield* cli(["config"])).toEqual({
        code: ExitCode.SUCCESS,
        stdout: lines(
          "Config files, in the order they are read:",
          `  global   ${files.global}: found`,
          `  project  ${files.project}: ignored: ${error}`,
          "Settings:",
          "  tool_output.max_lines: 10",
          "Agents:",
          `  build (default): ${BUILD} built-in rules, 0 from config`,
          `  plan: ${PLAN} built-in rules, 0 from config`,
        ),
        stderr: `${CliLocation.Messages.ignoring(error)}\n`,
      })
    }))

  it.live("prints the same as JSON with --json", () =>
    Effect.gen(function* () {
      const { files, put, cli } = yield* setup
      yield* put(files.project, { tools: { bash: false }, permission: [{ action: "edit", resource: "*", effect: "ask" }] })
      const shown = yield* cli(["config", "--json"])
      expect(JSON.parse(shown.stdout)).toEqual({
        files: [
          { file: files.global, scope: "global", state: "absent" },
          { file: files.project, scope: "project", state: "found", trust: "untrusted" },
        ],
        settings: { tools: { bash: false } },
        agents: [
          { name: "build", default: true, builtin: BUILD, config: 1 },
          { name: "plan", default: false, builtin: PLAN, config: 1 },
        ],
      })
    }))

  it.live("takes no arguments", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      expect(yield* cli(["config", "extra"])).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${ConfigCommand.Messages.noArguments}\n` })
    }))
})
