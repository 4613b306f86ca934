/**
 * What a revert does around the paths it names: a checkout replaces a folder with everything in
 * it and a file where a folder should be, and a delete under a folder that the same revert turns
 * back into a link would go through that link. Real files, real links, real git.
 */
import { lstat, mkdir, readFile, readlink, rename, rm, symlink, unlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { put, scene } from "./history-harness.js"

const text = (file: string) => Effect.promise(() => readFile(file, "utf8"))
const exists = (file: string) => Effect.promise(() => lstat(file).then(() => true, () => false))

describe("History.revert and the tree around its paths", () => {
  it.live("deletes a file before the folder it sits in becomes a link again: nothing outside is touched", () =>
    scene({ "a.txt": "a\n" }, (s) =>
      Effect.gen(function* () {
        const outside = path.join(path.dirname(s.work), "outside-home")
        yield* Effect.promise(() => mkdir(outside, { recursive: true }).then(() => writeFile(path.join(outside, "notes"), "precious\n")))
        const home = path.join(s.work, "home")
        yield* s.shell("msg_0", Effect.promise(() => symlink(outside, home)))
        // The link is taken away and a folder of the same name made, holding a file named like one outside.
        yield* s.shell("msg_1", Effect.promise(() => unlink(home).then(() => mkdir(home)).then(() => writeFile(path.join(home, "notes"), "agent\n"))))
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "home", action: "recreate" },
          { path: "home/notes", action: "delete" },
        ])
        expect(yield* text(path.join(outside, "notes"))).toBe("precious\n")
        expect(yield* Effect.promise(() => readlink(home))).toBe(outside)
      }),
    ))

  it.live("refuses, changing nothing, to put a file back where a folder now holds the person's files", () =>
    scene({ f: "hi\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.promise(() => rm(path.join(s.work, "f")).then(() => mkdir(path.join(s.work, "f"))).then(() => writeFile(path.join(s.work, "f/a"), "agent\n"))))
        // The person's work in that folder: one small file, one over the snapshot size limit.
        yield* put(s.work, "f/mine.txt", "person\n")
        yield* put(s.work, "f/big.bin", Buffer.alloc(Snapshot.MAX_UNTRACKED_BYTES + 1, 7))
        const refused = yield* Effect.flip(s.history.revert(s.id, "msg_1"))
        expect(refused).toBeInstanceOf(Snapshot.InTheWayError)
        expect(refused.message).toBe(Snapshot.Messages.inTheWay("f/big.bin"))
        expect(yield* text(path.join(s.work, "f/mine.txt"))).toBe("person\n")
        expect(yield* exists(path.join(s.work, "f/big.bin"))).toBe(true)
        expect(yield* text(path.join(s.work, "f/a"))).toBe("agent\n")
        // Once the person's files are moved away, the same revert runs.
        yield* Effect.promise(() => rename(path.join(s.work, "f/mine.txt"), path.join(s.work, "mine.txt")).then(() => rm(path.join(s.work, "f/big.bin"))))
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "f", action: "recreate" },
          { path: "f/a", action: "delete" },
        ])
        expect(yield* text(path.join(s.work, "f"))).toBe("hi\n")
        expect(yield* text(path.join(s.work, "mine.txt"))).toBe("person\n")
      }),
    ))

  it.live("refuses to put a file back below a file or link the person made where its folder was", () =>
    scene({ "d/x": "x\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.promise(() => rm(path.join(s.work, "d"), { recursive: true })))
        yield* put(s.work, "d", "the person's notes\n")
        const refused = yield* Effect.flip(s.history.revert(s.id, "msg_1"))
        expect(refused.message).toBe(Snapshot.Messages.inTheWay("d"))
        expect(yield* text(path.join(s.work, "d"))).toBe("the person's notes\n")
        // A link of the person's to a folder inside stays too (git already refuses a path beyond it).
        yield* put(s.work, "elsewhere/kept.txt", "kept\n")
        yield* Effect.promise(() => rm(path.join(s.work, "d")).then(() => symlink("elsewhere", path.join(s.work, "d"))))
        yield* Effect.flip(s.history.revert(s.id, "msg_1"))
        expect(yield* Effect.promise(() => readlink(path.join(s.work, "d")))).toBe("elsewhere")
      }),
    ))
})
