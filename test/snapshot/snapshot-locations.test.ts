import { execFileSync } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { tmpdir } from "../lib/tmp.js"

/** One project (`worktree`) with a second Location in its subfolder `sub`, both snapshotting into the same shadow repository. */
const setup = Effect.gen(function* () {
  const root = yield* tmpdir
  const worktree = path.join(root, "repo")
  const sub = path.join(worktree, "sub")
  yield* Effect.promise(async () => {
    await mkdir(sub, { recursive: true })
    await writeFile(path.join(worktree, "top.txt"), "top\n")
    await writeFile(path.join(sub, "inner.txt"), "inner\n")
  })
  const options = { dataDir: path.join(root, "data"), projectID: "prj_test", worktree }
  const atRoot = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ ...options, location: worktree }))
  const inSub = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ ...options, location: sub }))
  const files = (tree: string | undefined) =>
    execFileSync("git", ["--git-dir", atRoot.directory, "ls-tree", "-r", "--name-only", tree as string], { encoding: "utf8" }).split("\n").filter(Boolean)
  return { atRoot, inSub, files }
})

describe("Snapshot: Locations of one project", () => {
  it.live("a subfolder Location's snapshots never hold the root's files, nor the root's the subfolder's as its own", () =>
    Effect.gen(function* () {
      const { atRoot, inSub, files } = yield* setup
      expect(atRoot.directory).toBe(inSub.directory)
      expect(files(yield* atRoot.track)).toEqual(["sub/inner.txt", "top.txt"])
      // Staging one path keeps the rest of the index as the Location's last track left it.
      expect(files(yield* inSub.stage(["inner.txt"]))).toEqual(["inner.txt"])
      expect(files(yield* atRoot.stage(["top.txt"]))).toEqual(["sub/inner.txt", "top.txt"])
      expect(files(yield* inSub.track)).toEqual(["inner.txt"])
    }),
  )

  it("the root keeps the index it always had; another Location has its own", () => {
    expect(Snapshot.indexFile("/d/snapshot/prj_1", "/repo", "/repo")).toBe("/d/snapshot/prj_1/index")
    expect(Snapshot.indexFile("/d/snapshot/prj_1", "/repo")).toBe("/d/snapshot/prj_1/index")
    expect(Snapshot.indexFile("/d/snapshot/prj_1", "/repo/sub", "/repo")).toMatch(/^\/d\/snapshot\/prj_1\/index-[0-9a-f]{24}$/)
    expect(Snapshot.indexFile("/d/snapshot/prj_1", "/repo/a", "/repo")).not.toBe(Snapshot.indexFile("/d/snapshot/prj_1", "/repo/b", "/repo"))
  })
})
