/**
 * What a person is told an opaque `edit` of a bash command is for: the folders a program writes
 * what its input names into (`tar x -C sub`), and writes the gate cannot place (a link made in the
 * same line). Real files, the real tool; every such ask is rejected, so nothing runs.
 */
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PermissionEvaluate } from "../../../src/permission/evaluate.js"
import { BashTool } from "../../../src/tool/builtin/bash.js"
import { FileAccess } from "../../../src/tool/builtin/file-access.js"
import { harnessLayer, makeHarness, settle } from "../../lib/file-tools.js"

/** The purpose shown with the opaque edit `command` asks; external_directory is answered once, the edit rejected. */
const purposeOf = (command: string) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    yield* Effect.promise(() => mkdir(path.join(harness.work, "sub")))
    return yield* Effect.gen(function* () {
      const tool = yield* BashTool.make
      const { asked } = yield* settle(tool, { command, workdir: harness.work }, (request) =>
        Effect.succeed(request.action === FileAccess.EXTERNAL_ACTION ? "once" : "reject"),
      )
      const edit = asked.find((request) => request.action === PermissionEvaluate.PROTECTED_ACTION)
      return { resources: edit?.resources, purpose: edit?.metadata?.purpose }
    }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root)))
  }).pipe(Effect.scoped)

describe("BashTool: what an opaque edit is for", () => {
  it("the messages, verbatim", () => {
    expect(BashTool.Messages.fedInto(["sub", "out"])).toBe("writes files its input names into sub, out: which ones cannot be known before it runs")
    expect(BashTool.Messages.unplaced).toBe(
      "writes where it cannot be known before it runs (through a link made in the same line, a variable, or a cd that cannot be followed): it may write a protected file, such as a git hook",
    )
  })

  it.live("an extraction names the folder it writes into", () =>
    Effect.gen(function* () {
      expect(yield* purposeOf("tar xf a.tar -C sub")).toEqual({ resources: ["sub"], purpose: BashTool.Messages.fedInto(["sub"]) })
    }))

  it.live("a write through a link made in the same line says it cannot be placed", () =>
    Effect.gen(function* () {
      expect(yield* purposeOf("ln -sf .git/hooks h; cp post-checkout h/")).toEqual({ resources: [BashTool.UNKNOWN_DIRECTORY], purpose: BashTool.Messages.unplaced })
    }))

  it.live("both in one line: the folder by name, then what cannot be placed", () =>
    Effect.gen(function* () {
      expect(yield* purposeOf('tar xf a.tar -C sub; echo x > "$OUT"')).toEqual({
        resources: ["sub", BashTool.UNKNOWN_DIRECTORY],
        purpose: `${BashTool.Messages.fedInto(["sub"])}; ${BashTool.Messages.unplaced}`,
      })
    }))
})
