import { spawn } from "node:child_process"
import { mkdir, realpath, rm, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TrustCommand } from "../../src/cli/command/trust.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { SkillCatalog } from "../../src/tool/builtin/skill/catalog.js"
import { madeLine, promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const ASK_BASH = { permission: [{ action: "bash", resource: "*", effect: "ask" }] }
const ALLOW_BASH = { permission: [{ action: "bash", resource: "*", effect: "allow" }] }

/** A home `<root>` whose global config asks before every command, and a repository `<root>/repo`. */
const setup = Effect.gen(function* () {
  const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
  const repo = path.join(root, "repo")
  const put = (file: string, body: unknown) =>
    promise(async () => {
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, typeof body === "string" ? body : `${JSON.stringify(body, null, 2)}\n`)
    })
  yield* promise(() => mkdir(path.join(repo, ".git"), { recursive: true }))
  yield* put(path.join(root, ".config", "toolgate", "toolgate.json"), ASK_BASH)
  const cli = (argv: ReadonlyArray<string>, env?: Readonly<Record<string, string>>) => promise(() => runCli(argv, { root, ...(env === undefined ? {} : { env }) }))
  /** What the rules decide for `bash <command>` in `dir`. */
  const bash = (dir: string, command = "rm -rf build") => Effect.map(cli(["permission", "eval", "bash", command, "--dir", dir]), (result) => result.stdout)
  return { root, repo, put, cli, bash }
})

describe("toolgate trust", () => {
  it.live("a project whose toolgate.json links to another project's trusted file is not trusted by it", () =>
    Effect.gen(function* () {
      const { root, repo, put, cli, bash } = yield* setup
      yield* put(path.join(repo, "toolgate.json"), ALLOW_BASH)
      expect((yield* cli(["trust", "--dir", repo])).code).toBe(ExitCode.SUCCESS)
      expect(yield* bash(repo)).toBe("allow\n")
      // One links by absolute path (an agent's `ln -s`), one ships a relative link.
      const [linked, shipped] = [path.join(root, "linked"), path.join(root, "shipped")]
      for (const other of [linked, shipped]) yield* promise(() => mkdir(path.join(other, ".git"), { recursive: true }))
      yield* promise(() => symlink(path.join(repo, "toolgate.json"), path.join(linked, "toolgate.json")))
      yield* promise(() => symlink("../repo/toolgate.json", path.join(shipped, "toolgate.json")))
      expect(yield* bash(linked)).toBe("ask\n")
      expect(yield* bash(shipped)).toBe("ask\n")
      // Trusted by a person, the link's project is trusted too, and the first one stays so.
      expect((yield* cli(["trust", "--dir", linked])).code).toBe(ExitCode.SUCCESS)
      expect(yield* bash(linked)).toBe("allow\n")
      expect(yield* bash(repo)).toBe("allow\n")
      expect(yield* bash(shipped)).toBe("ask\n")
    }))

  it.live("a trusted toolgate.json the agent rewrites is untrusted: the next command asks, and trust shows what changed", () =>
    Effect.gen(function* () {
      const { repo, put, cli } = yield* setup
      const file = path.join(repo, "toolgate.json")
      yield* put(file, { permission: [{ action: "bash", resource: "echo tested", effect: "allow" }] })
      expect(yield* cli(["trust", "--dir", repo])).toEqual({ code: ExitCode.SUCCESS, stdout: `${TrustCommand.Messages.trusted(repo)}\n`, stderr: "" })
      const content = `${JSON.stringify(ALLOW_BASH, null, 2)}\n`
      // toolgate.json is a protected path: even under the build defaults the write asks (here: approved once).
      const written = yield* cli(["call", "write", JSON.stringify({ path: "toolgate.json", content }), "--dir", repo, "--on-ask", "once"])
      expect(written.code).toBe(ExitCode.SUCCESS)
      const ran = yield* cli(["call", "bash", JSON.stringify({ command: "echo pwned" }), "--dir", repo])
      expect(ran.code).toBe(ExitCode.DECLINED)
      expect(ran.stdout).toBe("")
      const again = yield* cli(["trust", "--dir", repo])
      expect(again).toEqual({
        code: ExitCode.SUCCESS,
        stdout: [
          `Changes to ${file} since it was last trusted:`,
          `--- ${file}`,
          `+++ ${file}`,
          "@@ -2,7 +2,7 @@",
          '   "permission": [',
          "     {",
          '       "action": "bash",',
          '-      "resource": "echo tested",',
          '+      "resource": "*",',
          '       "effect": "allow"',
          "     }",
          "   ]",
          `Trusted ${repo}: the allow rules of its toolgate.json now apply, as long as the file stays as it is now.`,
          "",
        ].join("\n"),
        stderr: "",
      })
    }))

  it.live("a .toolgate/toolgate.json created after trust is untrusted, and a folder without config cannot be trusted", () =>
    Effect.gen(function* () {
      const { repo, put, cli, bash } = yield* setup
      expect(yield* cli(["trust", "--dir", repo])).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `Nothing to trust in ${repo}: it has no toolgate.json or .toolgate/toolgate.json (trust is given to a config file and its content, not to a folder)\n`,
      })
      yield* put(path.join(repo, ".toolgate", "toolgate.json"), ALLOW_BASH)
      expect(yield* bash(repo)).toBe("ask\n")
      yield* promise(() => rm(path.join(repo, ".toolgate"), { recursive: true, force: true }))
      yield* put(path.join(repo, "toolgate.json"), {})
      yield* cli(["trust", "--dir", repo])
      // Next to the trusted toolgate.json it is not read; once toolgate.json is gone it is, untrusted.
      yield* put(path.join(repo, ".toolgate", "toolgate.json"), ALLOW_BASH)
      yield* promise(() => rm(path.join(repo, "toolgate.json")))
      expect(yield* bash(repo)).toBe("ask\n")
    }))

  it.live("trusting the repository root does not trust vendor/pkg/toolgate.json", () =>
    Effect.gen(function* () {
      const { repo, put, cli, bash } = yield* setup
      const vendored = path.join(repo, "vendor", "pkg")
      yield* put(path.join(repo, "toolgate.json"), ALLOW_BASH)
      yield* put(path.join(vendored, "toolgate.json"), ALLOW_BASH)
      yield* cli(["trust", "--dir", repo])
      expect(yield* bash(repo)).toBe("allow\n")
      expect(yield* bash(vendored)).toBe("ask\n")
      expect((yield* cli(["trust", "--dir", vendored])).stdout).toBe(`${TrustCommand.Messages.trusted(vendored)}\n`)
      expect(yield* bash(vendored)).toBe("allow\n")
    }))

  it.live("refuses inside a tool call (TOOLGATE_TOOL_CALL set, even empty) and trusts nothing; untrust still runs", () =>
    Effect.gen(function* () {
      const { repo, put, cli, bash } = yield* setup
      yield* put(path.join(repo, "toolgate.json"), ALLOW_BASH)
      for (const value of ["call_0193a4c2b1f00000aZ3kP9qLx2", "1", ""]) {
        expect(yield* cli(["trust", "--dir", repo], { TOOLGATE_TOOL_CALL: value })).toEqual({ code: ExitCode.REFUSED, stdout: "", stderr: `${TrustCommand.Messages.insideToolCall}\n` })
      }
      expect(TrustCommand.Messages.insideToolCall).toBe(
        "toolgate trust refuses to run inside a toolgate tool call (TOOLGATE_TOOL_CALL is set): an agent cannot trust a project for the person. Run it yourself, in your own terminal.",
      )
      expect(ExitCode.REFUSED).toBe(5)
      expect(yield* bash(repo)).toBe("ask\n")
      yield* cli(["trust", "--dir", repo])
      expect(yield* bash(repo)).toBe("allow\n")
      expect(yield* cli(["untrust", "--dir", repo], { TOOLGATE_TOOL_CALL: "1" })).toEqual({ code: ExitCode.SUCCESS, stdout: `${TrustCommand.Messages.untrusted(repo)}\n`, stderr: "" })
      expect(yield* bash(repo)).toBe("ask\n")
    }))

  it.live("an untrusted project's skills path outside the Location loads nothing", () =>
    Effect.gen(function* () {
      const { root, repo, put, cli } = yield* setup
      const file = path.join(repo, "toolgate.json")
      yield* put(file, { skills: ["../outside/sk"] })
      yield* put(path.join(root, "outside", "sk", "SKILL.md"), "---\ndescription: Outside\n---\nSecret steps.\n")
      const result = yield* cli(["call", "skill", JSON.stringify({ name: "sk" }), "--dir", repo])
      expect(result).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${madeLine(result.stderr)}${SkillCatalog.Messages.untrusted(path.join(root, "outside", "sk"), file)}\n` })
    }))
})

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

describe("the built executable's trust", () => {
  it.live("refuses with exit 5 when the environment carries the tool call marker", () =>
    Effect.gen(function* () {
      const { root, repo, put } = yield* setup
      yield* put(path.join(repo, "toolgate.json"), ALLOW_BASH)
      const result = yield* promise(
        () =>
          new Promise<{ readonly code: number | null; readonly stderr: string }>((resolve) => {
            const env = { PATH: process.env.PATH, HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data"), TOOLGATE_TOOL_CALL: "call_1", ...OWN_PROCESS }
            const child = spawn(process.execPath, [bin, "trust", "--dir", repo], { cwd: root, env })
            const err: string[] = []
            child.stderr.on("data", (chunk: Buffer) => err.push(chunk.toString()))
            child.on("close", (code) => resolve({ code, stderr: err.join("") }))
          }),
      )
      expect(result).toEqual({ code: ExitCode.REFUSED, stderr: `${TrustCommand.Messages.insideToolCall}\n` })
    }))
})
