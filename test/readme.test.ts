/**
 * The README's library example runs as written (issue 13, item 6): the snippet is taken from the
 * README, written inside the package (so `import "toolgate"` resolves to this package's built
 * `dist/`, as an installed one would), run by Node in a fresh working directory, and its output
 * checked.
 */
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { tmpdir } from "./lib/tmp.js"

const run = promisify(execFile)
const ROOT = path.resolve(import.meta.dirname, "..")

/** The first ```ts block after "As a library" in the README. */
const librarySnippet = async () => {
  const readme = await readFile(path.join(ROOT, "README.md"), "utf8")
  const from = readme.indexOf("As a library")
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(from))
  if (from === -1 || match === null) throw new Error("README has no library example")
  return match[1] as string
}

describe("README", () => {
  it.live("the library example runs as written and prints what it says", () =>
    Effect.gen(function* () {
      const work = yield* tmpdir
      const folder = yield* Effect.acquireRelease(
        Effect.promise(() => mkdtemp(path.join(ROOT, ".readme-"))),
        (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true })),
      )
      const file = path.join(folder, "example.mts")
      yield* Effect.promise(async () => writeFile(file, await librarySnippet()))
      const { stdout } = yield* Effect.promise(() =>
        run(process.execPath, ["--import", import.meta.resolve("tsx"), file], {
          cwd: work,
          env: { ...process.env, HOME: work, TOOLGATE_DATA_DIR: path.join(work, "data"), TOOLGATE_CONFIG_DIR: path.join(work, "config") },
        }),
      )
      expect(stdout.trim()).toBe("success hello")
    }), 60_000)
})
