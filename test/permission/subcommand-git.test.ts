/**
 * The oracle of permission/subcommand.ts: real git, with the person's own config, runs a push for
 * sub-commands the gate cannot read as one (an alias, an autocorrected misspelling), and the gate
 * asks about each of them under rules that deny pushing, while it still allows them when no rule
 * restricts what they may be.
 */
import { execFileSync } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PermissionCommand } from "../../src/cli/command/permission.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const GITCONFIG = ["[alias]", "\tp = push", "\tsend = push --force", "[help]", "\tautocorrect = immediate", "[user]", "\tname = t", "\temail = t@example.com", ""].join("\n")

/** A clone of a bare repository with one commit, and the person's global git config. */
const repository = Effect.gen(function* () {
  const root = yield* tmpdir
  const remote = path.join(root, "remote.git")
  const work = path.join(root, "repo")
  const config = path.join(root, "gitconfig")
  yield* promise(() => writeFile(config, GITCONFIG))
  const env = { PATH: process.env.PATH ?? "", HOME: root, GIT_CONFIG_GLOBAL: config, GIT_CONFIG_NOSYSTEM: "1" }
  const git = (cwd: string, ...args: ReadonlyArray<string>) => execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  git(root, "init", "-q", "--bare", remote)
  git(root, "clone", "-q", remote, work)
  yield* promise(() => writeFile(path.join(work, "a.txt"), "a\n"))
  git(work, "add", "a.txt")
  git(work, "commit", "-q", "-m", "a")
  return { root, work, remote, git }
})

/** The rules of the person's global toolgate config. */
const withRules = (root: string, permission: ReadonlyArray<unknown>) =>
  promise(async () => {
    await mkdir(path.join(root, ".config", "toolgate"), { recursive: true })
    await writeFile(path.join(root, ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission }))
  })

const judge = (found: { readonly root: string; readonly work: string }, command: string) =>
  Effect.map(
    promise(() => runCli(["permission", "eval", "--tool", "bash", JSON.stringify({ command, description: "d" }), "--dir", found.work], { root: found.root })),
    (result) => result.stdout.trim().split("\n").at(-1),
  )

const NO_PUSH = [
  { action: "bash", resource: "*", effect: "allow" },
  { action: "bash", resource: "git push *", effect: "deny" },
]

describe("sub-commands the person's git config defines", () => {
  it.live("push for real, and ask under a rule that denies pushing", () =>
    Effect.gen(function* () {
      const found = yield* repository
      // The real thing: each spelling below pushed a branch to the remote.
      found.git(found.work, "p", "origin", "HEAD:refs/heads/by-alias")
      found.git(found.work, "send", "origin", "HEAD:refs/heads/by-forced-alias")
      found.git(found.work, "psuh", "origin", "HEAD:refs/heads/by-autocorrect")
      expect(found.git(found.remote, "branch", "--format=%(refname:short)").split("\n").filter((line) => line !== "").sort()).toEqual(["by-alias", "by-autocorrect", "by-forced-alias"])

      yield* withRules(found.root, NO_PUSH)
      expect(yield* judge(found, "git push origin HEAD:refs/heads/x")).toBe("deny")
      for (const command of ["git p origin HEAD:refs/heads/x", "git send origin HEAD:refs/heads/x", "git psuh origin HEAD:refs/heads/x", "git status && git p origin"]) expect(yield* judge(found, command)).toBe("ask")
      expect(yield* judge(found, "git status")).toBe("allow")
      const explained = yield* promise(() => runCli(["permission", "eval", "bash", "git p origin", "--explain", "--dir", found.work], { root: found.root }))
      expect(explained.stdout.split("\n")).toContain(PermissionCommand.Messages.subcommand("git p"))
    }),
  )

  it.live("stay allowed when no rule restricts what they may be", () =>
    Effect.gen(function* () {
      const found = yield* repository
      yield* withRules(found.root, [{ action: "bash", resource: "*", effect: "allow" }, { action: "bash", resource: "rm *", effect: "deny" }])
      expect(yield* judge(found, "git p origin HEAD:refs/heads/x")).toBe("allow")
      expect(yield* judge(found, "git lfs pull")).toBe("allow")
    }),
  )
})
