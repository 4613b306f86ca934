/**
 * What edit shows of a file's old content: nothing before `read` is granted (so edit is no oracle
 * on a file `read` protects, issue 12 item 6), hard links asked plainly (item 10), and nothing
 * from a file that a swapped path now points at.
 */
import { link, mkdir, readFile, rename, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { LocationMutation } from "../../../src/location/mutation.js"
import { Permission } from "../../../src/permission/permission.js"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import { globalConfig } from "../../lib/config.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

describe("EditTool visibility", () => {
  it.live("asks read before matching a file the model may not read, and is no oracle when refused", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      yield* Effect.promise(() => writeFile(path.join(harness.work, ".env"), "API_KEY=supersecret\nOTHER=value\n"))
      const [missed, matched] = yield* Effect.flatMap(EditTool.make, (tool) =>
        Effect.all([
          settle(tool, { path: ".env", oldString: "API_KEY=supersecreX", newString: "x" }, "reject"),
          settle(tool, { path: ".env", oldString: "API_KEY=supersecret", newString: "x" }, "reject"),
        ]),
      ).pipe(Effect.provide(harnessLayer(harness.root)))
      // A miss and a match read the same: the read was refused before anything was compared.
      expect(missed.asked.map((request) => [request.action, request.resources])).toEqual([["read", [".env"]]])
      expect(matched.asked.map((request) => [request.action, request.resources])).toEqual([["read", [".env"]]])
      expect(textOf(missed.result)).toBe(textOf(matched.result))
      expect(textOf(matched.result)).toBe(Permission.Messages.declined("read"))
      expect(yield* Effect.promise(() => readFile(path.join(harness.work, ".env"), "utf8"))).toBe("API_KEY=supersecret\nOTHER=value\n")
    }))

  it.live("shows the diff once the person let the session read the file", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      yield* Effect.promise(() => writeFile(path.join(harness.work, ".env"), "API_KEY=supersecret\nOTHER=value\n"))
      const edited = yield* Effect.flatMap(EditTool.make, (tool) => settle(tool, { path: ".env", oldString: "OTHER=value", newString: "OTHER=new" })).pipe(
        Effect.provide(harnessLayer(harness.root)),
      )
      expect(edited.asked.map((request) => request.action)).toEqual(["read"])
      expect(textOf(edited.result)).toContain(`${EditTool.Messages.edited(".env", 1)}\n\n--- .env\n+++ .env\n`)
      expect(yield* Effect.promise(() => readFile(path.join(harness.work, ".env"), "utf8"))).toBe("API_KEY=supersecret\nOTHER=new\n")
    }))

  it.live("asks read on a hard link plainly, even where read * allows, and exact approval lets it through", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      yield* Effect.promise(async () => {
        await writeFile(path.join(harness.work, ".env"), "API_KEY=supersecret\n")
        await link(path.join(harness.work, ".env"), path.join(harness.work, "hard.txt"))
      })
      const refused = yield* Effect.flatMap(EditTool.make, (tool) => settle(tool, { path: "hard.txt", oldString: "API_KEY=supersecret", newString: "x" }, "reject")).pipe(
        Effect.provide(harnessLayer(harness.root)),
      )
      expect(refused.asked.map((request) => [request.action, request.resources])).toEqual([["read", ["hard.txt"]]])
      expect(textOf(refused.result)).toBe(Permission.Messages.declined("read"))
      const exact = globalConfig({ permission: [{ action: "read", resource: "hard.txt", effect: "allow" }] })
      const allowed = yield* Effect.flatMap(EditTool.make, (tool) => settle(tool, { path: "hard.txt", oldString: "API_KEY=supersecret", newString: "API_KEY=rotated" }, "reject")).pipe(
        Effect.provide(harnessLayer(harness.root, exact)),
      )
      expect(allowed.asked).toEqual([])
      expect(textOf(allowed.result)).toContain(EditTool.Messages.edited("hard.txt", 1))
    }))

  it.live("refuses, without quoting it, a file that a parent swapped for a link now points at", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      yield* Effect.promise(async () => {
        await mkdir(path.join(harness.work, "sub"))
        await writeFile(path.join(harness.work, "sub", "f.txt"), "inside\n")
        await mkdir(path.join(harness.root, "secret"))
        await writeFile(path.join(harness.root, "secret", "f.txt"), "PASSWORD=hunter2\n")
      })
      const swap = () =>
        Effect.promise(async () => {
          await rename(path.join(harness.work, "sub"), path.join(harness.work, "sub-old"))
          await symlink(path.join(harness.root, "secret"), path.join(harness.work, "sub"))
          return "once" as const
        })
      const askEdits = globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })
      const [during, after] = yield* Effect.flatMap(EditTool.make, (tool) =>
        Effect.gen(function* () {
          const during = yield* settle(tool, { path: "sub/f.txt", oldString: "PASSWORD=hunter3", newString: "x" }, swap)
          const after = yield* settle(tool, { path: "sub/f.txt", oldString: "PASSWORD=hunter3", newString: "x" })
          return [during, after] as const
        }),
      ).pipe(Effect.provide(harnessLayer(harness.root, askEdits)))
      // The match failed on the approved file; the refusal comes after the approval and quotes
      // nothing of the file the path points at now.
      expect(textOf(during.result)).toBe(EditTool.Messages.noMatch("sub/f.txt"))
      expect(textOf(after.result)).toBe(LocationMutation.Messages.location_escape("sub/f.txt"))
      expect(yield* Effect.promise(() => readFile(path.join(harness.root, "secret", "f.txt"), "utf8"))).toBe("PASSWORD=hunter2\n")
    }))
})
