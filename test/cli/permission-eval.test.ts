import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PermissionCommand } from "../../src/cli/command/permission.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Lookup } from "../../src/cli/lookup.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { WebFetchTool } from "../../src/tool/builtin/webfetch.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { Tool } from "../../src/tool/tool.js"
import { makeEcho } from "../lib/echo.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"
import { jsonError } from "../lib/json.js"

/** A repository at `<root>/repo` and a global config (no trust needed) with `permission`. */
const project = (permission: ReadonlyArray<unknown>) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const dir = path.join(root, "repo")
    yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
    yield* promise(() => mkdir(path.join(root, ".config", "toolgate"), { recursive: true }))
    yield* promise(() => writeFile(path.join(root, ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission })))
    return { root, dir, global: path.join(root, ".config", "toolgate", "toolgate.json") }
  })

const evalIn = (found: { readonly root: string; readonly dir: string }, ...args: ReadonlyArray<string>) =>
  promise(() => runCli(["permission", "eval", ...args, "--dir", found.dir], { root: found.root }))

const lines = (...output: ReadonlyArray<string>) => `${output.join("\n")}\n`


/** The rules: commands ask, git status is allowed, rm is denied. */
const BASH = [
  { action: "bash", resource: "*", effect: "ask" },
  { action: "bash", resource: "rm *", effect: "deny" },
  { action: "bash", resource: "git status*", effect: "allow" },
]

describe("toolgate permission eval bash", () => {
  it.live("judges a command line as the bash tool does: git status && rm -rf x is denied, not allowed by git status*", () =>
    Effect.gen(function* () {
      const found = yield* project(BASH)
      const rule = (index: number, text: string) => `"${text}" (${found.global} permission[${index}])`
      expect(yield* evalIn(found, "bash", "git status && rm -rf x")).toEqual({ code: ExitCode.SUCCESS, stdout: "deny\n", stderr: "" })
      expect((yield* evalIn(found, "bash", "git status && rm -rf x", "--explain")).stdout).toBe(
        lines(
          "deny",
          PermissionCommand.Messages.request("deny", { action: "bash", resources: ["git status", "rm -rf x"] }),
          "git status:",
          PermissionCommand.Messages.decidedBy(rule(2, "bash git status* allow")),
          PermissionCommand.Messages.alsoMatched(rule(0, "bash * ask")),
          PermissionCommand.Messages.alsoMatched('"* * allow" (built-in agent build)'),
          "rm -rf x:",
          PermissionCommand.Messages.decidedBy(rule(1, "bash rm * deny")),
          PermissionCommand.Messages.alsoMatched(rule(0, "bash * ask")),
          PermissionCommand.Messages.alsoMatched('"* * allow" (built-in agent build)'),
        ),
      )
    }))

  it.live("asks for a write outside the working directory, and for an opaque line that only an exact rule allows", () =>
    Effect.gen(function* () {
      const found = yield* project([...BASH, { action: "bash", resource: "echo *", effect: "allow" }])
      const outside = path.join(found.root, "out.txt")
      expect((yield* evalIn(found, "bash", `echo hi > ${outside}`, "--explain")).stdout.split("\n").slice(0, 3)).toEqual([
        "ask",
        PermissionCommand.Messages.request("ask", { action: "external_directory", resources: [`${found.root}/*`] }),
        `${found.root}/*:`,
      ])
      const everything = yield* project([{ action: "bash", resource: "*", effect: "allow" }])
      expect((yield* evalIn(everything, "bash", 'eval "echo hi"', "--explain")).stdout).toBe(
        lines(
          "ask",
          PermissionCommand.Messages.request("ask", { action: "bash", resources: ['eval "echo hi"'], opaque: true }),
          'eval "echo hi":',
          PermissionCommand.Messages.decidedBy(`"bash * allow" (${everything.global} permission[0])`),
          PermissionCommand.Messages.raised,
          PermissionCommand.Messages.alsoMatched('"* * allow" (built-in agent build)'),
        ),
      )
    }))

  it.live("gives the strictest effect over several lines, and says why a line cannot be judged", () =>
    Effect.gen(function* () {
      const found = yield* project(BASH)
      expect((yield* evalIn(found, "bash", "git status", "ls")).stdout).toBe("ask\n")
      expect((yield* evalIn(found, "bash", "git status", "git status -s")).stdout).toBe("allow\n")
      expect(yield* evalIn(found, "bash", " ")).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: "Command must not be empty\n" })
    }))

  it.live("keeps the plain answer for other actions", () =>
    Effect.gen(function* () {
      const found = yield* project([{ action: "edit", resource: "tests/**", effect: "deny" }])
      expect((yield* evalIn(found, "edit", "src/a.ts", "tests/a.ts")).stdout).toBe("deny\n")
    }))
})

describe("toolgate permission eval --tool", () => {
  it.live("read .env: the read request and its decision, then the effect; --explain names the rule", () =>
    Effect.gen(function* () {
      const found = yield* project([])
      expect(yield* evalIn(found, "--tool", "read", '{"path":".env"}')).toEqual({
        code: ExitCode.SUCCESS,
        stdout: lines(PermissionCommand.Messages.request("ask", { action: "read", resources: [".env"] }), "ask"),
        stderr: "",
      })
      expect((yield* evalIn(found, "--tool", "read", '{"path":".env"}', "--explain")).stdout).toBe(
        lines(
          PermissionCommand.Messages.request("ask", { action: "read", resources: [".env"] }),
          ".env:",
          PermissionCommand.Messages.decidedBy('"read *.env ask" (built-in agent build)'),
          PermissionCommand.Messages.alsoMatched('"* * allow" (built-in agent build)'),
          "ask",
        ),
      )
    }))

  it.live("edit: external_directory, read and edit in the order the tool asks them", () =>
    Effect.gen(function* () {
      const found = yield* project([{ action: "edit", resource: "*.lock", effect: "deny" }])
      const outside = path.join(found.root, "notes.txt")
      expect((yield* evalIn(found, "--tool", "edit", JSON.stringify({ path: outside, oldString: "a", newString: "b" }))).stdout).toBe(
        lines(
          PermissionCommand.Messages.request("ask", { action: "external_directory", resources: [`${found.root}/*`] }),
          PermissionCommand.Messages.request("allow", { action: "read", resources: [outside] }),
          PermissionCommand.Messages.request("allow", { action: "edit", resources: [outside] }),
          "ask",
        ),
      )
      expect((yield* evalIn(found, "--tool", "edit", '{"path":"yarn.lock","oldString":"a","newString":"b"}')).stdout).toBe(
        lines(
          PermissionCommand.Messages.request("allow", { action: "read", resources: ["yarn.lock"] }),
          PermissionCommand.Messages.request("deny", { action: "edit", resources: ["yarn.lock"] }),
          "deny",
        ),
      )
    }))

  it.live("apply_patch: read for the file it updates, then one edit for every file", () =>
    Effect.gen(function* () {
      const found = yield* project([{ action: "read", resource: "a.txt", effect: "ask" }])
      yield* promise(() => writeFile(path.join(found.dir, "a.txt"), "x\n"))
      const patchText = ["*** Begin Patch", "*** Update File: a.txt", "@@", "-x", "+y", "*** Add File: b.txt", "+b", "*** End Patch"].join("\n")
      expect((yield* evalIn(found, "--tool", "apply_patch", JSON.stringify({ patchText }))).stdout).toBe(
        lines(
          PermissionCommand.Messages.request("ask", { action: "read", resources: ["a.txt"] }),
          PermissionCommand.Messages.request("allow", { action: "edit", resources: ["a.txt", "b.txt"] }),
          "ask",
        ),
      )
    }))

  it.live("webfetch: the URL and the loopback it reaches, each form counted as the gate counts it", () =>
    Effect.gen(function* () {
      const found = yield* project([
        { action: "webfetch", resource: "*", effect: "ask" },
        { action: "webfetch", resource: "http://localhost:3000/*", effect: "allow" },
      ])
      const input = '{"url":"http://localhost:3000/x#top"}'
      // The catch-all that asks for 127.0.0.1 and [::1] also matches the URL: the named allow stands.
      expect((yield* evalIn(found, "--tool", "webfetch", input)).stdout).toBe(
        lines(PermissionCommand.Messages.request("allow", { action: "webfetch", resources: ["http://localhost:3000/x"] }), "allow"),
      )
      const denied = yield* project([
        { action: "webfetch", resource: "http://localhost:3000/*", effect: "allow" },
        { action: "webfetch", resource: "http://127.0.0.1:*", effect: "deny" },
      ])
      expect((yield* evalIn(denied, "--tool", "webfetch", input)).stdout).toBe(
        lines(PermissionCommand.Messages.request("deny", { action: "webfetch", resources: ["http://localhost:3000/x", "http://127.0.0.1:3000/x"] }), "deny"),
      )
      expect(yield* evalIn(found, "--tool", "webfetch", '{"url":"ftp://example.com/x"}')).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${WebFetchTool.Messages.scheme}\n` })
    }))

  it.live("prints the requests with their deciding rules as one JSON object with --json", () =>
    Effect.gen(function* () {
      const found = yield* project([])
      const result = yield* evalIn(found, "--tool", "read", '{"path":".env"}', "--json")
      expect(JSON.parse(result.stdout)).toEqual({
        effect: "ask",
        requests: [
          {
            action: "read",
            resources: [".env"],
            save: [".env"],
            opaque: false,
            metadata: {},
            effect: "ask",
            rules: [{ resource: ".env", rule: { action: "read", resource: "*.env", effect: "ask", source: { kind: "builtin", agent: "build" } } }],
          },
        ],
      })
    }))

  it.live("exits 2 naming what is wrong: invalid JSON, an input the schema refuses, an unknown tool, a tool that does not declare its requests", () =>
    Effect.gen(function* () {
      const found = yield* project([])
      expect(yield* evalIn(found, "--tool", "read", "{path:")).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${PermissionCommand.Messages.invalidJson(jsonError("{path:"))}\n` })
      expect(yield* evalIn(found, "--tool", "read", "{}")).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Tool.Messages.invalidInput('Missing key at ["path"]')}\n` })
      expect(yield* evalIn(found, "--tool", "read", '{"path":3}')).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Tool.Messages.invalidInput('Expected string at ["path"]')}\n` })
      expect(yield* evalIn(found, "--tool", "nope", "{}")).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Lookup.Messages.unknown("tool", "nope", "build", [])}\n` })
      expect(yield* evalIn(found, "--tool", "raed", "{}")).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: 'Unknown tool "raed" for agent build. Did you mean read? Run toolgate tools --agent build to list them.\n',
      })
      const echo = yield* promise(() => runCli(["permission", "eval", "--tool", "echo", '{"text":"x"}', "--dir", found.dir], { root: found.root, tools: { echo: makeEcho() } }))
      expect(echo).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${ToolRegistry.Messages.undeclared("echo")}\n` })
      expect((yield* evalIn(found, "--tool", "read")).code).toBe(ExitCode.USAGE)
      expect(yield* evalIn(found, "--tool", "read", "{}", "extra")).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${PermissionCommand.Messages.usage}\n` })
    }))

  it.live("exits 1 with the tool's own failure when it would fail before asking", () =>
    Effect.gen(function* () {
      const found = yield* project([])
      expect(yield* evalIn(found, "--tool", "edit", '{"path":"a.txt","oldString":"a","newString":"a"}')).toEqual({
        code: ExitCode.TOOL_FAILED,
        stdout: "",
        stderr: `${EditTool.Messages.identical}\n`,
      })
    }))
})
