/** The warm-up runs the common path in a throwaway folder and leaves nothing behind (cli/warm/warm-up.ts). */
import { readdir } from "node:fs/promises"
import os from "node:os"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Commands } from "../../../src/cli/commands.js"
import { WarmUp } from "../../../src/cli/warm/warm-up.js"

const leftovers = () => readdir(os.tmpdir()).then((names) => names.filter((name) => name.startsWith("toolgate-warm-up-")))

describe("WarmUp", () => {
  it.live(
    "runs call, tools and an MCP session, and removes its folder",
    () =>
      Effect.gen(function* () {
        const before = yield* Effect.promise(leftovers)
        const loaded: Array<string> = []
        const codes = yield* Effect.promise(() =>
          WarmUp.run({
            load: (name) => {
              loaded.push(name)
              return Commands.load(name)
            },
          }),
        )
        expect(loaded).toEqual(WarmUp.COMMANDS.map((argv) => argv[0]))
        expect(codes).toEqual(WarmUp.COMMANDS.map(() => 0))
        expect(yield* Effect.promise(leftovers)).toEqual(before)
      }),
    120_000,
  )
})
