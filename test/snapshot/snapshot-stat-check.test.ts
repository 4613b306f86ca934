import { copyFile, mkdir, rename, utimes, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { TreeEntry } from "../../src/snapshot/tree-entry.js"
import { tmpdir } from "../lib/tmp.js"

/** The person's global git config (as `$XDG_CONFIG_HOME/git/config`) for the rest of the test. */
const globalConfig = (root: string, text: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      await mkdir(path.join(root, "xdg", "git"), { recursive: true })
      await writeFile(path.join(root, "xdg", "git", "config"), text)
      const was = process.env.XDG_CONFIG_HOME
      process.env.XDG_CONFIG_HOME = path.join(root, "xdg")
      return was
    }),
    (was) =>
      Effect.sync(() => {
        if (was === undefined) delete process.env.XDG_CONFIG_HOME
        else process.env.XDG_CONFIG_HOME = was
      }),
  )

describe("Snapshot: the person's git config", () => {
  it.live("does not hide a same-size write that kept the mtime (cp -p, tar x)", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* globalConfig(root, "[core]\n\ttrustctime = false\n\tcheckStat = minimal\n")
      const location = path.join(root, "project")
      const old = new Date("2020-01-01T00:00:00Z")
      yield* Effect.promise(async () => {
        await mkdir(location)
        await writeFile(path.join(location, "a.txt"), "aaaa\n")
        await writeFile(path.join(root, "new"), "bbbb\n")
        await utimes(path.join(location, "a.txt"), old, old)
        await utimes(path.join(root, "new"), old, old)
      })
      const snapshot = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ dataDir: path.join(root, "data"), projectID: "prj_test", location }))
      const before = (yield* snapshot.track) as string
      // As `cp -p new a.txt.tmp && mv a.txt.tmp a.txt`: same size, same mtime, another file.
      yield* Effect.promise(async () => {
        await copyFile(path.join(root, "new"), path.join(location, "a.txt.tmp"))
        await utimes(path.join(location, "a.txt.tmp"), old, old)
        await rename(path.join(location, "a.txt.tmp"), path.join(location, "a.txt"))
      })
      const after = (yield* snapshot.track) as string
      const changes = yield* snapshot.changes(before, after)
      expect(changes.map((change: TreeEntry.Change) => change.path)).toEqual(["a.txt"])
    }),
  )
})
