import { readFile, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer, type Scope } from "effect"
import { Permission } from "../../../src/permission/permission.js"
import { BashTool } from "../../../src/tool/builtin/bash.js"
import { harnessLayer, makeHarness, settle } from "../../lib/file-tools.js"

type Services = Layer.Success<ReturnType<typeof harnessLayer>> | Scope.Scope

/**
 * The body runs with the test process in the Location, as `toolgate call` runs in the folder it
 * was started in: there `/proc/self/cwd` is the Location for toolgate, and wherever `cd` left
 * the shell for the shell.
 */
const inWork = <A, E>(body: (tool: Effect.Success<typeof BashTool.make>, work: string) => Effect.Effect<A, E, Services>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    const before = process.cwd()
    yield* Effect.acquireRelease(
      Effect.sync(() => process.chdir(harness.work)),
      () => Effect.sync(() => process.chdir(before)),
    )
    return yield* Effect.gen(function* () {
      const tool = yield* BashTool.make
      return yield* body(tool, harness.work)
    }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root)))
  }).pipe(Effect.scoped)

const summary = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources }))
const unknown = [{ action: "external_directory", resources: [BashTool.UNKNOWN_DIRECTORY] }]

describe("BashTool and paths that depend on the process walking them", () => {
  // Before: judged as ./config in toolgate's folder (allowed), written by the shell in .git.
  const lines = [
    "cd .git && echo '[core] fsmonitor = ./x' >> /proc/self/cwd/config",
    "cd .git && echo '[core] fsmonitor = ./x' >> /proc/thread-self/cwd/config",
    "cd .git && echo '[core] fsmonitor = ./x' >> ../here/config",
    "cd -P /proc/self/cwd/.. && echo x > f",
  ]
  for (const line of lines) {
    it.live(`${line} asks external_directory for an unknown place`, () =>
      inWork((tool, work) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => writeFile(path.join(work, ".git", "config"), "[core]\n"))
          yield* Effect.promise(() => symlink("/proc/self/cwd", path.join(work, "here")))
          const { result, asked } = yield* Effect.scoped(settle(tool, { command: line }, "reject"))
          expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.DeclinedError)
          expect(summary(asked)).toEqual(unknown)
          expect(yield* Effect.promise(() => readFile(path.join(work, ".git", "config"), "utf8"))).toBe("[core]\n")
        }),
      ))
  }

  it.live("the shell really writes .git/config through /proc/self/cwd after cd .git (the oracle)", () =>
    inWork((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, ".git", "config"), "[core]\n"))
        const { asked } = yield* Effect.scoped(settle(tool, { command: "cd .git && echo '# added' >> /proc/self/cwd/config" }, "once"))
        // A write that cannot be placed also asks an opaque edit: a wildcard allow of external_directory alone does not let it land.
        expect(summary(asked)).toEqual([...unknown, { action: "edit", resources: [BashTool.UNKNOWN_DIRECTORY] }])
        expect(yield* Effect.promise(() => readFile(path.join(work, ".git", "config"), "utf8"))).toBe("[core]\n# added\n")
      }),
    ))

  it.live("a copy whose source the shell lists elsewhere cannot be listed here: it asks", () =>
    inWork((tool) =>
      Effect.gen(function* () {
        const { asked } = yield* Effect.scoped(settle(tool, { command: "mkdir -p sub && cp -r /proc/self/cwd/. sub/" }, "reject"))
        expect(summary(asked)).toEqual(unknown)
      }),
    ))

  it.live("ordinary lines are judged as before", () =>
    inWork((tool, work) =>
      Effect.gen(function* () {
        const { asked } = yield* Effect.scoped(settle(tool, { command: "mkdir -p sub && cd sub && echo hi > ../a.txt 2>/dev/null" }, "reject"))
        expect(asked).toEqual([])
        expect(yield* Effect.promise(() => readFile(path.join(work, "a.txt"), "utf8"))).toBe("hi\n")
      }),
    ))
})
