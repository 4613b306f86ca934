import { lstat, mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { History } from "../../src/snapshot/history.js"
import { mode, put, remove, scene } from "./history-harness.js"

describe("History.revert", () => {
  it.live("restores only what the session changed: a person's edit to another file and a file they created stay", () =>
    scene({ "a.txt": "one\n", "notes.txt": "mine\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.edit("msg_1", "a.txt", "one", "two")
        yield* put(s.work, "notes.txt", "mine, edited\n")
        yield* put(s.work, "person.txt", "the person's own file\n")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: "a.txt", action: "restore" }])
        expect(yield* s.files).toEqual({ "a.txt": "one\n", "notes.txt": "mine, edited\n", "person.txt": "the person's own file\n" })
      }),
    ))

  it.live("keeps and reports a file the person changed after the session did, and unrevert returns exactly to before the revert", () =>
    scene({ "a.txt": "one\n", "b.txt": "bee\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.edit("msg_1", "a.txt", "one", "two")
        yield* s.edit("msg_2", "b.txt", "bee", "BEE")
        yield* put(s.work, "b.txt", "BEE, and the person's line\n")
        const before = yield* s.files
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "a.txt", action: "restore" },
          { path: "b.txt", action: "keep", reason: "session" },
        ])
        expect(yield* s.files).toEqual({ "a.txt": "one\n", "b.txt": "BEE, and the person's line\n" })
        expect(yield* s.history.unrevert(s.id)).toEqual([{ path: "a.txt", action: "restore" }])
        expect(yield* s.files).toEqual(before)
      }),
    ))

  it.live("shows the same plan as a dry run first, changing nothing", () =>
    scene({ "a.txt": "one\n", "gone.txt": "bye\n", "b.txt": "bee\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.edit("msg_1", "a.txt", "one", "two")
        yield* s.write("msg_1", "new.txt", "new\n")
        yield* s.patch("msg_2", ["*** Delete File: gone.txt", "*** Update File: b.txt", "@@", "-bee", "+BEE"])
        yield* put(s.work, "b.txt", "person\n")
        const before = yield* s.files
        const plan = yield* s.history.plan(s.id, "msg_1")
        expect(plan).toEqual([
          { path: "a.txt", action: "restore" },
          { path: "b.txt", action: "keep", reason: "session" },
          { path: "gone.txt", action: "recreate" },
          { path: "new.txt", action: "delete" },
        ])
        expect(yield* s.files).toEqual(before)
        expect(yield* s.history.plan(s.id, "msg_1")).toEqual(plan)
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual(plan)
        expect(yield* s.files).toEqual({ "a.txt": "one\n", "b.txt": "person\n", "gone.txt": "bye\n" })
      }),
    ))

  it.live("keeps a file the session created and the person then edited", () =>
    scene({}, (s) =>
      Effect.gen(function* () {
        yield* s.write("msg_1", "draft.md", "session draft\n")
        yield* put(s.work, "draft.md", "session draft, finished by the person\n")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: "draft.md", action: "keep", reason: "session" }])
        expect(yield* s.files).toEqual({ "draft.md": "session draft, finished by the person\n" })
      }),
    ))

  it.live("keeps a file the session deleted and the person re-created, and recreates one nobody re-created", () =>
    scene({ "old.txt": "old\n", "other.txt": "other\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.patch("msg_1", ["*** Delete File: old.txt", "*** Delete File: other.txt"])
        yield* put(s.work, "old.txt", "written again by the person\n")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "old.txt", action: "keep", reason: "session" },
          { path: "other.txt", action: "recreate" },
        ])
        expect(yield* s.files).toEqual({ "old.txt": "written again by the person\n", "other.txt": "other\n" })
      }),
    ))

  it.live("reverts to the session's first message: every file as before the session", () =>
    scene({ "a.txt": "one\n", "b.txt": "bee\n" }, (s) =>
      Effect.gen(function* () {
        const initial = yield* s.files
        yield* s.edit("msg_1", "a.txt", "one", "two")
        yield* s.write("msg_2", "dir/c.txt", "sea\n")
        yield* s.shell("msg_3", remove(s.work, "b.txt"))
        yield* s.edit("msg_4", "a.txt", "two", "three")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "a.txt", action: "restore" },
          { path: "b.txt", action: "recreate" },
          { path: "dir/c.txt", action: "delete" },
        ])
        expect(yield* s.files).toEqual(initial)
      }),
    ))

  it.live("restores a binary file and a mode change a shell command made", () =>
    scene({ "image.bin": Buffer.from([0, 1, 2, 255, 0]), "run.sh": "echo hi\n" }, (s) =>
      Effect.gen(function* () {
        const initial = yield* s.files
        yield* s.shell(
          "msg_1",
          Effect.andThen(put(s.work, "image.bin", Buffer.from([0, 9, 9, 9, 254, 0])), mode(s.work, "run.sh", 0o755)),
        )
        expect(Object.keys(yield* s.files)).toEqual(["image.bin", "run.sh*"])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "image.bin", action: "restore" },
          { path: "run.sh", action: "restore" },
        ])
        expect(yield* s.files).toEqual(initial)
      }),
    ))

  it.live("has nothing to revert when the message's calls changed nothing, and knows no message that made no call", () =>
    scene({ "a.txt": "one\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.void)
        yield* s.edit("msg_2", "a.txt", "one", "two")
        yield* s.edit("msg_2", "a.txt", "two", "one")
        expect(yield* s.history.plan(s.id, "msg_1")).toEqual([])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([])
        expect((yield* s.history.unrevert(s.id).pipe(Effect.flip)).message).toBe(History.Messages.nothingToUnrevert(s.id))
        const unknown = yield* s.history.revert(s.id, "msg_0").pipe(Effect.flip)
        expect(unknown).toBeInstanceOf(History.NotFoundError)
        expect(unknown.message).toBe(History.Messages.noSnapshot(s.id, "msg_0"))
        expect(yield* s.files).toEqual({ "a.txt": "one\n" })
      }),
    ))

  it.live("removes a link the session made to a folder outside, with the rest of the revert, and nothing outside changes", () =>
    scene({ "notes.txt": "the person's uncommitted work\n" }, (s) =>
      Effect.gen(function* () {
        const outside = path.join(path.dirname(s.work), "outside")
        yield* Effect.promise(() => mkdir(outside, { recursive: true }).then(() => writeFile(path.join(outside, "keep.txt"), "keep\n")))
        yield* s.write("msg_1", "notes.txt", "agent\n")
        yield* s.shell("msg_2", Effect.promise(() => symlink(outside, path.join(s.work, "hk"))))
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "hk", action: "delete" },
          { path: "notes.txt", action: "restore" },
        ])
        expect(yield* s.files).toEqual({ "notes.txt": "the person's uncommitted work\n" })
        expect(yield* Effect.promise(() => lstat(path.join(s.work, "hk")).then(() => true, () => false))).toBe(false)
        expect(yield* Effect.promise(() => readFile(path.join(outside, "keep.txt"), "utf8"))).toBe("keep\n")
      }),
    ))

  it.live("a folder the person swapped for a link outside: the session's file in it is kept and named, nothing outside is touched", () =>
    scene({ "notes.txt": "mine\n" }, (s) =>
      Effect.gen(function* () {
        const outside = path.join(path.dirname(s.work), "outside-dir")
        yield* Effect.promise(() => mkdir(outside, { recursive: true }).then(() => writeFile(path.join(outside, "a.txt"), "keep\n")))
        yield* s.write("msg_1", "notes.txt", "agent\n")
        yield* s.write("msg_1", "dir/a.txt", "session\n")
        // The folder the session wrote in is swapped for a link outside: the revert must not follow it.
        yield* Effect.promise(() => rename(path.join(s.work, "dir"), path.join(s.work, "dir-moved")).then(() => symlink(outside, path.join(s.work, "dir"))))
        // Before, git refused to stage a path beyond the link, and the whole revert with it. The
        // snapshot now sees dir/a.txt gone (the person moved its folder): a change since the
        // session, kept and named; the rest of the revert runs.
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "dir/a.txt", action: "keep", reason: "session" },
          { path: "notes.txt", action: "restore" },
        ])
        expect(yield* Effect.promise(() => readFile(path.join(outside, "a.txt"), "utf8"))).toBe("keep\n")
        expect(yield* Effect.promise(() => readFile(path.join(s.work, "dir-moved", "a.txt"), "utf8"))).toBe("session\n")
        expect(yield* Effect.promise(() => readFile(path.join(s.work, "notes.txt"), "utf8"))).toBe("mine\n")
      }),
    ))
})
