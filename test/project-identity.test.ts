/**
 * Project ids on a shared PostgreSQL, with real git repositories: clones of one repository are one
 * project; a repository that merged another's history is not that other; a replace ref cannot
 * borrow a root commit; a project file's `project.id` counts only once that file is trusted.
 */
import { execFileSync } from "node:child_process"
import { writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Project } from "../src/project.js"
import { ProjectIdentity } from "../src/project-identity.js"
import { gateLayer, makeRoot } from "./lib/permission.js"
import { clusterForFile, unavailable } from "./lib/postgres.js"

const server = clusterForFile()

const IDENTITY = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" }
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8", env: { ...process.env, ...IDENTITY } }).trim()

/** A new repository in `root`/work with one commit of `text`; its root commit. */
const repository = (root: string, text: string) =>
  Effect.promise(async () => {
    const work = path.join(root, "work")
    git(work, "init", "-q")
    // Named by its text: histories merged later never conflict.
    await writeFile(path.join(work, `${text.replaceAll(" ", "-")}.txt`), text)
    git(work, "add", ".")
    git(work, "commit", "-q", "-m", text)
    return git(work, "rev-parse", "HEAD")
  })

/** The project id a Location in `root`/work gets on `url`; `trust` trusts its project file first. */
const idOf = (root: string, url: string, options: { readonly trust?: boolean } = {}) =>
  Effect.gen(function* () {
    if (options.trust === true) yield* Effect.flatMap(Project.Service, (project) => project.trust).pipe(Effect.provide(gateLayer(root, { storage: url })))
    return yield* Effect.map(Project.Service, (project) => project.id).pipe(Effect.provide(gateLayer(root, { storage: url })))
  })

describe.skipIf(unavailable !== undefined)("ProjectIdentity on PostgreSQL", () => {
  it.live("gives every clone of a repository one id, and an unrelated repository another", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const original = yield* makeRoot
      const root = yield* repository(original, "the original")
      const clone = yield* makeRoot
      git(clone, "clone", "-q", path.join(original, "work"), path.join(clone, "work2"))
      execFileSync("rm", ["-rf", path.join(clone, "work")])
      execFileSync("mv", [path.join(clone, "work2"), path.join(clone, "work")])
      const other = yield* makeRoot
      yield* repository(other, "another project")
      expect(ProjectIdentity.rootCommit(path.join(clone, "work"))).toBe(root)
      const [a, b, c] = [yield* idOf(original, url), yield* idOf(clone, url), yield* idOf(other, url)]
      expect(a).toBe(b)
      expect(c).not.toBe(a)
    }))

  it.live("keeps a repository's own root when it merged another repository's history", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const upstream = yield* makeRoot
      const upstreamRoot = yield* repository(upstream, "the upstream library")
      const roots: string[] = []
      for (const name of ["a", "b"]) {
        const root = yield* makeRoot
        roots.push(root)
        const own = yield* repository(root, `project ${name}`)
        git(path.join(root, "work"), "pull", "-q", "--no-rebase", "--allow-unrelated-histories", "--no-edit", path.join(upstream, "work"), "HEAD")
        expect(ProjectIdentity.rootCommit(path.join(root, "work"))).toBe(own)
      }
      const [a, b] = roots as [string, string]
      expect(ProjectIdentity.rootCommit(path.join(a, "work"))).not.toBe(upstreamRoot)
      expect(yield* idOf(a, url)).not.toBe(yield* idOf(b, url))
    }))

  it.live("does not let a replace ref name another repository's root commit", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const victim = yield* makeRoot
      const target = yield* repository(victim, "the victim")
      const forger = yield* makeRoot
      const own = yield* repository(forger, "the forger")
      const work = path.join(forger, "work")
      // A commit whose parent is the victim's root (an object this repository does not have), shown through a replace ref.
      git(work, "update-ref", `refs/replace/${target}`, own)
      git(work, "update-ref", "HEAD", git(work, "commit-tree", "-p", target, "-m", "on top", git(work, "rev-parse", "HEAD^{tree}")))
      expect(git(work, "rev-list", "--max-parents=0", "HEAD")).toBe(target)
      expect(ProjectIdentity.rootCommit(work)).toBeUndefined()
      expect(yield* idOf(forger, url)).not.toBe(yield* idOf(victim, url))
    }))

  it.live("counts a project file's project.id only once the file is trusted as it is", () =>
    Effect.gen(function* () {
      const url = yield* Effect.promise(() => server().database())
      const team = yield* makeRoot
      const stranger = yield* makeRoot
      for (const root of [team, stranger]) yield* Effect.promise(() => writeFile(path.join(root, "work", "toolgate.json"), JSON.stringify({ project: { id: "team-docs" } })))
      const untrusted = [yield* idOf(team, url), yield* idOf(stranger, url)]
      expect(untrusted[0]).not.toBe(untrusted[1])
      const trusted = yield* idOf(team, url, { trust: true })
      expect(trusted).not.toBe(untrusted[0])
      // The stranger's folder names the same id, untrusted: it stays its own project.
      expect(yield* idOf(stranger, url)).toBe(untrusted[1])
      // Trusted by its own person, it is the same project.
      expect(yield* idOf(stranger, url, { trust: true })).toBe(trusted)
      // Changed after trust: it does not count until trusted again.
      yield* Effect.promise(() => writeFile(path.join(team, "work", "toolgate.json"), JSON.stringify({ project: { id: "team-docs" }, permission: [] })))
      expect(yield* idOf(team, url)).toBe(untrusted[0])
    }))
})
