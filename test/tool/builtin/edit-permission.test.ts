import { mkdir, readFile, stat, symlink, unlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { LocationMutation } from "../../../src/location/mutation.js"
import { Permission } from "../../../src/permission/permission.js"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import type { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"


/** Every edit asks. */
const askEdits = globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })

const withTool = <A, E>(body: (tool: Tool.AnyTool, harness: { root: string; work: string }) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(EditTool.make, (tool) => body(tool, harness) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root, config)))
  })

const put = (file: string, content: string) => Effect.promise(() => writeFile(file, content))
const read = (file: string) => Effect.promise(() => readFile(file, "utf8"))
const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const summary = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources, save: request.save, metadata: request.metadata }))

describe("EditTool permissions", () => {
  it.live("asks edit on exactly the file, with the diff, after matching", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "a.txt"), "one\ntwo\n")
        const { result, asked } = yield* settle(tool, { path: "a.txt", oldString: "two", newString: "2" })
        expect(textOf(result).split("\n")[0]).toBe("Edited a.txt (1 replacement)")
        expect(summary(asked)).toEqual([{ action: "edit", resources: ["a.txt"], save: [path.join(work, "a.txt")], metadata: { diff: "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n" } }])
      }), askEdits))

  it.live("fails with the deny, not with the match result, when edit is denied", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "secret.txt"), "token=1\n")
        for (const oldString of ["not in the file", "token=1", "t"]) {
          const { result } = yield* settle(tool, { path: "secret.txt", oldString, newString: "x" })
          expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.BlockedError)
          expect(textOf(result)).toBe(Permission.Messages.blocked("edit"))
        }
        expect(yield* read(path.join(work, "secret.txt"))).toBe("token=1\n")
      }), globalConfig({ permission: [{ action: "edit", resource: "secret.txt", effect: "deny" }] })))

  it.live("reports a failed match only after the edit was approved", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "a.txt"), "one\n")
        const rejected = yield* settle(tool, { path: "a.txt", oldString: "zzz", newString: "x" }, { reply: "reject", message: "no" })
        expect(textOf(rejected.result)).toBe(Permission.Messages.corrected("no"))
        const approved = yield* settle(tool, { path: "a.txt", oldString: "zzz", newString: "x" }, "once")
        expect(summary(approved.asked)).toEqual([{ action: "edit", resources: ["a.txt"], save: [path.join(work, "a.txt")], metadata: { diff: "" } }])
        expect(textOf(approved.result)).toBe(EditTool.Messages.noMatch("a.txt"))
      }), askEdits))

  it.live("refuses when the file changed while the edit awaited approval, keeping the change", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const file = path.join(work, "a.txt")
        yield* put(file, "one\ntwo\n")
        const meddle = () => Effect.as(put(file, "one\ntwo\nthree\n"), "once" as const)
        const { result } = yield* settle(tool, { path: "a.txt", oldString: "two", newString: "2" }, meddle)
        expect(textOf(result)).toBe("File a.txt was modified while the edit was awaiting approval. Read it again and retry.")
        expect(yield* read(file)).toBe("one\ntwo\nthree\n")
      }), askEdits))

  it.live("refuses when the file was deleted while the edit awaited approval", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const file = path.join(work, "a.txt")
        yield* put(file, "one\n")
        const remove = () => Effect.as(Effect.promise(() => unlink(file)), "once" as const)
        const { result } = yield* settle(tool, { path: "a.txt", oldString: "one", newString: "1" }, remove)
        expect(textOf(result)).toBe(EditTool.Messages.modified("a.txt"))
        expect(yield* exists(file)).toBe(false)
      }), askEdits))

  it.live("refuses when the path resolves elsewhere after approval", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "real.txt"), "one\n")
        yield* put(path.join(work, "other.txt"), "one\n")
        yield* Effect.promise(() => symlink("real.txt", path.join(work, "alias.txt")))
        const repoint = () =>
          Effect.as(Effect.promise(async () => {
            await unlink(path.join(work, "alias.txt"))
            await symlink("other.txt", path.join(work, "alias.txt"))
          }), "once" as const)
        const { result } = yield* settle(tool, { path: "alias.txt", oldString: "one", newString: "1" }, repoint)
        expect(textOf(result)).toBe(LocationMutation.Messages.changed("alias.txt"))
        expect([yield* read(path.join(work, "real.txt")), yield* read(path.join(work, "other.txt"))]).toEqual(["one\n", "one\n"])
      }), askEdits))

  it.live("asks external_directory, then edit, for a file outside", () =>
    withTool((tool, { root }) =>
      Effect.gen(function* () {
        const directory = path.join(root, "elsewhere")
        const file = path.join(directory, "x.txt")
        yield* Effect.promise(() => mkdir(directory))
        yield* put(file, "old\n")
        const { result, asked } = yield* settle(tool, { path: file, oldString: "old", newString: "new" })
        expect(textOf(result).split("\n")[0]).toBe(`Edited ${file} (1 replacement)`)
        expect(summary(asked)).toEqual([
          { action: "external_directory", resources: [`${directory}/*`], save: [`${directory}/*`], metadata: { purpose: `edit ${file}` } },
          { action: "edit", resources: [file], save: [file], metadata: { diff: `--- ${file}\n+++ ${file}\n@@ -1,1 +1,1 @@\n-old\n+new\n` } },
        ])
        expect(yield* read(file)).toBe("new\n")
      }), askEdits))

  it.live("reads nothing outside before external_directory is approved", () =>
    withTool((tool, { root }) =>
      Effect.gen(function* () {
        const file = path.join(root, "elsewhere", "missing.txt")
        const { result, asked } = yield* settle(tool, { path: file, oldString: "a", newString: "b" }, { reply: "reject", message: "stay inside" })
        expect(textOf(result)).toBe(Permission.Messages.corrected("stay inside"))
        expect(asked.map((request) => request.action)).toEqual(["external_directory"])
      })))

  it.live("refuses escapes with the location messages and asks nothing", () =>
    withTool((tool, { root, work }) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => mkdir(path.join(root, "outside")))
        yield* put(path.join(root, "outside", "x.txt"), "old\n")
        yield* put(path.join(root, "x"), "old\n")
        yield* Effect.promise(() => symlink(path.join(root, "outside", "x.txt"), path.join(work, "link.txt")))
        yield* Effect.promise(() => symlink(path.join(root, "outside"), path.join(work, "out")))
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["../x", LocationMutation.Messages.relative_escape("../x")],
          ["a/../../x", LocationMutation.Messages.relative_escape("a/../../x")],
          ["link.txt", LocationMutation.Messages.location_escape("link.txt")],
          ["out/x.txt", LocationMutation.Messages.location_escape("out/x.txt")],
          ["a\0b", LocationMutation.Messages.invalid_path()],
        ]
        for (const [input, message] of cases) {
          const { result, asked } = yield* settle(tool, { path: input, oldString: "old", newString: "new" })
          expect(textOf(result)).toBe(message)
          expect(asked).toEqual([])
        }
        expect([yield* read(path.join(root, "outside", "x.txt")), yield* read(path.join(root, "x"))]).toEqual(["old\n", "old\n"])
      })))

  it.live("applies two concurrent edits of one file", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const file = path.join(work, "a.txt")
        yield* put(file, "alpha\nbeta\n")
        const results = yield* Effect.all(
          [settle(tool, { path: "a.txt", oldString: "alpha", newString: "ALPHA" }), settle(tool, { path: "a.txt", oldString: "beta", newString: "BETA" })],
          { concurrency: "unbounded" },
        )
        expect(results.map(({ result }) => textOf(result).split("\n")[0])).toEqual(["Edited a.txt (1 replacement)", "Edited a.txt (1 replacement)"])
        expect(yield* read(file)).toBe("ALPHA\nBETA\n")
      })))

  it.live("releases the file when the edit is interrupted while awaiting approval", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const file = path.join(work, "a.txt")
        yield* put(file, "alpha\n")
        const first = yield* settle(tool, { path: "a.txt", oldString: "alpha", newString: "x" }, () => Effect.never).pipe(Effect.timeout("200 millis"), Effect.exit)
        expect(first._tag).toBe("Failure")
        const second = yield* settle(tool, { path: "a.txt", oldString: "alpha", newString: "beta" })
        expect(textOf(second.result).split("\n")[0]).toBe("Edited a.txt (1 replacement)")
        expect(yield* read(file)).toBe("beta\n")
      }), askEdits))
})
