/**
 * A shell command still running while the session's history is read or rewound (a server: the
 * agent's long command, and the person's diff or revert from the console or another terminal).
 * Found: a diff taken meanwhile ended the command's change, so what it wrote afterwards was
 * nobody's, and a revert could not undo it; the first of two commands of one step to settle
 * ended the other's too.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { History } from "../../src/snapshot/history.js"
import { put, scene } from "./history-harness.js"

describe("History while a shell command runs", () => {
  it("names the refusal", () => {
    expect(new History.RunningError({ sessionID: "ses_a" }).message).toBe(
      "Session ses_a has a call still running: its files cannot be reverted or unreverted until it settles. Wait for it, or stop it, and try again.",
    )
    expect(new History.RunningError({ sessionID: "ses_a", pid: 42 }).message).toBe(
      "Session ses_a has a call still running in process 42: its files cannot be reverted or unreverted until it settles. Wait for it, or stop it, and try again.",
    )
  })

  it.live("a diff taken meanwhile shows what it wrote so far and does not end its change: what it writes after is its too", () =>
    scene({ "a.txt": "a\n", "b.txt": "b\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.history.before(s.id, "msg_1", [], "call_1")
        yield* put(s.work, "a.txt", "a by the command\n")
        expect((yield* s.history.diff(s.id)).map((file) => file.path)).toEqual(["a.txt"])
        yield* put(s.work, "b.txt", "b by the command\n")
        yield* s.history.settle(s.id, "call_1")
        expect((yield* s.history.diff(s.id)).map((file) => file.path)).toEqual(["a.txt", "b.txt"])
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual({ "a.txt": "a\n", "b.txt": "b\n" })
      }),
    ))

  it.live("a revert or unrevert meanwhile is refused, and works once the call settled", () =>
    scene({ "a.txt": "a\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", put(s.work, "a.txt", "a by the first command\n"))
        yield* s.history.before(s.id, "msg_2", [], "call_2")
        yield* put(s.work, "a.txt", "a by the second command\n")
        expect(yield* s.history.revert(s.id, "msg_1").pipe(Effect.flip)).toEqual(new History.RunningError({ sessionID: s.id }))
        expect(yield* s.history.plan(s.id, "msg_1").pipe(Effect.flip)).toEqual(new History.RunningError({ sessionID: s.id }))
        expect(yield* s.files).toEqual({ "a.txt": "a by the second command\n" })
        yield* s.history.settle(s.id, "call_2")
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual({ "a.txt": "a\n" })
      }),
    ))

  it.live("of two commands of one step, the first to settle leaves the other's change open", () =>
    scene({ "a.txt": "a\n", "b.txt": "b\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.history.before(s.id, "msg_1", [], "call_a")
        yield* s.history.before(s.id, "msg_1", [], "call_b")
        yield* put(s.work, "a.txt", "a by command a\n")
        yield* s.history.settle(s.id, "call_a")
        // Still running: b writes after a settled.
        yield* put(s.work, "b.txt", "b by command b\n")
        yield* s.history.settle(s.id, "call_b")
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual({ "a.txt": "a\n", "b.txt": "b\n" })
      }),
    ))

  it.live("another history of the same process and database leaves a running command's change open", () =>
    scene({ "a.txt": "a\n", "b.txt": "b\n" }, (s) =>
      Effect.gen(function* () {
        // A second Location of the same directory in one process (another config or sandbox).
        const other = Context.get(yield* Layer.build(Layer.fresh(History.layer)), History.Service)
        yield* s.history.before(s.id, "msg_1", [], "call_1")
        yield* put(s.work, "a.txt", "a by the command\n")
        expect((yield* other.diff(s.id)).map((file) => file.path)).toEqual(["a.txt"])
        expect(yield* other.revert(s.id, "msg_1").pipe(Effect.flip)).toEqual(new History.RunningError({ sessionID: s.id }))
        yield* put(s.work, "b.txt", "b by the command\n")
        yield* s.history.settle(s.id, "call_1")
        yield* other.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual({ "a.txt": "a\n", "b.txt": "b\n" })
      }),
    ))
})
