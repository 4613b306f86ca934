import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { put, scene } from "./history-harness.js"

const IGNORED = { ".gitignore": ".env\n*.local\n.cache/\n", ".env": "TOKEN=old\n" }

describe("History with gitignored files", () => {
  it.live("records what the file tools change in ignored files: diff shows it, revert and unrevert restore it", () =>
    scene(IGNORED, (s) =>
      Effect.gen(function* () {
        yield* s.write("msg_1", ".env", "TOKEN=new\n")
        yield* s.edit("msg_1", ".env", "new", "newer")
        yield* s.write("msg_2", "settings.local", "debug=true\n")
        const changes = yield* s.history.diff(s.id)
        expect(changes.map(({ patch: _, ...rest }) => rest)).toEqual([
          { path: ".env", status: "modified", additions: 1, deletions: 1 },
          { path: "settings.local", status: "added", additions: 1, deletions: 0 },
        ])
        expect(changes[0]?.patch.split("\n").slice(2)).toEqual(["--- a/.env", "+++ b/.env", "@@ -1 +1 @@", "-TOKEN=old", "+TOKEN=newer", ""])
        const latest = yield* s.files
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: ".env", action: "restore" },
          { path: "settings.local", action: "delete" },
        ])
        expect(yield* s.files).toEqual(IGNORED)
        yield* s.history.unrevert(s.id)
        expect(yield* s.files).toEqual(latest)
      }),
    ))

  it.live("records a file the tools change over the untracked size limit, and restores it", () =>
    scene({ "big.txt": `${"x".repeat(Snapshot.MAX_UNTRACKED_BYTES)}\nend\n` }, (s) =>
      Effect.gen(function* () {
        const initial = yield* s.files
        yield* s.edit("msg_1", "big.txt", "end", "END")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: "big.txt", action: "restore" }])
        expect(yield* s.files).toEqual(initial)
      }),
    ))

  it.live("records a shell command's change to an ignored file, not what it writes in a folder ignored as a whole", () =>
    scene(IGNORED, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.andThen(put(s.work, ".cache/build.out", "built\n"), put(s.work, ".env", "TOKEN=by bash\n")))
        // Ignored files outside such folders join every shell snapshot (2026-12-06, unnamed ones too).
        expect((yield* s.history.diff(s.id)).map((file) => file.path)).toEqual([".env"])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: ".env", action: "restore" }])
        expect(yield* s.files).toEqual({ ...IGNORED, ".cache/build.out": "built\n" })
      }),
    ))
})
