import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { History } from "../../src/snapshot/history.js"
import { put, type Scene, scene } from "./history-harness.js"

/** Three messages: m1 edits a, m2 edits b and writes c, m3 edits a again and writes d. */
const three = (s: Scene) =>
  Effect.gen(function* () {
    yield* s.edit("msg_1", "a.txt", "a0", "a1")
    const afterFirst = yield* s.files
    yield* s.edit("msg_2", "b.txt", "b0", "b1")
    yield* s.write("msg_2", "c.txt", "c1\n")
    const afterSecond = yield* s.files
    yield* s.edit("msg_3", "a.txt", "a1", "a3")
    yield* s.write("msg_3", "d.txt", "d3\n")
    return { afterFirst, afterSecond, latest: yield* s.files }
  })

const INITIAL = { "a.txt": "a0\n", "b.txt": "b0\n" }

describe("History revert chains", () => {
  const chains: ReadonlyArray<{ readonly name: string; readonly targets: ReadonlyArray<string> }> = [
    { name: "to an earlier message", targets: ["msg_3", "msg_2"] },
    { name: "to a later message", targets: ["msg_2", "msg_3"] },
    { name: "back and forth", targets: ["msg_3", "msg_1", "msg_2", "msg_3"] },
  ]
  for (const chain of chains)
    it.live(`unrevert after reverts ${chain.name} returns to the state before the first revert`, () =>
      scene(INITIAL, (s) =>
        Effect.gen(function* () {
          const states = yield* three(s)
          const expected: Record<string, Record<string, string>> = { msg_1: INITIAL, msg_2: states.afterFirst, msg_3: states.afterSecond }
          for (const target of chain.targets) {
            yield* s.history.revert(s.id, target)
            expect(yield* s.files).toEqual(expected[target])
          }
          yield* s.history.unrevert(s.id)
          expect(yield* s.files).toEqual(states.latest)
          expect((yield* s.history.unrevert(s.id).pipe(Effect.flip)).message).toBe(History.Messages.nothingToUnrevert(s.id))
        }),
      ))

  it.live("keeps what the person changed between two reverts, through the next revert and the unrevert", () =>
    scene(INITIAL, (s) =>
      Effect.gen(function* () {
        const states = yield* three(s)
        yield* s.history.revert(s.id, "msg_3")
        yield* put(s.work, "a.txt", "a, by the person after the revert\n")
        expect(yield* s.history.revert(s.id, "msg_2")).toEqual([
          { path: "b.txt", action: "restore" },
          { path: "c.txt", action: "delete" },
          { path: "a.txt", action: "keep", reason: "revert" },
        ].sort((x, y) => x.path.localeCompare(y.path)))
        expect(yield* s.history.unrevert(s.id)).toEqual([
          { path: "a.txt", action: "keep", reason: "revert" },
          { path: "b.txt", action: "restore" },
          { path: "c.txt", action: "recreate" },
          { path: "d.txt", action: "recreate" },
        ])
        expect(yield* s.files).toEqual({ ...states.latest, "a.txt": "a, by the person after the revert\n" })
      }),
    ))

  it.live("ends the chain when the session goes on: nothing to unrevert, and the reverted messages are gone", () =>
    scene(INITIAL, (s) =>
      Effect.gen(function* () {
        const states = yield* three(s)
        yield* s.history.revert(s.id, "msg_2")
        yield* s.write("msg_4", "e.txt", "e4\n")
        expect((yield* s.history.unrevert(s.id).pipe(Effect.flip)).message).toBe(History.Messages.nothingToUnrevert(s.id))
        expect((yield* s.history.revert(s.id, "msg_3").pipe(Effect.flip)).message).toBe(History.Messages.noSnapshot(s.id, "msg_3"))
        expect(yield* s.files).toEqual({ ...states.afterFirst, "e.txt": "e4\n" })
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* s.files).toEqual(INITIAL)
        yield* s.history.unrevert(s.id)
        expect(yield* s.files).toEqual({ ...states.afterFirst, "e.txt": "e4\n" })
      }),
    ))
})
