/**
 * A bash call's change ends when its call settles on the one call path (SessionTurn.settle), in a
 * Location that stays open as a server's does: what a person or another session changes after that
 * is not the call's. Found as a served read slowing down with every bash call before it: the
 * effect that ends the call's change was built before the call started, so it found nothing to
 * end, and every command stayed open until its Location closed. Then the session's diff (and its
 * revert) took the person's later file as its own. Real Location, bash, git snapshots and files.
 */
import { readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { History } from "../../src/snapshot/history.js"
import { openToolgate } from "../lib/toolgate-open.js"

const opened = openToolgate([{ action: "bash", resource: "*", effect: "allow" }])

describe("a bash call's change ends when the call settles", () => {
  it.live("a file the person writes after the call is not in the session's diff, and the session's revert keeps it", () =>
    Effect.gen(function* () {
      const { toolgate, work } = yield* opened
      const session = yield* toolgate.session({ agent: "build" })
      const other = yield* toolgate.session({ agent: "build" })
      const first = yield* toolgate.settle({ session, message: "msg_1", call: { id: "call_1", name: "bash", input: { command: "echo made > a.txt", description: "Make a.txt" } } })
      expect(first.kind).toBe("success")
      // The person's own file, after the call settled; then another session's call.
      yield* Effect.promise(() => writeFile(path.join(work, "b.txt"), "the person's own\n"))
      const second = yield* toolgate.settle({ session: other, message: "msg_2", call: { id: "call_2", name: "bash", input: { command: "echo other > c.txt", description: "Make c.txt" } } })
      expect(second.kind).toBe("success")
      const diff = yield* toolgate.run(Effect.flatMap(History.Service, (history) => history.diff(session.id)))
      expect(diff.map((file) => file.path)).toEqual(["a.txt"])
      const others = yield* toolgate.run(Effect.flatMap(History.Service, (history) => history.diff(other.id)))
      expect(others.map((file) => file.path)).toEqual(["c.txt"])
      // Reverting the session's message takes back its own file only.
      yield* toolgate.run(Effect.flatMap(History.Service, (history) => history.revert(session.id, "msg_1")))
      const left = yield* Effect.promise(async () => ({
        a: await readFile(path.join(work, "a.txt"), "utf8").catch(() => undefined),
        b: await readFile(path.join(work, "b.txt"), "utf8"),
        c: await readFile(path.join(work, "c.txt"), "utf8"),
      }))
      expect(left).toEqual({ a: undefined, b: "the person's own\n", c: "other\n" })
    }))
})
