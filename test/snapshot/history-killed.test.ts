/**
 * Changes whose process died before closing their log entries (SIGKILL, a crash, a second
 * Ctrl-C): a file tool's write, a shell command's, and a revert killed mid-restore (some files
 * restored, one cut off mid-write: empty, the start of its content, or missing; the rest not
 * reached). The next diff, revert or unrevert of the session closes the entry from what it kept
 * (interrupted.ts), so nothing the session or its revert wrote is out of reach. Set up here by
 * reopening an entry as a dead process leaves it; test/cli/revert-killed.test.ts and
 * test/cli/interrupt-twice.test.ts kill real ones.
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

/** The session's entries of `kind` as a process killed before closing them leaves them: open, and owned by `owner`. */
const reopen = (sessionID: string, owner: string, kind: "revert" | "tool" | "shell" = "revert") =>
  Effect.flatMap(Sql.Service, (sql) => sql.run("UPDATE snapshot_change SET after_tree = NULL, changes = NULL, owner = ? WHERE session_id = ? AND kind = ?", [owner, sessionID, kind]))

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

  it.live("leaves alone a revert whose process still runs: it may still be writing, and an unrevert waits for it", () =>
    scene(ORIGINAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.forEach(Object.entries(AGENT), ([file, content]) => put(s.work, file, content), { discard: true }))
        yield* s.history.revert(s.id, "msg_1")
        const parent = Owner.of(process.ppid)
        expect(parent).toBeDefined()
        yield* reopen(s.id, Owner.encode(parent as Owner.Owner))
        yield* put(s.work, "c.txt", "origin")
        // Open and another live process's: it may still be writing, so nothing is written now.
        expect(yield* s.history.unrevert(s.id).pipe(Effect.flip)).toEqual(new History.RunningError({ sessionID: s.id, pid: process.ppid }))
        expect(yield* s.files).toEqual({ ...ORIGINAL, "c.txt": "origin" })
      }),
    ))

  it.live("closes a file tool's entry a dead process left open: the diff shows the write, and the revert puts the file back", () =>
    scene(ORIGINAL, (s) =>
      Effect.gen(function* () {
        yield* s.write("msg_1", "a.txt", "the agent's a\n")
        yield* s.write("msg_1", "new.txt", "made by the agent\n")
        // Killed after the rename, before the entry closed.
        yield* reopen(s.id, gone(), "tool")
        expect((yield* s.history.diff(s.id)).map((file) => [file.path, file.status])).toEqual([
          ["a.txt", "modified"],
          ["new.txt", "added"],
        ])
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([
          { path: "a.txt", action: "restore" },
          { path: "new.txt", action: "delete" },
        ])
        expect(yield* s.files).toEqual(ORIGINAL)
      }),
    ))

  it.live("closes a shell command's entry a dead process left open: what it deleted is in the diff, and the revert brings it back", () =>
    scene(ORIGINAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.andThen(remove(s.work, "b.txt"), put(s.work, "c.txt", "the command's c\n")))
        yield* reopen(s.id, gone(), "shell")
        expect((yield* s.history.diff(s.id)).map((file) => [file.path, file.status])).toEqual([
          ["b.txt", "deleted"],
          ["c.txt", "modified"],
        ])
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual(ORIGINAL)
      }),
    ))

  it.live("counts the person's edit since a dead shell command as the command's, and loses nothing by it: the unrevert returns the edit", () =>
    scene(ORIGINAL, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", put(s.work, "c.txt", "the command's c\n"))
        yield* reopen(s.id, gone(), "shell")
        yield* put(s.work, "c.txt", "the person's c, after the crash\n")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: "c.txt", action: "restore" }])
        expect(yield* s.files).toEqual(ORIGINAL)
        yield* s.history.unrevert(s.id)
        expect(yield* s.files).toEqual({ ...ORIGINAL, "c.txt": "the person's c, after the crash\n" })
      }),
    ))

  it.live("leaves a file tool's entry of a live process open: the diff shows it so far, and a revert waits for it", () =>
    scene(ORIGINAL, (s) =>
      Effect.gen(function* () {
        yield* s.write("msg_1", "a.txt", "the agent's a\n")
        yield* reopen(s.id, Owner.encode(Owner.of(process.ppid) as Owner.Owner), "tool")
        // Shown as it stands so far, and left open; a revert waits for it.
        expect((yield* s.history.diff(s.id)).map((file) => file.path)).toEqual(["a.txt"])
        expect(yield* s.history.revert(s.id, "msg_1").pipe(Effect.flip)).toEqual(new History.RunningError({ sessionID: s.id, pid: process.ppid }))
        expect(yield* s.files).toEqual({ ...ORIGINAL, "a.txt": "the agent's a\n" })
      }),
    ))
})
