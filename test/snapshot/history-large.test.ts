/**
 * Untracked files over the snapshot size limit, changed by real bash commands: the snapshot
 * knows them by size and times only, so a revert never deletes, overwrites or "puts back" one
 * (it keeps it and says so), and the diff lists each change without lines.
 */
import { execFileSync } from "node:child_process"
import { lstat, readFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { scene } from "./history-harness.js"

const LARGE = Snapshot.MAX_UNTRACKED_BYTES + 1
const big = (byte: string) => byte.repeat(LARGE)

/** A command run by bash in the Location, as the bash tool runs it. */
const bash = (work: string, command: string) => Effect.sync(() => void execFileSync("bash", ["-c", command], { cwd: work }))
const size = (file: string) => Effect.promise(() => lstat(file).then((info) => info.size, () => undefined))
const text = (file: string) => Effect.promise(() => readFile(file, "utf8"))
const sized = (file: string, status: Snapshot.Status) => ({ path: file, status, additions: 0, deletions: 0, patch: "" })

describe("History and untracked files over the size limit", () => {
  it.live("keeps the person's large file a command shrank (never deletes it) and reverts the rest", () =>
    scene({ "big.bin": big("x"), "a.txt": "one\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "echo hello > big.bin && echo two > a.txt"))
        expect((yield* s.history.diff(s.id)).find((file) => file.path === "big.bin")).toEqual(sized("big.bin", "modified"))
        const plan = [
          { path: "a.txt", action: "restore" },
          { path: "big.bin", action: "keep", reason: "large" },
        ]
        expect(yield* s.history.plan(s.id, "msg_1")).toEqual(plan)
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual(plan)
        expect(yield* text(path.join(s.work, "big.bin"))).toBe("hello\n")
        expect(yield* text(path.join(s.work, "a.txt"))).toBe("one\n")
      }),
    ))

  it.live("records a command that grows a large file, shows it in the diff and keeps it on revert", () =>
    scene({ "big2.bin": big("y") }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "printf more >> big2.bin"))
        expect(yield* s.history.diff(s.id)).toEqual([sized("big2.bin", "modified")])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: "big2.bin", action: "keep", reason: "large" }])
        expect(yield* size(path.join(s.work, "big2.bin"))).toBe(LARGE + 4)
      }),
    ))

  it.live("leaves a large file the session's command created, and still deletes the small one it created", () =>
    scene({}, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, `head -c ${LARGE} /dev/zero > out.bin && echo log > out.log`))
        expect(yield* s.history.diff(s.id)).toEqual([sized("out.bin", "added"), { path: "out.log", status: "added", additions: 1, deletions: 0, patch: expect.any(String) }])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "out.bin", action: "keep", reason: "large" },
          { path: "out.log", action: "delete" },
        ])
        expect(yield* size(path.join(s.work, "out.bin"))).toBe(LARGE)
        expect(yield* size(path.join(s.work, "out.log"))).toBe(undefined)
      }),
    ))

  it.live("reports a large file a command deleted or moved as not restorable, and does not delete the moved copy", () =>
    scene({ "gone.bin": big("g"), "moved.bin": big("m") }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "rm gone.bin && mv moved.bin elsewhere.bin"))
        expect(yield* s.history.diff(s.id)).toEqual([sized("elsewhere.bin", "added"), sized("gone.bin", "deleted"), sized("moved.bin", "deleted")])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "elsewhere.bin", action: "keep", reason: "large" },
          { path: "gone.bin", action: "keep", reason: "large" },
          { path: "moved.bin", action: "keep", reason: "large" },
        ])
        expect(yield* size(path.join(s.work, "elsewhere.bin"))).toBe(LARGE)
      }),
    ))

  it.live("a large file the session made and later shrank is kept by the later revert, and deleted by the earlier one", () =>
    scene({}, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, `head -c ${LARGE} /dev/zero > data.bin`))
        yield* s.shell("msg_2", bash(s.work, "echo small > data.bin"))
        expect(yield* s.history.revert(s.id, "msg_2")).toEqual([{ path: "data.bin", action: "keep", reason: "large" }])
        expect(yield* text(path.join(s.work, "data.bin"))).toBe("small\n")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: "data.bin", action: "delete" }])
        expect(yield* s.history.unrevert(s.id)).toEqual([{ path: "data.bin", action: "recreate" }])
        expect(yield* text(path.join(s.work, "data.bin"))).toBe("small\n")
      }),
    ))

  it.live("never writes over a large file it could not put back, and restores a small file a command grew past the limit", () =>
    scene({ "s.txt": "small\n", "grown.txt": "g\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "rm s.txt"))
        yield* s.shell("msg_2", bash(s.work, `head -c ${LARGE} /dev/zero > s.txt && head -c ${LARGE} /dev/zero >> grown.txt`))
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "grown.txt", action: "restore" },
          { path: "s.txt", action: "keep", reason: "large" },
        ])
        expect(yield* size(path.join(s.work, "s.txt"))).toBe(LARGE)
        expect(yield* text(path.join(s.work, "grown.txt"))).toBe("g\n")
      }),
    ))

  it.live("records a file tool's write into a folder that took a large file's place", () =>
    scene({ d: big("d") }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "rm d && mkdir d"))
        yield* s.write("msg_2", "d/x", "x\n")
        expect(yield* s.history.revert(s.id, "msg_2")).toEqual([{ path: "d/x", action: "delete" }])
        expect(yield* size(path.join(s.work, "d/x"))).toBe(undefined)
      }),
    ))
})
