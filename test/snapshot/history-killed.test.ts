/**
 * A revert whose process died mid-restore (SIGKILL, a crash): its log entry is left open, some
 * files restored, one cut off mid-write (empty, the start of its content, or missing), the rest
 * not reached. The next diff, revert or unrevert of the session closes the entry from what it kept
 * (interrupted.ts), so the unrevert returns every file the revert wrote. Set up here by opening
 * the entry as a dead process left it; test/cli/revert-killed.test.ts kills a real one.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { History } from "../../src/snapshot/history.js"
import { Owner } from "../../src/storage/owner.js"
import { Sql } from "../../src/storage/sql.js"
import { put, remove, scene } from "./history-harness.js"

const ORIGINAL = { "a.txt": "original a\n", "b.txt": "original b\n", "c.txt": "original c\n", "d.txt": "original d\n", "e.txt": "original e\n", "f.txt": "original f\n" }
const AGENT = { "a.txt": "agent a\n", "b.txt": "agent b\n", "c.txt": "agent c\n", "d.txt": "agent d\n", "e.txt": "agent e\n", "f.txt": "agent f\n" }

/** This process's pid with a start time it never had: a process that is gone. */
const gone = (): string => {
  const here = Owner.current()
  return Owner.encode(here.start === undefined ? { pid: 2 ** 22 + 1 } : { pid: here.pid, start: { ...here.start, ticks: "1" } })
}

/** The session's revert entry as a process killed mid-restore leaves it: open, and owned by `owner`. */
const reopen = (sessionID: string, owner: string) =>
  Effect.flatMap(Sql.Service, (sql) => sql.run("UPDATE snapshot_change SET after_tree = NULL, changes = NULL, owner = ? WHERE session_id = ? AND kind = 'revert'", [owner, sessionID]))

describe("History after a revert killed mid-restore", () => {
  it("names the files it finished", () => {
    expect(History.Messages.finished("ses_a", ["c.txt"])).toBe("A file of session ses_a had been cut off mid-write when a revert was interrupted; finished from the revert: c.txt")
    expect(History.Messages.finished("ses_a", ["c.txt", "d.txt"])).toBe("2 files of session ses_a had been cut off mid-write when a revert was interrupted; finished from the revert: c.txt, d.txt")
  })

  it.live("closes the entry from what it kept: finishes what was cut off, keeps the person's file, and the unrevert returns every file it wrote", () =>
    scene(ORIGINAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.forEach(Object.entries(AGENT), ([file, content]) => put(s.work, file, content), { discard: true }))
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual(ORIGINAL)
        // Killed inside the checkout: a restored; b not reached; c cut off after its first bytes,
        // d after git unlinked it, f before any byte; then the person wrote e.
        yield* reopen(s.id, gone())
        yield* put(s.work, "b.txt", AGENT["b.txt"])
        yield* put(s.work, "c.txt", "origin")
        yield* remove(s.work, "d.txt")
        yield* put(s.work, "f.txt", "")
        yield* put(s.work, "e.txt", "the person's e\n")
        // Any of diff, revert and unrevert closes it first; the diff reads files only then.
        expect((yield* s.history.diff(s.id)).map((file) => file.path)).toEqual(["b.txt", "e.txt"])
        expect(yield* s.files).toEqual({ ...ORIGINAL, "b.txt": AGENT["b.txt"], "e.txt": "the person's e\n" })
        expect(yield* s.history.unrevert(s.id)).toEqual([
          { path: "a.txt", action: "restore" },
          { path: "c.txt", action: "restore" },
          { path: "d.txt", action: "restore" },
          { path: "f.txt", action: "restore" },
        ])
        expect(yield* s.files).toEqual({ ...AGENT, "e.txt": "the person's e\n" })
      }),
    ))

  it.live("leaves alone an entry whose process still runs: it is still writing", () =>
    scene(ORIGINAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.forEach(Object.entries(AGENT), ([file, content]) => put(s.work, file, content), { discard: true }))
        yield* s.history.revert(s.id, "msg_1")
        const parent = Owner.of(process.ppid)
        expect(parent).toBeDefined()
        yield* reopen(s.id, Owner.encode(parent as Owner.Owner))
        yield* put(s.work, "c.txt", "origin")
        // Open and another live process's: it counts for nothing yet, and nothing is written.
        expect(yield* s.history.unrevert(s.id).pipe(Effect.flip)).toEqual(new History.NotFoundError({ sessionID: s.id }))
        expect(yield* s.files).toEqual({ ...ORIGINAL, "c.txt": "origin" })
      }),
    ))
})
