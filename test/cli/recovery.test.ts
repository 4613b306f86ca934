/**
 * A broken config file (issue 16, item 6): the recovery commands (untrust, approvals, session
 * diff/revert/unrevert/end, config) run with it left out, after exactly one warning line naming
 * it; every command that acts for an agent still refuses to start, with the file's error alone.
 * Real files, real SQLite, real git snapshots.
 */
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApprovalsCommand } from "../../src/cli/command/approvals.js"
import { SessionCommand } from "../../src/cli/command/session.js"
import { TrustCommand } from "../../src/cli/command/trust.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { CliLocation } from "../../src/cli/location.js"
import { ConfigError } from "../../src/config/errors.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

/** A home `<root>` and a repository `<root>/repo` with a session that wrote a.txt in message msg_1. */
const setup = Effect.gen(function* () {
  const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
  const dir = path.join(root, "repo")
  yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
  const cli = (argv: ReadonlyArray<string>, options: { readonly tty?: boolean; readonly answers?: string[] } = {}) =>
    promise(() => runCli([...argv, "--dir", dir], { root, ...options }))
  const wrote = yield* cli(["call", "write", JSON.stringify({ path: "a.txt", content: "new\n" }), "--session", "ses_r", "--message", "msg_1"])
  expect(wrote.code).toBe(ExitCode.SUCCESS)
  return { root, dir, cli }
})

const put = (file: string, text: string) =>
  promise(async () => {
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, text)
  })

/** The broken files tried, each with the error a command that acts for an agent stops on. */
const BROKEN = [
  { name: "a project file with an unknown key", file: (root: string) => path.join(root, "repo", "toolgate.json"), text: '{ "toolz": {} }' },
  { name: "a global file with a syntax error", file: (root: string) => path.join(root, ".config", "toolgate", "toolgate.json"), text: '{ "permission": [ ' },
] as const

describe("toolgate with a broken config file", () => {
  for (const broken of BROKEN)
    it.live(`${broken.name}: commands that act for an agent refuse with its error, recovery commands run after one warning`, () =>
      Effect.gen(function* () {
        const { root, dir, cli } = yield* setup
        yield* put(broken.file(root), broken.text)
        const refused = yield* cli(["tools"])
        expect([refused.code, refused.stdout]).toEqual([ExitCode.USAGE, ""])
        const error = refused.stderr.replace(/\n$/, "")
        expect(error.startsWith(broken.name.includes("unknown key") ? 'Unknown config key "toolz"' : `Invalid config file ${broken.file(root)}`)).toBe(true)
        for (const argv of [["call", "read", '{"path":"a.txt"}'], ["permission", "eval", "bash", "ls"], ["permission", "audit"], ["mcp"], ["trust"]])
          expect(yield* cli(argv)).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${error}\n` })

        const warning = `${CliLocation.Messages.ignoring(error)}\n`
        expect(yield* cli(["untrust"])).toEqual({ code: ExitCode.SUCCESS, stdout: `${TrustCommand.Messages.untrusted(dir)}\n`, stderr: warning })
        expect(yield* cli(["approvals", "list"])).toEqual({ code: ExitCode.SUCCESS, stdout: `${ApprovalsCommand.Messages.none(dir)}\n`, stderr: warning })
        expect(yield* cli(["approvals", "clear", "--yes"])).toEqual({ code: ExitCode.SUCCESS, stdout: `${ApprovalsCommand.Messages.none(dir)}\n`, stderr: warning })
        const diff = yield* cli(["session", "diff", "ses_r"])
        expect([diff.code, diff.stdout.split("\n")[0], diff.stderr]).toEqual([ExitCode.SUCCESS, "A a.txt (+1 -0)", warning])
        expect(yield* cli(["session", "revert", "ses_r", "msg_1"])).toEqual({
          code: ExitCode.SUCCESS,
          stdout: `${SessionCommand.Messages.reverted("ses_r", "msg_1")}\n${SessionCommand.Messages.step("delete", "a.txt", false)}\n`,
          stderr: warning,
        })
        expect(yield* cli(["session", "unrevert", "ses_r"])).toEqual({
          code: ExitCode.SUCCESS,
          stdout: `${SessionCommand.Messages.unreverted("ses_r")}\n${SessionCommand.Messages.step("recreate", "a.txt", false)}\n`,
          stderr: warning,
        })
        expect(yield* promise(() => readFile(path.join(dir, "a.txt"), "utf8"))).toBe("new\n")
        expect(yield* cli(["session", "end", "ses_r"])).toEqual({ code: ExitCode.SUCCESS, stdout: `${SessionCommand.Messages.ended("ses_r")}\n`, stderr: warning })
        const config = yield* cli(["config"])
        expect([config.code, config.stderr]).toEqual([ExitCode.SUCCESS, warning])
      }))

  it.live("names each broken file in its own warning, and the error names the file and what is wrong", () =>
    Effect.gen(function* () {
      const { root, dir, cli } = yield* setup
      const explicit = path.join(root, "missing.json")
      yield* put(path.join(dir, "toolgate.json"), '{ "toolz": {} }')
      const listed = yield* cli(["approvals", "list", "--config", explicit])
      expect(listed).toEqual({
        code: ExitCode.SUCCESS,
        stdout: `${ApprovalsCommand.Messages.none(dir)}\n`,
        stderr: [ConfigError.Messages.unknownKey("toolz", path.join(dir, "toolgate.json"), "tools"), ConfigError.Messages.unreadable(explicit, "ENOENT")]
          .map((error) => `${CliLocation.Messages.ignoring(error)}\n`)
          .join(""),
      })
      expect(CliLocation.Messages.ignoring(ConfigError.Messages.unreadable(explicit, "ENOENT"))).toBe(
        `Warning: Cannot read config file ${explicit}: ENOENT. Ignoring that file for this command; commands that act for an agent refuse to start until it is fixed.`,
      )
    }))
})
