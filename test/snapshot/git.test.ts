import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Git } from "../../src/snapshot/git.js"
import { tmpdir } from "../lib/tmp.js"

describe("Git.indexEntries", () => {
  it.live("reads mode, path and size of every entry from real git output, whatever bytes a path holds", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const names = ["plain.txt", "with\nnewline.txt", "tab\there.txt", "sub/ünïcode.md", "  spaced  "]
      yield* Effect.promise(async () => {
        await mkdir(path.join(dir, "sub"))
        for (const [index, name] of names.entries()) await writeFile(path.join(dir, name), "x".repeat(index * 1000))
      })
      execFileSync("git", ["init", "-q"], { cwd: dir })
      execFileSync("git", ["-c", "core.quotepath=false", "add", "--all"], { cwd: dir })
      const entries = Git.indexEntries(execFileSync("git", ["ls-files", "-s", "-z", "--debug"], { cwd: dir }))
      const expected = names.map((name, index) => ({ mode: "100644", path: name, size: index * 1000 }))
      expect([...entries].sort((a, b) => a.path.localeCompare(b.path))).toEqual([...expected].sort((a, b) => a.path.localeCompare(b.path)))
      expect(Git.indexEntries(Buffer.alloc(0))).toEqual([])
    }))

  it.live("runs no fsmonitor a repository's config names, whoever wrote that config", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const marker = path.join(root, "fsmonitor-ran")
      execFileSync("git", ["init", "-q", root])
      const hook = path.join(root, "hook.sh")
      yield* Effect.promise(() => writeFile(hook, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 }))
      execFileSync("git", ["-C", root, "config", "core.fsmonitor", hook])
      yield* Effect.promise(() => writeFile(path.join(root, "a.txt"), "a\n"))
      yield* Git.run(["add", "a.txt"], { git: "git", cwd: root })
      yield* Git.run(["status", "--porcelain"], { git: "git", cwd: root })
      expect(existsSync(marker)).toBe(false)
      // The same repository through git itself does run it: the test would see a missing guard.
      execFileSync("git", ["-C", root, "status", "--porcelain"])
      expect(existsSync(marker)).toBe(true)
    }))

  it.live("runs no hook of the repository's folder, as a revert's checkout would", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const marker = path.join(root, "hook-ran")
      execFileSync("git", ["init", "-q", root])
      yield* Effect.promise(() => writeFile(path.join(root, ".git", "hooks", "post-checkout"), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 }))
      yield* Effect.promise(() => writeFile(path.join(root, "a.txt"), "a\n"))
      yield* Git.run(["add", "a.txt"], { git: "git", cwd: root })
      const tree = (yield* Git.run(["write-tree"], { git: "git", cwd: root })).toString().trim()
      yield* Effect.promise(() => writeFile(path.join(root, "a.txt"), "changed\n"))
      yield* Git.run(["checkout", tree, "--", "a.txt"], { git: "git", cwd: root })
      expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n")
      expect(existsSync(marker)).toBe(false)
      // git itself runs it: the test would see a missing guard.
      execFileSync("git", ["-C", root, "checkout", tree, "--", "a.txt"])
      expect(existsSync(marker)).toBe(true)
    }))
})
