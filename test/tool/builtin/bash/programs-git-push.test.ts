/**
 * git's other spellings of a push, against real git: each line below pushed a branch to a bare
 * remote without the word `push` where a `git push *` rule looks for it (the dashed program in
 * `git --exec-path`, the plumbing `send-pack`, `subtree push`, `for-each-repo` over the repositories
 * `git maintenance register` lists). The oracle runs the line with bash and checks the remote got
 * the branch; the gate must not allow it under `* allow` with `git push *` denied. Skipped, with
 * the reason printed, when git is missing.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { decide, parse, rule } from "../../../lib/bash-gate.js"

const unavailable = spawnSync("git", ["--version"]).error === undefined ? undefined : "git is not installed"
if (unavailable !== undefined) console.warn(`real-git push oracle skipped: ${unavailable}`)

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-git-push-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const GLOBAL = path.join(root, "gitconfig")
writeFileSync(GLOBAL, "[user]\n\tname = a\n\temail = a@b\n")
const ENV = { PATH: process.env.PATH ?? "", HOME: root, GIT_CONFIG_GLOBAL: GLOBAL, GIT_CONFIG_NOSYSTEM: "1" }
const git = (cwd: string, ...args: ReadonlyArray<string>) => spawnSync("git", args, { cwd, env: ENV, encoding: "utf8" })
const EXEC_PATH = unavailable === undefined ? git(root, "--exec-path").stdout.trim() : ""

/** A clone of a fresh bare remote, with one commit (and `sub/s` for `subtree`). */
const repository = (name: string) => {
  const dir = path.join(root, name)
  const remote = path.join(dir, "remote.git")
  const work = path.join(dir, "work")
  mkdirSync(dir)
  git(dir, "init", "-q", "--bare", remote)
  git(dir, "clone", "-q", remote, work)
  mkdirSync(path.join(work, "sub"))
  writeFileSync(path.join(work, "sub", "s"), "s\n")
  git(work, "add", "sub")
  git(work, "commit", "-q", "-m", "one")
  return { remote, work }
}

const NO_PUSH = [rule("*", "allow"), rule("git push *", "deny")]

const cases: ReadonlyArray<{ readonly line: string; readonly effect: "deny" | "ask" }> = [
  { line: `${EXEC_PATH}/git-push origin HEAD:refs/heads/pushed`, effect: "deny" },
  { line: "git send-pack ../remote.git HEAD:refs/heads/pushed", effect: "deny" },
  { line: "git -C . send-pack ../remote.git HEAD:refs/heads/pushed", effect: "deny" },
  { line: "git subtree push --prefix=sub origin pushed", effect: "deny" },
  { line: "git maintenance register && git for-each-repo --config=maintenance.repo push origin HEAD:refs/heads/pushed", effect: "ask" },
]

describe.skipIf(unavailable !== undefined)("git's other spellings of a push, against real git", () => {
  cases.forEach(({ line, effect }, index) => {
    it(`${line} pushes, and a git push * deny does not let it through`, () => {
      const { remote, work } = repository(`r${index}`)
      spawnSync("bash", ["-c", line], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
      expect([line, git(remote, "branch", "--list", "pushed").stdout.trim()]).toEqual([line, "pushed"])
      expect([line, decide(line, NO_PUSH).effect]).toEqual([line, effect])
    })
  })

  it("reads a dashed sub-command as the sub-command: what it runs and writes through its options", () => {
    const { work } = repository("dashed")
    const line = `${EXEC_PATH}/git-ls-remote --u='touch ran #' .`
    spawnSync("bash", ["-c", line], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
    expect(spawnSync("test", ["-e", path.join(work, "ran")]).status).toBe(0)
    expect(parse(line).opaque).toBe(true)
    expect(parse(`${EXEC_PATH}/git-diff --output=/home/me/.bashrc HEAD`).targets.map((target) => target.path)).toEqual(["/home/me/.bashrc"])
  })
})

describe("git's other spellings of a push, as the gate reads them", () => {
  it("reads git-<sub-command>, send-pack, http-push and subtree push as a push too, and leaves the rest alone", () => {
    for (const line of ["git-push origin", "git http-push https://h/r main", "git-subtree push --prefix=a origin main", "sudo git send-pack r main"]) {
      expect([line, decide(line, NO_PUSH).effect]).toEqual([line, "deny"])
    }
    expect(decide("git-p origin", NO_PUSH).effect).toBe("ask")
    for (const line of ["git status", "git-status", "git subtree split --prefix=a", "git send-pack r main"]) {
      expect([line, decide(line, [rule("*", "allow"), rule("rm *", "deny")]).effect]).toEqual([line, "allow"])
    }
  })
})

const NO_FETCH = [rule("*", "allow"), rule("git fetch *", "deny")]

describe.skipIf(unavailable !== undefined)("git's other spellings of a fetch, and maintenance that writes the global config, against real git", () => {
  it("git pull fetches, and a git fetch * deny denies it", () => {
    const { remote, work } = repository("pull")
    const other = path.join(root, "pull", "other")
    git(path.join(root, "pull"), "clone", "-q", remote, other)
    writeFileSync(path.join(other, "b"), "b\n")
    git(other, "add", "b")
    git(other, "commit", "-q", "-m", "two")
    git(other, "push", "-q", "origin", "HEAD")
    const tracking = `refs/remotes/origin/${git(other, "rev-parse", "--abbrev-ref", "HEAD").stdout.trim()}`
    expect(git(work, "rev-parse", "--verify", "-q", tracking).status).not.toBe(0)
    // The merge may fail (unrelated histories); the fetch before it has happened.
    spawnSync("bash", ["-c", "git pull -q --no-rebase origin"], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
    expect(git(work, "rev-parse", "--verify", "-q", tracking).stdout.trim()).toBe(git(other, "rev-parse", "HEAD").stdout.trim())
    for (const line of ["git pull", "git pull origin main", "git -C . pull --rebase", "git fetch-pack ../remote.git", "git subtree pull --prefix=sub origin main"]) {
      expect([line, decide(line, NO_FETCH).effect]).toEqual([line, "deny"])
    }
  })

  it("git maintenance register writes the person's global config, so it asks under * allow", () => {
    const { work } = repository("maintenance")
    spawnSync("bash", ["-c", "git maintenance register"], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
    expect(git(work, "config", "--global", "--get-all", "maintenance.repo").stdout).toContain(work)
    git(work, "maintenance", "unregister")
    for (const line of ["git maintenance register", "git maintenance start", "git maintenance unregister", "git maintenance stop", "git maintenance $X"]) {
      expect([line, decide(line, [rule("*", "allow")]).effect]).toEqual([line, "ask"])
    }
    expect(decide("git maintenance run --task=gc", [rule("*", "allow")]).effect).toBe("allow")
  })
})
