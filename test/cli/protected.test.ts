import { mkdir, readFile, realpath, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PermissionCommand } from "../../src/cli/command/permission.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Permission } from "../../src/permission/permission.js"
import { madeLine, promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const FSMONITOR = "[core]\n\tfsmonitor = ./.git/x\n"

/** A home `<root>` whose global config gives `body`, and a repository `<root>/repo` with a `.git` folder. */
const setup = (body: unknown = {}) =>
  Effect.gen(function* () {
    const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
    const repo = path.join(root, "repo")
    yield* promise(() => mkdir(path.join(repo, ".git"), { recursive: true }))
    yield* promise(() => mkdir(path.join(root, ".config", "toolgate"), { recursive: true }))
    yield* promise(() => writeFile(path.join(root, ".config", "toolgate", "toolgate.json"), JSON.stringify(body)))
    const cli = (...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", repo], { root }))
    return { repo, cli }
  })

const exists = (file: string) => promise(() => stat(file).then(() => true, () => false))

describe("toolgate call on protected paths (issue 12)", () => {
  it.live("write .git/config asks under the build defaults: declined without a terminal, nothing written", () =>
    Effect.gen(function* () {
      const { repo, cli } = yield* setup()
      const written = yield* cli("call", "write", JSON.stringify({ path: ".git/config", content: FSMONITOR }))
      expect(written).toEqual({ code: ExitCode.DECLINED, stdout: "", stderr: `${madeLine(written.stderr)}${Permission.Messages.declined("edit")}\n` })
      expect(yield* exists(path.join(repo, ".git", "config"))).toBe(false)
      const redirected = yield* cli("call", "bash", JSON.stringify({ command: `printf '${FSMONITOR}' > .git/config` }))
      expect(redirected).toEqual({ code: ExitCode.DECLINED, stdout: "", stderr: `${madeLine(redirected.stderr)}${Permission.Messages.declined("edit")}\n` })
      expect(yield* exists(path.join(repo, ".git", "config"))).toBe(false)
    }))

  it.live("a rule naming the protected path lets the write through; eval says why the defaults ask", () =>
    Effect.gen(function* () {
      const { repo, cli } = yield* setup({ permission: [{ action: "edit", resource: ".vscode/**", effect: "allow" }] })
      const written = yield* cli("call", "write", JSON.stringify({ path: ".vscode/settings.json", content: "{}\n" }))
      expect(written.code).toBe(ExitCode.SUCCESS)
      expect(yield* promise(() => readFile(path.join(repo, ".vscode", "settings.json"), "utf8"))).toBe("{}\n")
      expect((yield* cli("permission", "eval", "edit", ".vscode/settings.json")).stdout).toBe("allow\n")
      expect((yield* cli("permission", "eval", "edit", ".git/config", "--explain")).stdout).toBe(
        ["ask", ".git/config:", `  decided by "* * allow" (built-in agent build)`, PermissionCommand.Messages.protectedPath([".git"]), ""].join("\n"),
      )
    }))

  it.live("a Location opened inside .git is inside .git: a write of hooks/ or config there asks, from the CLI's --dir as from a server's directory", () =>
    Effect.gen(function* () {
      const { repo } = yield* setup()
      const root = path.dirname(repo)
      const inGit = (...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", path.join(repo, ".git")], { root }))
      const hook = yield* inGit("call", "write", JSON.stringify({ path: "hooks/pre-commit", content: "#!/bin/sh\ntouch pwned\n" }))
      expect(hook).toEqual({ code: ExitCode.DECLINED, stdout: "", stderr: `${madeLine(hook.stderr)}${Permission.Messages.declined("edit")}\n` })
      expect(yield* exists(path.join(repo, ".git", "hooks", "pre-commit"))).toBe(false)
      const config = yield* inGit("call", "bash", JSON.stringify({ command: `printf '${FSMONITOR}' > config` }))
      expect(config).toEqual({ code: ExitCode.DECLINED, stdout: "", stderr: `${madeLine(config.stderr)}${Permission.Messages.declined("edit")}\n` })
      expect(yield* exists(path.join(repo, ".git", "config"))).toBe(false)
      expect((yield* inGit("permission", "eval", "edit", "config", "--explain")).stdout).toContain(PermissionCommand.Messages.protectedPath([".git"]))
    }))
})
