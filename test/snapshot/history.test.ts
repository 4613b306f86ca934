import { readFile, readdir, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Session } from "../../src/session.js"
import { History } from "../../src/snapshot/history.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { WriteTool } from "../../src/tool/builtin/write.js"
import { Tool } from "../../src/tool/tool.js"
import { harnessLayer, makeHarness } from "../lib/file-tools.js"

/** Every file of the Location (but .git) with its content. */
const tree = (work: string) =>
  Effect.promise(async () => {
    const names = (await readdir(work, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && !path.relative(work, path.join(entry.parentPath, entry.name)).startsWith(".git"))
      .map((entry) => path.relative(work, path.join(entry.parentPath, entry.name)))
      .sort()
    return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(path.join(work, name), "utf8")] as const)))
  })

describe("History", () => {
  it.live("reverts a session to the state before a message, and unreverts it", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      yield* Effect.promise(async () => {
        await writeFile(path.join(harness.work, "a.txt"), "alpha\n")
        await writeFile(path.join(harness.work, "b.txt"), "beta\n")
      })
      yield* Effect.gen(function* () {
        const history = yield* History.Service
        const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
        const edit = yield* EditTool.make
        const write = yield* WriteTool.make
        const context = (message: string): Tool.Context => ({ sessionID: session.id, agent: "build", assistantMessageID: message, toolCallID: `call_${message}` })
        const initial = yield* tree(harness.work)

        yield* Tool.settle(edit, { id: "1", name: "edit", input: { path: "a.txt", oldString: "alpha", newString: "ALPHA" } }, context("msg_1"))
        const afterFirst = yield* tree(harness.work)
        yield* Tool.settle(write, { id: "2", name: "write", input: { path: "new/c.txt", content: "gamma\n" } }, context("msg_2"))
        yield* Tool.settle(edit, { id: "2b", name: "edit", input: { path: "b.txt", oldString: "beta", newString: "BETA" } }, context("msg_2"))
        // The third message deletes a file (through the shell, as bash would): revert must bring it back.
        yield* history.before(session.id, "msg_3")
        yield* Effect.promise(() => rm(path.join(harness.work, "a.txt")))
        // Its call settles, as the one call path settles every call (a revert waits for that).
        yield* history.settle(session.id)
        const latest = yield* tree(harness.work)
        expect(latest).toEqual({ "b.txt": "BETA\n", "new/c.txt": "gamma\n" })

        const reverted = yield* history.revert(session.id, "msg_2")
        expect(reverted).toEqual([
          { path: "a.txt", action: "recreate" },
          { path: "b.txt", action: "restore" },
          { path: "new/c.txt", action: "delete" },
        ])
        expect(yield* tree(harness.work)).toEqual(afterFirst)
        expect(afterFirst).toEqual({ ...initial, "a.txt": "ALPHA\n" })

        yield* history.unrevert(session.id)
        expect(yield* tree(harness.work)).toEqual(latest)
        expect((yield* history.unrevert(session.id).pipe(Effect.flip)).message).toBe(History.Messages.nothingToUnrevert(session.id))

        const changes = yield* history.diff(session.id)
        expect(changes.map((change) => [change.path, change.status]).sort()).toEqual([
          ["a.txt", "deleted"],
          ["b.txt", "modified"],
          ["new/c.txt", "added"],
        ])
        expect((yield* history.revert(session.id, "msg_9").pipe(Effect.flip)).message).toBe(History.Messages.noSnapshot(session.id, "msg_9"))
      }).pipe(Effect.provide(harnessLayer(harness.root)))
    }))
})
