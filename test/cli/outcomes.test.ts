/**
 * The table of outcomes in docs/cli.md, row by row: each case is run through the real CLI in
 * process (real files, real SQLite), and its exit code and message must be the row's, with the
 * row's placeholders filled in with the case's values. Every row of the table has a case here,
 * and every case a row.
 */
import { readFile, realpath, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApprovalsCommand } from "../../src/cli/command/approvals.js"
import { CallCommand } from "../../src/cli/command/call.js"
import { TrustCommand } from "../../src/cli/command/trust.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import type { Io } from "../../src/cli/io.js"
import { CliLocation } from "../../src/cli/location.js"
import { Cli } from "../../src/cli/main.js"
import { ConfigError } from "../../src/config/errors.js"
import { ToolCallMarker } from "../../src/tool-call-marker.js"
import { BashTool } from "../../src/tool/builtin/bash.js"
import { promise, runCli } from "../lib/cli.js"
import { ASK_BASH, project, shell } from "../lib/shell-tool.js"

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/cli.md")
const HEADER = "| case | message | exit code |"

interface Row {
  readonly case: string
  readonly message: string
  readonly code: string
}

/** The rows of the outcomes table, each cell as written (a message without its backticks). */
const table = Effect.promise(async (): Promise<ReadonlyArray<Row>> => {
  const lines = (await readFile(DOCS, "utf8")).split("\n")
  const start = lines.indexOf(HEADER) + 2
  const end = lines.findIndex((line, index) => index >= start && !line.startsWith("|"))
  return lines.slice(start, end).map((line) => {
    const [name, message, code] = line.slice(2, -2).split(" | ") as [string, string, string]
    return { case: name, message: message.replace(/^`(.*)`$/, "$1"), code }
  })
})

const fill = (template: string, values: Readonly<Record<string, string>>) => Object.entries(values).reduce((text, [key, value]) => text.split(key).join(value), template)

/** What a case printed: the line the row is about, and the exit code. */
interface Ended {
  readonly code: number
  readonly line: string
}

type Cli = (argv: ReadonlyArray<string>, options?: Omit<Parameters<typeof runCli>[1], "root">) => Effect.Effect<Awaited<ReturnType<typeof runCli>>>

/** A repository whose toolgate.json asks before every command and denies `rm *` (the shell tool asks `bash`). */
interface Context {
  readonly root: string
  readonly dir: string
  readonly cli: Cli
}

interface Case {
  readonly case: string
  /** The exit code the row's code column stands for. */
  readonly code: number
  /** Two saved approvals first: `git *` and `npm *`. */
  readonly approvals?: boolean
  /** The row's placeholders and what they are in this run (`<dir>` and `<worktree>` are the repository). */
  readonly values?: (context: Context) => Readonly<Record<string, string>>
  readonly run: (context: Context) => Effect.Effect<Ended>
}

const setup = (approvals: boolean) =>
  Effect.gen(function* () {
    const made = yield* project(ASK_BASH)
    const root = yield* promise(() => realpath(made.root))
    const dir = path.join(root, "repo")
    const cli: Cli = (argv, options = {}) => promise(() => runCli([...argv, "--dir", dir], { root, extra: shell, ...options }))
    if (approvals) for (const command of ["git status", "npm test"]) yield* cli(["call", "shell", JSON.stringify({ command }), "--on-ask", "always"])
    return { root, dir, cli } satisfies Context
  })

/** The command's last stderr line: a call's "New session" line before it is not the outcome. */
const stderr = (result: { readonly code: number; readonly stderr: string }): Ended => ({ code: result.code, line: result.stderr.replace(/^New session [^\n]*\n/, "").replace(/\n$/, "") })

/** Runs `argv` with an Io whose signal arrives as soon as the command listens for one. */
const signalled = (argv: ReadonlyArray<string>, root: string, signal: Io.Signal) =>
  promise(async (): Promise<Ended> => {
    const err: Array<string> = []
    const io: Io.Io = {
      stdout: () => undefined,
      stderr: (text) => err.push(text),
      stdin: () => Promise.resolve(undefined),
      prompt: () => Promise.resolve(undefined),
      isTTY: false,
      cwd: root,
      env: { HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data") },
      onSignal: (handler) => {
        handler(signal)
        return () => undefined
      },
    }
    return { code: await Cli.run(argv, { io }), line: err.join("\n") }
  })

/** The project file made unreadable as config: an unknown key. */
const broken = (dir: string) => promise(() => writeFile(path.join(dir, "toolgate.json"), '{ "toolz": {} }'))
const brokenError = (context: Context) => ({ "<the config error>": ConfigError.Messages.unknownKey("toolz", path.join(context.dir, "toolgate.json"), "tools") })

const cases: ReadonlyArray<Case> = [
  { case: "success", code: ExitCode.SUCCESS, run: ({ cli }) => Effect.map(cli(["call", "shell", '{"command":"ls"}', "--on-ask", "once"]), stderr) },
  {
    case: "the tool failed, or the command did (a database that cannot be opened, audit findings)",
    code: ExitCode.TOOL_FAILED,
    values: () => ({ "<the tool's message>": BashTool.Messages.empty }),
    run: ({ cli }) => Effect.map(cli(["call", "bash", '{"command":" "}']), stderr),
  },
  { case: "unknown command", code: ExitCode.USAGE, values: () => ({ "<name>": "frobnicate" }), run: ({ cli }) => Effect.map(cli(["frobnicate"]), stderr) },
  { case: "unknown tool", code: ExitCode.USAGE, values: () => ({ "<name>": "nope", "<agent>": "build" }), run: ({ cli }) => Effect.map(cli(["call", "nope", "{}"]), stderr) },
  { case: "unknown agent", code: ExitCode.USAGE, values: () => ({ "<name>": "nobody" }), run: ({ cli }) => Effect.map(cli(["tools", "--agent", "nobody"]), stderr) },
  { case: "unknown session", code: ExitCode.USAGE, values: () => ({ "<id>": "ses_nope" }), run: ({ cli }) => Effect.map(cli(["session", "diff", "ses_nope"]), stderr) },
  { case: "unknown approval id", code: ExitCode.USAGE, values: () => ({ "<id>": "psv_nope" }), run: ({ cli }) => Effect.map(cli(["approvals", "revoke", "psv_nope"]), stderr) },
  {
    case: "an approval id prefix that several ids start with",
    code: ExitCode.USAGE,
    approvals: true,
    values: () => ({ "<prefix>": "psv_", "<n>": "2" }),
    run: ({ cli }) => Effect.map(cli(["approvals", "revoke", "psv_"]), stderr),
  },
  { case: "`approvals clear` with no terminal and no `--yes`", code: ExitCode.USAGE, approvals: true, run: ({ cli }) => Effect.map(cli(["approvals", "clear"]), stderr) },
  {
    case: "any other misuse: an unknown flag, a missing argument, invalid JSON, a `--dir` that is no directory",
    code: ExitCode.USAGE,
    values: () => ({ "<what is wrong>": CallCommand.Messages.missingTool }),
    run: ({ cli }) => Effect.map(cli(["call"]), stderr),
  },
  {
    case: "a broken config file, for a command that acts for an agent (`call`, `tools`, `mcp`, `permission`)",
    code: ExitCode.USAGE,
    values: brokenError,
    run: ({ dir, cli }) => Effect.andThen(broken(dir), Effect.map(cli(["tools"]), stderr)),
  },
  {
    case: "a broken config file, for a recovery command",
    code: ExitCode.SUCCESS,
    values: brokenError,
    run: ({ dir, cli }) =>
      Effect.gen(function* () {
        yield* broken(dir)
        const listed = yield* cli(["approvals", "list"])
        expect(listed.stdout).toBe(`${ApprovalsCommand.Messages.none(dir)}\n`)
        return stderr(listed)
      }),
  },
  {
    case: "a rule denied the call",
    code: ExitCode.BLOCKED,
    values: () => ({ "<action>": "bash" }),
    run: ({ cli }) => Effect.map(cli(["call", "shell", '{"command":"rm -rf build"}']), stderr),
  },
  {
    case: "a person declined the call (or `--on-ask reject` did)",
    code: ExitCode.DECLINED,
    values: () => ({ "<action>": "bash" }),
    run: ({ cli }) => Effect.map(cli(["call", "shell", '{"command":"ls"}', "--on-ask", "reject"]), stderr),
  },
  {
    case: "`approvals clear` answered no (on stdout)",
    code: ExitCode.DECLINED,
    approvals: true,
    values: () => ({ "<n>": "2" }),
    run: ({ cli }) => Effect.map(cli(["approvals", "clear"], { tty: true, answers: ["n"] }), (result) => ({ code: result.code, line: result.stdout.replace(/\n$/, "") })),
  },
  {
    case: "a command only a person may run, inside a toolgate tool call",
    code: ExitCode.REFUSED,
    run: ({ cli }) => Effect.map(cli(["trust"], { env: { [ToolCallMarker.VARIABLE]: "call_x" } }), stderr),
  },
  ...(["SIGHUP", "SIGINT", "SIGTERM"] as const).map(
    (signal): Case => ({
      case: signal === "SIGINT" ? "SIGINT (Ctrl-C)" : signal,
      code: ExitCode.SIGNALLED[signal],
      run: ({ dir, root }) => signalled(["approvals", "list", "--dir", dir], root, signal),
    }),
  ),
]

describe("the outcomes table of docs/cli.md", () => {
  it.effect("has one row for each case below, and no other", () =>
    Effect.gen(function* () {
      expect((yield* table).map((row) => row.case)).toEqual(cases.map((entry) => entry.case))
    }))

  for (const entry of cases)
    it.live(`${entry.case}: the row's message and exit code`, () =>
      Effect.gen(function* () {
        const row = (yield* table).find((candidate) => candidate.case === entry.case) as Row
        const context = yield* setup(entry.approvals === true)
        const ended = yield* entry.run(context)
        expect(row.code).toBe(row.code === "the command's own" ? row.code : String(entry.code))
        expect(ended.code).toBe(entry.code)
        const values = { "<dir>": context.dir, "<worktree>": context.dir, ...entry.values?.(context) }
        expect(ended.line).toBe(entry.case === "success" ? "" : fill(row.message, values))
      }))
})

describe("the messages of the table", () => {
  it.effect("are the ones the code builds", () =>
    Effect.sync(() => {
      const file = "/src/app/toolgate.json"
      expect(ConfigError.Messages.unknownKey("toolz", file, "tools")).toBe(`Unknown config key "toolz" in ${file} (did you mean "tools"?)`)
      expect(CliLocation.Messages.ignoring(ConfigError.Messages.unknownKey("toolz", file, "tools"))).toBe(
        `Warning: Unknown config key "toolz" in ${file} (did you mean "tools"?). Ignoring that file for this command; commands that act for an agent refuse to start until it is fixed.`,
      )
      expect(TrustCommand.Messages.insideToolCall).toBe(
        "toolgate trust refuses to run inside a toolgate tool call (TOOLGATE_TOOL_CALL is set): an agent cannot trust a project for the person. Run it yourself, in your own terminal.",
      )
    }))
})
