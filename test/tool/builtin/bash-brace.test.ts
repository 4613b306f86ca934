/**
 * A word with braces is the words bash makes of it (bash/parse-brace.ts). Under the build
 * agent's `* * allow` these lines ran unasked: one operand to the gate, two to the program.
 */
import { readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Permission } from "../../../src/permission/permission.js"
import { exists, requested, withBash } from "../../lib/bash-tool.js"
import { settle } from "../../lib/file-tools.js"

const lines: ReadonlyArray<readonly [command: string, asked: ReadonlyArray<string>, written: string]> = [
  ["cp .envr{c.in,c}", [".envrc", ".envrc/.envrc.in"], ".envrc"],
  ["uniq .envr{c.in,c}", [".envrc"], ".envrc"],
  ["link .envr{c.in,c}", [".envrc"], ".envrc"],
  ["install .envr{c.in,c}", [".envrc", ".envrc/.envrc.in"], ".envrc"],
]

describe("BashTool and words with braces", () => {
  for (const [command, asked, written] of lines) {
    it.live(`${command} asks edit on ${written}, and really writes it once allowed`, () =>
      withBash((tool, work) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => writeFile(path.join(work, ".envrc.in"), "export A=1\n"))
          const refused = yield* Effect.scoped(settle(tool, { command }, "reject"))
          expect(refused.result._tag === "Failure" && refused.result.failure).toBeInstanceOf(Permission.DeclinedError)
          expect(requested(refused.asked)).toEqual([{ action: "edit", resources: asked }])
          expect(yield* exists(path.join(work, written))).toBe(false)
          // The oracle: once allowed, the program writes the file the gate asked about.
          yield* Effect.scoped(settle(tool, { command }, "once"))
          expect(yield* exists(path.join(work, written))).toBe(true)
        }),
      ))
  }

  it.live("mv t{oolgate.json,x} asks before it takes the project's config away", () =>
    withBash((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, "toolgate.json"), "{}\n"))
        const { asked } = yield* Effect.scoped(settle(tool, { command: "mv t{oolgate.json,x}" }, "reject"))
        expect(requested(asked)).toEqual([{ action: "edit", resources: ["toolgate.json", "tx/toolgate.json"] }])
        expect(yield* Effect.promise(() => readFile(path.join(work, "toolgate.json"), "utf8"))).toBe("{}\n")
      }),
    ))

  it.live("plain uses of braces run as before", () =>
    withBash((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, "a.txt"), "a\n"))
        for (const command of ["cp a.txt{,.bak}", "mkdir -p sub/{x,y} && touch sub/{x,y}/f"]) {
          const { asked } = yield* Effect.scoped(settle(tool, { command }, "reject"))
          expect([command, asked]).toEqual([command, []])
        }
        for (const made of ["a.txt.bak", "sub/x/f", "sub/y/f"]) expect([made, yield* exists(path.join(work, made))]).toEqual([made, true])
      }),
    ))
})
