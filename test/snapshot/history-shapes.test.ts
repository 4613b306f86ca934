/**
 * A path that changes shape under real bash commands: a folder replaced by a file, a folder
 * replaced by a link (inside the Location or out of it). Before, a link in a folder's place made
 * git refuse every later snapshot ("beyond a symbolic link"), so nothing of the session was
 * recorded and `diff` said it changed nothing; a file in a folder's place made the revert refuse
 * with "in the way" (its dry run said it would work); a link to outside made it refuse with
 * "escapes", though the link is what the revert deletes first.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { scene } from "./history-harness.js"

const bash = (work: string, command: string) => Effect.sync(() => void execFileSync("bash", ["-c", command], { cwd: work }))

describe("History and paths that change shape", () => {
  it.live("reverts a folder a command replaced by a link, and keeps recording after it", () =>
    scene({ "a.txt": "one\n", "d/one": "mine\n", "e/one": "other\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "rm -rf d && ln -s e d"))
        yield* s.shell("msg_2", bash(s.work, "echo two > a.txt"))
        expect((yield* s.history.diff(s.id)).map((file) => [file.path, file.status])).toEqual([
          ["a.txt", "modified"],
          ["d", "added"],
          ["d/one", "deleted"],
        ])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "a.txt", action: "restore" },
          { path: "d", action: "delete" },
          { path: "d/one", action: "recreate" },
        ])
        expect(yield* s.files).toEqual({ "a.txt": "one\n", "d/one": "mine\n", "e/one": "other\n" })
        yield* s.history.unrevert(s.id)
        expect(readlinkSync(path.join(s.work, "d"))).toBe("e")
        expect(readFileSync(path.join(s.work, "a.txt"), "utf8")).toBe("two\n")
      }),
    ))

  it.live("reverts a folder a command replaced by a link to outside, writing nothing there", () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "toolgate-outside-"))
    writeFileSync(path.join(outside, "keep"), "theirs\n")
    return scene({ "d/one": "mine\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, `rm -rf d && ln -s '${outside}' d`))
        const dry = yield* s.history.plan(s.id, "msg_1")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual(dry)
        expect(yield* s.files).toEqual({ "d/one": "mine\n" })
        expect(execFileSync("ls", ["-A", outside], { encoding: "utf8" })).toBe("keep\n")
        expect(readFileSync(path.join(outside, "keep"), "utf8")).toBe("theirs\n")
      }),
    ).pipe(Effect.ensuring(Effect.sync(() => rmSync(outside, { recursive: true, force: true }))))
  })

  it.live("reverts a folder a command replaced by a file, as its dry run says, and unreverts it", () =>
    scene({ "d/one": "one\n", "d/two": "two\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "rm -rf d && echo file > d"))
        const dry = yield* s.history.plan(s.id, "msg_1")
        expect(dry).toEqual([
          { path: "d", action: "delete" },
          { path: "d/one", action: "recreate" },
          { path: "d/two", action: "recreate" },
        ])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual(dry)
        expect(yield* s.files).toEqual({ "d/one": "one\n", "d/two": "two\n" })
        yield* s.history.unrevert(s.id)
        expect(yield* s.files).toEqual({ d: "file\n" })
      }),
    ))
})
