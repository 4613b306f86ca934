/**
 * What edit shows of a file's old content: nothing the model could not read itself, and nothing
 * from a file that a swapped path now points at.
 */
import { mkdir, readFile, rename, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { LocationMutation } from "../../../src/location/mutation.js"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import { FileAccess } from "../../../src/tool/builtin/file-access.js"
import { globalConfig } from "../../lib/config.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

describe("EditTool visibility", () => {
  it.live("shows neither the closest region nor the diff of a file the model may not read", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      yield* Effect.promise(() => writeFile(path.join(harness.work, ".env"), "API_KEY=supersecret\nOTHER=value\n"))
      const [missed, edited] = yield* Effect.flatMap(EditTool.make, (tool) =>
        Effect.all([settle(tool, { path: ".env", oldString: "API_KEY=supersecreX", newString: "x" }), settle(tool, { path: ".env", oldString: "OTHER=value", newString: "OTHER=new" })]),
      ).pipe(Effect.provide(harnessLayer(harness.root)))
      expect(textOf(missed.result)).toBe(EditTool.Messages.noMatch(".env"))
      expect(textOf(edited.result)).toBe(`${EditTool.Messages.edited(".env", 1)}\n\n${FileAccess.Messages.withheld(".env")}`)
      expect(yield* Effect.promise(() => readFile(path.join(harness.work, ".env"), "utf8"))).toBe("API_KEY=supersecret\nOTHER=new\n")
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
