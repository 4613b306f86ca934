/**
 * Gitignored files a real bash command reaches without naming them: a glob, a script it wrote,
 * `find -exec`. Before, only ignored files a command named joined the snapshot, so `mv .e* x/`
 * took the person's `.env` where the snapshot did not see it go, and the revert deleted `x/.env`,
 * its only copy, reporting just "deleted x/.env". Now every ignored file outside folders ignored
 * as a whole is adopted before and after each command, and the revert puts it back.
 */
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { scene } from "./history-harness.js"

const bash = (work: string, command: string) => Effect.sync(() => void execFileSync("bash", ["-c", command], { cwd: work }))

const INITIAL = { ".gitignore": ".env\n*.local\nbuild/\n", ".env": "TOKEN=mine\n", "db.local": "rows\n", "config/app.local": "deep\n", "build/out.o": "object\n", "a.txt": "one\n" }

describe("History with gitignored files a command does not name", () => {
  it.live("puts back an ignored file a glob moved into a folder, and unreverts the move", () =>
    scene(INITIAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "mkdir x && mv .e* x/"))
        const moved = yield* s.files
        expect((yield* s.history.diff(s.id)).map((file) => [file.path, file.status])).toEqual([
          [".env", "deleted"],
          ["x/.env", "added"],
        ])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: ".env", action: "recreate" },
          { path: "x/.env", action: "delete" },
        ])
        expect(yield* s.files).toEqual(INITIAL)
        yield* s.history.unrevert(s.id)
        expect(yield* s.files).toEqual(moved)
      }),
    ))

  it.live("puts back ignored files a script and find -exec moved or removed", () =>
    scene(INITIAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "printf 'mv db.local db.old\\n' > s.sh && sh s.sh"))
        yield* s.shell("msg_2", bash(s.work, "find . -name app.local -exec mv {} keep.txt \\; && rm -f *.local .e*"))
        expect(yield* s.files).toEqual({ ".gitignore": INITIAL[".gitignore"], "a.txt": "one\n", "build/out.o": "object\n", "db.old": "rows\n", "keep.txt": "deep\n", "s.sh": "mv db.local db.old\n" })
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual(INITIAL)
      }),
    ))

  it.live("keeps a folder ignored as a whole out of the snapshot, and an ignored file the person changed since", () =>
    scene(INITIAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", bash(s.work, "echo session > db.local; echo rebuilt > build/out.o"))
        yield* bash(s.work, "echo person > db.local")
        expect((yield* s.history.diff(s.id)).map((file) => file.path)).toEqual(["db.local"])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: "db.local", action: "keep", reason: "session" }])
        expect((yield* s.files)["db.local"]).toBe("person\n")
        expect((yield* s.files)["build/out.o"]).toBe("rebuilt\n")
      }),
    ))
})
