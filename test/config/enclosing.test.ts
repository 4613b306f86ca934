/**
 * A Location inside a repository is bound by what the project files of the folders around it
 * forbid or ask (config/enclosing.ts): the reproduction of the outside review (a session opened
 * at `proj/secrets` read and overwrote the secret `proj/toolgate.json` denies), through the real
 * CLI and real files, and the pure parts.
 */
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigEnclosing } from "../../src/config/enclosing.js"
import type { ConfigValidate } from "../../src/config/validate.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Project } from "../../src/project.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const source = { file: "/repo/proj/toolgate.json", scope: "project" as const, index: 0 }
const rule = (action: string, resource: string, effect: "allow" | "ask" | "deny"): ConfigValidate.SourcedRule => ({ action, resource, effect, source })

describe("ConfigEnclosing", () => {
  it("lists the folders between the repository root and the Location, outermost first", () => {
    expect(ConfigEnclosing.folders("/repo/a/b", "/repo")).toEqual(["/repo", "/repo/a"])
    expect(ConfigEnclosing.folders("/repo/a", "/repo")).toEqual(["/repo"])
    expect(ConfigEnclosing.folders("/repo", "/repo")).toEqual([])
    expect(ConfigEnclosing.folders("/elsewhere", "/repo")).toEqual([])
    expect(ConfigEnclosing.folders("/repo/a", undefined)).toEqual([])
  })

  it.live("takes the outermost repository root above a Location, not the nearest", () =>
    Effect.gen(function* () {
      const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
      const inner = path.join(root, "repo", "a", "b")
      yield* promise(() => mkdir(path.join(root, "repo", ".git"), { recursive: true }))
      yield* promise(() => mkdir(path.join(inner, ".hg"), { recursive: true }))
      expect(Project.outermostRoot(inner)).toBe(path.join(root, "repo"))
      expect(Project.repositoryRoot(inner)).toBe(inner)
      expect(Project.outermostRoot(root)).toBeUndefined()
    }))

  it("imposes a file's denies and asks, with path patterns made absolute from its folder, and nothing else", () => {
    const file: ConfigValidate.File = {
      path: "/repo/proj/toolgate.json",
      scope: "project",
      permission: [rule("edit", "secrets/**", "deny"), rule("read", "*", "allow"), rule("bash", "git push *", "ask"), rule("*", "keys/*", "deny"), rule("read", "~/.ssh/*", "deny")],
      agent: { build: { permission: [rule("edit", "docs/*", "ask"), rule("edit", "*", "allow")] } },
      default_agent: "plan",
    }
    expect(ConfigEnclosing.imposed(file, "/repo/proj")).toEqual({
      path: "/repo/proj/toolgate.json",
      scope: "project",
      permission: [rule("edit", "/repo/proj/secrets/**", "deny"), rule("bash", "git push *", "ask"), rule("*", "keys/*", "deny"), rule("*", "/repo/proj/keys/*", "deny"), rule("read", "~/.ssh/*", "deny")],
      agent: { build: { permission: [rule("edit", "/repo/proj/docs/*", "ask")] } },
    })
  })
})

describe("a Location below a project file's folder", () => {
  it.live("keeps that file's denies: read and write of the secret are refused from proj/secrets as from proj", () =>
    Effect.gen(function* () {
      const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
      const repo = path.join(root, "repo")
      const secrets = path.join(repo, "proj", "secrets")
      yield* promise(() => mkdir(path.join(repo, ".git"), { recursive: true }))
      yield* promise(() => mkdir(secrets, { recursive: true }))
      yield* promise(() => writeFile(path.join(secrets, "key.txt"), "TOKEN=abc\n"))
      const deny = [{ action: "read", resource: "secrets/**", effect: "deny" }, { action: "edit", resource: "secrets/**", effect: "deny" }]
      yield* promise(() => writeFile(path.join(repo, "proj", "toolgate.json"), JSON.stringify({ permission: deny })))
      const cli = (directory: string, ...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", directory], { root }))
      for (const [directory, file] of [[path.join(repo, "proj"), "secrets/key.txt"], [secrets, "key.txt"]] as const) {
        const read = yield* cli(directory, "call", "read", JSON.stringify({ path: file }))
        expect([directory, read.code, read.stdout]).toEqual([directory, ExitCode.BLOCKED, ""])
        const written = yield* cli(directory, "call", "write", JSON.stringify({ path: file, content: "overwritten\n" }))
        expect([directory, written.code]).toEqual([directory, ExitCode.BLOCKED])
      }
      expect(yield* promise(() => readFile(path.join(secrets, "key.txt"), "utf8"))).toBe("TOKEN=abc\n")
      // A repository marker made below (the agent may make one) does not cut the Location off from the project.
      yield* promise(() => mkdir(path.join(secrets, ".hg")))
      expect((yield* cli(secrets, "call", "read", JSON.stringify({ path: "key.txt" }))).code).toBe(ExitCode.BLOCKED)
      // `toolgate config` names the file it read for the Location below it.
      expect((yield* cli(secrets, "config")).stdout).toContain(path.join(repo, "proj", "toolgate.json"))
    }))
})
