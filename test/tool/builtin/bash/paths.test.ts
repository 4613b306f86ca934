import { mkdir, symlink } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BashPaths } from "../../../../src/tool/builtin/bash/paths.js"
import { tmpdir } from "../../../lib/tmp.js"

describe("BashPaths", () => {
  it.live("resolves `..` after a link from the link's target, and reports both readings", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const work = path.join(root, "work")
      yield* Effect.promise(async () => {
        await mkdir(path.join(root, "outside", "sub"), { recursive: true })
        await mkdir(work)
        await symlink(path.join(root, "outside", "sub"), path.join(work, "link"))
      })
      expect(BashPaths.physical(work, "link/../target.txt")).toBe(path.join(root, "outside", "target.txt"))
      expect(BashPaths.both(work, "link/../target.txt")).toEqual([path.join(work, "target.txt"), path.join(root, "outside", "target.txt")])
      expect(BashPaths.both(work, "a/./b/../c")).toEqual([path.join(work, "a", "c")])
      expect(BashPaths.both(work, "/etc/../tmp")).toEqual(["/tmp"])
      expect(BashPaths.physical(work, "missing/../x")).toBe(path.join(work, "x"))
    }))
})
