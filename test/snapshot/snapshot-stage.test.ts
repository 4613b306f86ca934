import { execFileSync } from "node:child_process"
import { chmod, mkdir, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { TreeEntry } from "../../src/snapshot/tree-entry.js"
import { tmpdir } from "../lib/tmp.js"

const setup = Effect.gen(function* () {
  const root = yield* tmpdir
  const location = path.join(root, "project")
  yield* Effect.promise(() => mkdir(location))
  const snapshot = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ dataDir: path.join(root, "data"), projectID: "prj_stage", location }))
  const write = (file: string, content: string | Buffer) =>
    Effect.promise(async () => {
      await mkdir(path.dirname(path.join(location, file)), { recursive: true })
      await writeFile(path.join(location, file), content)
    })
  const files = (tree: string | undefined) =>
    execFileSync("git", ["--git-dir", snapshot.directory, "ls-tree", "-r", "--name-only", tree as string], { encoding: "utf8" }).split("\n").filter(Boolean)
  return { location, snapshot, write, files }
})

describe("Snapshot.stage", () => {
  it.live("records the named paths even when ignored or over the size limit, and track follows them from then on", () =>
    Effect.gen(function* () {
      const { location, snapshot, write, files } = yield* setup
      yield* write(".gitignore", ".env\n")
      yield* write(".env", "A=1\n")
      yield* write("big.bin", Buffer.alloc(Snapshot.MAX_UNTRACKED_BYTES + 1, 1))
      const tracked = (yield* snapshot.track) as string
      expect(files(tracked)).toEqual([".gitignore", "big.bin"])
      expect((yield* snapshot.entries(tracked, ["big.bin"])).get("big.bin")?.mode).toBe(TreeEntry.SIZE_ONLY)
      const staged = (yield* snapshot.stage([".env", path.join(location, "big.bin")])) as string
      expect(files(staged)).toEqual([".env", ".gitignore", "big.bin"])
      expect((yield* snapshot.entries(staged, ["big.bin"])).get("big.bin")?.object).toBe(execFileSync("git", ["hash-object", path.join(location, "big.bin")], { encoding: "utf8" }).trim())
      yield* write(".env", "A=2\n")
      const tree = (yield* snapshot.track) as string
      expect((yield* snapshot.entries(tree, [".env"])).get(".env")?.object).toBe(execFileSync("git", ["hash-object", path.join(location, ".env")], { encoding: "utf8" }).trim())
    }))

  it.live("removes a missing path or one that is now a folder, and skips paths outside the Location or in a .git", () =>
    Effect.gen(function* () {
      const { location, snapshot, write, files } = yield* setup
      yield* write("gone.txt", "g\n")
      yield* write("was-file", "f\n")
      yield* write(".git/config", "[core]\n")
      expect(files(yield* snapshot.track)).toEqual(["gone.txt", "was-file"])
      yield* Effect.promise(async () => {
        await rm(path.join(location, "gone.txt"))
        await rm(path.join(location, "was-file"))
        await mkdir(path.join(location, "was-file"))
      })
      const tree = yield* snapshot.stage(["gone.txt", "was-file", ".git/config", "../outside.txt", "sub/.GIT/x"])
      expect(files(tree)).toEqual([])
      expect(Snapshot.recordable(location, [path.join(location, "a.txt"), "a.txt", "../b", ".git/HEAD", "."])).toEqual(["a.txt"])
    }))
})

describe("Snapshot tree states", () => {
  it.live("lists the changes between two trees with modes, composes a tree from states, and reads states back", () =>
    Effect.gen(function* () {
      const { location, snapshot, write, files } = yield* setup
      yield* write("kept.txt", "k\n")
      yield* write("mod.txt", "one\n")
      yield* write("run.sh", "echo\n")
      yield* write("gone.txt", "g\n")
      const from = (yield* snapshot.track) as string
      yield* write("mod.txt", "two\n")
      yield* write("new.txt", "n\n")
      yield* Effect.promise(async () => {
        await chmod(path.join(location, "run.sh"), 0o755)
        await rm(path.join(location, "gone.txt"))
      })
      const to = (yield* snapshot.track) as string
      const before = yield* snapshot.entries(from, ["gone.txt", "mod.txt", "run.sh", "new.txt"])
      const after = yield* snapshot.entries(to, ["gone.txt", "mod.txt", "run.sh", "new.txt"])
      expect([...before.keys()].sort()).toEqual(["gone.txt", "mod.txt", "run.sh"])
      expect(after.get("run.sh")).toEqual({ mode: "100755", object: before.get("run.sh")?.object })
      const changes = yield* snapshot.changes(from, to)
      expect(changes).toEqual(
        ["gone.txt", "mod.txt", "new.txt", "run.sh"].map((file) => ({
          path: file,
          ...(before.has(file) ? { before: before.get(file) } : {}),
          ...(after.has(file) ? { after: after.get(file) } : {}),
        })),
      )
      expect((yield* snapshot.changes(from, to, ["mod.txt", "kept.txt"])).map((change) => change.path)).toEqual(["mod.txt"])
      expect(yield* snapshot.changes(from, to, [])).toEqual([])
      const composed = yield* snapshot.compose(to, [
        { path: "mod.txt", state: before.get("mod.txt") as TreeEntry.Entry },
        { path: "new.txt" },
        { path: "gone.txt", state: before.get("gone.txt") as TreeEntry.Entry },
      ])
      expect(files(composed)).toEqual(["gone.txt", "kept.txt", "mod.txt", "run.sh"])
      expect((yield* snapshot.changes(from, composed)).map((change) => change.path)).toEqual(["run.sh"])
      // The shadow index is untouched by compose: the next track is the work tree as it is.
      expect(yield* snapshot.track).toBe(to)
    }))
})

describe("TreeEntry", () => {
  it("parses ls-tree and raw diff-tree output, and writes index-info records", () => {
    const object = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    expect(TreeEntry.parseTree(Buffer.from(`100644 blob ${object}\ta b.txt\x00120000 blob ${object}\tlink\x00`))).toEqual(
      new Map([["a b.txt", { mode: "100644", object }], ["link", { mode: "120000", object }]]),
    )
    expect(TreeEntry.parseRaw(Buffer.from(`:000000 100644 ${TreeEntry.NONE} ${object} A\x00new\ttab\x00:100644 000000 ${object} ${TreeEntry.NONE} D\x00gone\x00`))).toEqual([
      { path: "new\ttab", after: { mode: "100644", object } },
      { path: "gone", before: { mode: "100644", object } },
    ])
    expect(TreeEntry.parseRaw(Buffer.alloc(0))).toEqual([])
    expect(TreeEntry.indexInfo("a", { mode: "100755", object })).toBe(`100755 ${object}\ta\x00`)
    expect(TreeEntry.indexInfo("a", undefined)).toBe(`0 ${TreeEntry.NONE}\ta\x00`)
    expect(TreeEntry.same(undefined, undefined)).toBe(true)
    expect(TreeEntry.same({ mode: "100644", object }, { mode: "100755", object })).toBe(false)
  })
})
