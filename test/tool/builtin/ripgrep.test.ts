import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber } from "effect"
import { Ripgrep } from "../../../src/tool/builtin/search/ripgrep.js"
import { RG, script, sleepingRg } from "../../lib/search.js"
import { tmpdir } from "../../lib/tmp.js"
import { alive } from "../../lib/process-group.js"

const missing = () => Promise.resolve(undefined)


describe("Ripgrep.locate", () => {
  it.live("prefers RIPGREP_PATH over the shipped binary and PATH", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const override = yield* script(path.join(dir, "my-rg"), `exec '${RG}' "$@"`)
      const found = yield* Ripgrep.locate({ env: { RIPGREP_PATH: override, PATH: path.dirname(RG) } })
      expect(found).toBe(override)
    }))

  it.live("refuses a RIPGREP_PATH that is not an executable file instead of falling back", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const plain = path.join(dir, "rg.txt")
      yield* Effect.promise(() => writeFile(plain, "not a program"))
      for (const override of [plain, path.join(dir, "absent"), dir]) {
        const error = yield* Effect.flip(Ripgrep.locate({ env: { RIPGREP_PATH: override } }))
        expect(error).toBeInstanceOf(Ripgrep.NotFoundError)
        expect(error.message).toBe(`RIPGREP_PATH is not an executable file: ${override}`)
      }
    }))

  it.live("uses the binary shipped by @vscode/ripgrep by default", () =>
    Effect.gen(function* () {
      expect(yield* Ripgrep.locate({ env: { PATH: "" } })).toBe(RG)
    }))

  it.live("falls back to rg on PATH when the platform package is missing", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const bin = path.join(dir, "bin")
      yield* Effect.promise(() => mkdir(bin))
      yield* Effect.promise(() => mkdir(path.join(dir, "empty")))
      yield* Effect.promise(() => symlink(RG, path.join(bin, "rg")))
      const PATH = [path.join(dir, "empty"), path.join(dir, "nowhere"), bin].join(path.delimiter)
      expect(yield* Ripgrep.locate({ env: { PATH }, packaged: missing })).toBe(path.join(bin, "rg"))
    }))

  it.live("fails with a clear message when there is no rg anywhere", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const error = yield* Effect.flip(Ripgrep.locate({ env: { PATH: dir }, packaged: missing }))
      expect(error.message).toBe(
        "ripgrep (rg) was not found: install the @vscode/ripgrep package for this platform or ripgrep itself, or set RIPGREP_PATH to an rg binary",
      )
      expect(error.message).toBe(Ripgrep.Messages.notFound)
    }))
})

describe("Ripgrep.locator", () => {
  /**
   * Two folders on PATH, rg in the first; a locator that has found it there; then rg moved from
   * the first folder to the second, so a fresh lookup would find the other one.
   */
  const moved = Effect.gen(function* () {
    const dir = yield* tmpdir
    const [first, second] = [path.join(dir, "first"), path.join(dir, "second")]
    yield* Effect.promise(() => mkdir(first).then(() => mkdir(second)).then(() => symlink(RG, path.join(first, "rg"))))
    const locator = Ripgrep.locator({ env: { PATH: [first, second].join(path.delimiter) }, packaged: missing })
    expect(yield* locator.locate).toBe(path.join(first, "rg"))
    yield* Effect.promise(() => rm(path.join(first, "rg")).then(() => symlink(RG, path.join(second, "rg"))))
    return { dir, locator, gone: path.join(first, "rg"), other: path.join(second, "rg") }
  })

  it.live("finds the binary once, and looks again only after it could not be started", () =>
    Effect.gen(function* () {
      const { dir, locator, gone, other } = yield* moved
      // Gone from disk: still the remembered answer (nothing is checked per search)...
      const remembered = yield* locator.locate
      expect(remembered).toBe(gone)
      // ...until a search cannot start it: that search fails, the next lookup finds the other one.
      const error = yield* Effect.flip(
        Ripgrep.search({ binary: remembered, args: [], cwd: dir, separator: "\n", parse: (record) => record, limit: 1, unstartable: locator.forget }),
      )
      expect(error.message).toBe(`Search failed: could not start ${remembered}: spawn ${remembered} ENOENT`)
      expect(yield* locator.locate).toBe(other)
    }))

  it.live("forgets only the binary that failed", () =>
    Effect.gen(function* () {
      const { dir, locator, gone, other } = yield* moved
      locator.forget(path.join(dir, "elsewhere", "rg"))
      expect(yield* locator.locate).toBe(gone)
      locator.forget(gone)
      expect(yield* locator.locate).toBe(other)
    }))
})

describe("Ripgrep.diagnose", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly stderr: string; readonly expected: Ripgrep.Diagnosis }> = [
    {
      name: "a regex parse error",
      stderr: "rg: regex parse error:\n    (?:()\n    ^\nerror: unclosed group\n",
      expected: { type: "regex", detail: "regex parse error:\n    (?:()\n    ^\nerror: unclosed group" },
    },
    {
      name: "a line break in a regex",
      stderr: 'rg: the literal "\\n" is not allowed in a regex\n',
      expected: { type: "regex", detail: 'the literal "\\n" is not allowed in a regex' },
    },
    {
      name: "a glob parse error",
      stderr: "rg: error parsing glob '{a': unclosed alternate group; missing '}'\n",
      expected: { type: "glob", detail: "error parsing glob '{a': unclosed alternate group; missing '}'" },
    },
    {
      name: "only per-path I/O errors",
      stderr: "rg: /w/secret: Permission denied (os error 13)\nrg: /w/gone: No such file or directory (os error 2)\n",
      expected: { type: "partial" },
    },
    { name: "anything else", stderr: "rg: something broke\n", expected: { type: "failed", detail: "something broke" } },
    { name: "silence", stderr: "", expected: { type: "failed", detail: "ripgrep exited with code 2" } },
  ]
  for (const c of cases) {
    it(`reads ${c.name}`, () => {
      expect(Ripgrep.diagnose(c.stderr)).toEqual(c.expected)
    })
  }
})

describe("Ripgrep.search", () => {
  const lines = (dir: string) => ({ binary: RG, cwd: dir, separator: "\n", parse: (record: string) => record })

  it.live("stops ripgrep once limit + 1 results are in, while it would print many more", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      // 200 000 matching lines: megabytes of output, far more than a pipe holds, so ripgrep is still running.
      yield* Effect.promise(() => writeFile(path.join(dir, "hits.txt"), "hit\n".repeat(200_000)))
      const found = yield* Ripgrep.search({ ...lines(dir), args: ["--no-config", "--regexp=hit", "--", dir], limit: 10 })
      expect(found.results).toHaveLength(10)
      expect(found.truncated).toBe(true)
      expect(found.stopped).toBe(true)
      const all = yield* Ripgrep.search({ ...lines(dir), args: ["--no-config", "--count", "--regexp=hit", "--", dir], limit: 10 })
      expect(all.results).toEqual([`${path.join(dir, "hits.txt")}:200000`])
      expect(all.stopped).toBe(false)
    }))

  it.live("returns everything below the limit, and nothing (not an error) on exit code 1", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      yield* Effect.promise(() => writeFile(path.join(dir, "a.txt"), "one\ntwo\n"))
      const some = yield* Ripgrep.search({ ...lines(dir), args: ["--no-config", "--no-filename", "--regexp=o", "--", dir], limit: 2 })
      expect(some).toEqual({ results: ["one", "two"], truncated: false, stopped: false })
      const none = yield* Ripgrep.search({ ...lines(dir), args: ["--no-config", "--regexp=zzz", "--", dir], limit: 2 })
      expect(none).toEqual({ results: [], truncated: false, stopped: false })
    }))

  it.live("reports a regex parse error as ripgrep words it", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const error = yield* Effect.flip(Ripgrep.search({ ...lines(dir), args: ["--no-config", "--regexp=(", "--", dir], limit: 2 }))
      expect(error).toBeInstanceOf(Ripgrep.InvalidPatternError)
      expect(error.message).toBe("Invalid regex pattern: regex parse error:\n    (?:()\n    ^\nerror: unclosed group")
    }))

  it.live("times out, and the process is gone when the error arrives", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const binary = yield* sleepingRg(dir)
      const pids: Array<number> = []
      const parse = (record: string) => void pids.push(Number(record))
      const error = yield* Effect.flip(Ripgrep.search({ binary, args: [], cwd: dir, separator: "\n", parse, limit: 1, timeout: Duration.millis(300) }))
      expect(error).toBeInstanceOf(Ripgrep.TimeoutError)
      expect(error.message).toBe("Search timed out after 0.3 seconds. Consider using a more specific path or pattern.")
      expect(Ripgrep.Messages.timedOut(Duration.toSeconds(Ripgrep.DEFAULT_TIMEOUT))).toBe(
        "Search timed out after 60 seconds. Consider using a more specific path or pattern.",
      )
      expect(pids).toHaveLength(1)
      expect(alive(pids[0] as number)).toBe(false)
    }))

  it.live("kills ripgrep when interrupted", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const binary = yield* sleepingRg(dir)
      const started: { resolve?: (pid: number) => void } = {}
      const pidOf = new Promise<number>((resolve) => {
        started.resolve = resolve
      })
      const parse = (record: string) => void started.resolve?.(Number(record))
      const fiber = yield* Effect.forkChild(Ripgrep.search({ binary, args: [], cwd: dir, separator: "\n", parse, limit: 1 }))
      const pid = yield* Effect.promise(() => pidOf)
      expect(alive(pid)).toBe(true)
      yield* Fiber.interrupt(fiber)
      expect(alive(pid)).toBe(false)
    }))

  it.live("fails clearly when the binary cannot be started", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const binary = path.join(dir, "absent-rg")
      const error = yield* Effect.flip(Ripgrep.search({ binary, args: [], cwd: dir, separator: "\n", parse: (record) => record, limit: 1 }))
      expect(error.message).toBe(`Search failed: could not start ${binary}: spawn ${binary} ENOENT`)
    }))

  it.live("keeps a record split over many chunks whole", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const long = "x".repeat(1_000_000)
      yield* Effect.promise(() => writeFile(path.join(dir, "long.txt"), `${long}\nshort x\n`))
      const found = yield* Ripgrep.search({ ...lines(dir), args: ["--no-config", "--no-filename", "--regexp=x", "--", dir], limit: 5 })
      expect(found.results).toEqual([long, "short x"])
      expect(yield* Effect.promise(() => readFile(path.join(dir, "long.txt"), "utf8"))).toBe(`${long}\nshort x\n`)
    }))
})
