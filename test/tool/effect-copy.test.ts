/**
 * A second copy of effect (issue 13, item 6): a tool whose schemas come from another copy is an
 * error at `Tool.make` naming the cause, not a tool that returns empty output. The second copy is
 * real: the installed package linked file by file into a temp folder, so Node loads it again.
 */
import { execFileSync } from "node:child_process"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { EffectCopy } from "../../src/tool/effect-copy.js"
import { Tool } from "../../src/tool/tool.js"
import { tmpdir } from "../lib/tmp.js"

const installed = path.resolve("node_modules", "effect")

describe("EffectCopy", () => {
  it.live("Tool.make refuses schemas of another copy of effect, with a message naming the cause", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const copy = path.join(root, "node_modules", "effect")
      execFileSync("mkdir", ["-p", path.dirname(copy)])
      execFileSync("cp", ["-al", installed, copy])
      const other = (yield* Effect.promise(() => import(pathToFileURL(path.join(copy, "dist", "index.js")).href))) as { readonly Schema: typeof Schema }
      expect(other.Schema).not.toBe(Schema)
      expect(EffectCopy.isOurs(other.Schema.String)).toBe(false)
      expect(() =>
        Tool.make({ description: "echo", input: other.Schema.Struct({ text: other.Schema.String }) as never, output: Schema.String, execute: () => Effect.succeed("") as never }),
      ).toThrow(EffectCopy.Messages.twoCopies)
      expect(() =>
        Tool.make({ description: "echo", input: Schema.Struct({ text: Schema.String }), output: other.Schema.String as never, execute: () => Effect.succeed("") as never }),
      ).toThrow(EffectCopy.Messages.twoCopies)
    }))

  it("accepts every kind of schema of toolgate's own copy", () => {
    for (const schema of [Schema.String, Schema.Struct({ a: Schema.Number }), Schema.Union([Schema.String, Schema.Number]), Schema.Array(Schema.Boolean), Schema.Unknown, Schema.Literal("x")]) {
      expect(EffectCopy.isOurs(schema)).toBe(true)
    }
    expect(EffectCopy.isOurs({})).toBe(false)
    expect(EffectCopy.isOurs(undefined)).toBe(false)
  })
})
