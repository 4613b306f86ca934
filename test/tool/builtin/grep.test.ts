import { spawnSync } from "node:child_process"
import { mkdir, rm, stat, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LocationMutation } from "../../../src/location/mutation.js"
import { Permission } from "../../../src/permission/permission.js"
import { GrepTool } from "../../../src/tool/builtin/grep.js"
import { Search } from "../../../src/tool/builtin/search/search.js"
import type { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { RG, askedOf, files, recordingRg, withSearchTool } from "../../lib/search.js"
import { tmpdir } from "../../lib/tmp.js"

const askGrep = globalConfig({ permission: [{ action: "grep", resource: "*", effect: "ask" }] })
const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const structured = (result: { readonly _tag: string; readonly success?: Tool.Settled }) => result.success?.structured as GrepTool.Output | undefined

describe("GrepTool", () => {
  it.live("shows the count, then each file (sorted by path) with its matching lines in order", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "b.ts": "const needle = 1\nother\nneedle()\n", "a.ts": "x\nneedle\n", "c.ts": "nothing\n" })
        const { result } = yield* settle(tool, { pattern: "needle" })
        expect(textOf(result)).toBe(
          [
            "Found 3 matches",
            "",
            `${path.join(work, "a.ts")}:`,
            "  Line 2: needle",
            "",
            `${path.join(work, "b.ts")}:`,
            "  Line 1: const needle = 1",
            "  Line 3: needle()",
          ].join("\n"),
        )
        expect(structured(result)).toEqual({
          matches: [
            { path: path.join(work, "a.ts"), line: 2, text: "needle" },
            { path: path.join(work, "b.ts"), line: 1, text: "const needle = 1" },
            { path: path.join(work, "b.ts"), line: 3, text: "needle()" },
          ],
          truncated: false,
        })
      })))

  it.live("refuses a FIFO named as its path instead of waiting on it", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        const fifo = path.join(work, "pipe")
        expect(spawnSync("mkfifo", [fifo]).status).toBe(0)
        const { result } = yield* settle(tool, { pattern: "x", path: "pipe" })
        expect(textOf(result)).toBe(Search.Messages.notFile(fifo))
      })))

  it.live("leaves out the lines of files the model may not read, as if they did not match, before the limit counts", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        const many = Array.from({ length: 50 }, () => "needle").join("\n")
        yield* files(work, { ".env": "TOKEN=needle\n", "a.ts": "needle\n", "config/.env": `${many}\n`, "secret/key": "needle\n" })
        const { result } = yield* settle(tool, { pattern: "needle", limit: 5 })
        expect(textOf(result)).toBe([`Found 1 matches`, "", `${path.join(work, "a.ts")}:`, "  Line 1: needle"].join("\n"))
        expect(structured(result)).toEqual({ matches: [{ path: path.join(work, "a.ts"), line: 1, text: "needle" }], truncated: false })
        // Probing a protected file's content tells nothing: the answer is the same whether it matches or not.
        const probe = yield* settle(tool, { pattern: "TOKEN=n" })
        const miss = yield* settle(tool, { pattern: "TOKEN=x" })
        expect(textOf(probe.result)).toBe(textOf(miss.result))
      }), globalConfig({ permission: [{ action: "read", resource: "*.env", effect: "ask" }, { action: "read", resource: "secret/*", effect: "deny" }] })))

  it.live("refuses a search root inside .git, before asking anything", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { ".git/config": "url = https://tok@x\n" })
        for (const root of [".git", ".git/config"]) {
          const { result, asked } = yield* settle(tool, { pattern: "tok", path: root })
          expect(textOf(result)).toBe(Search.Messages.insideGit(path.join(work, root)))
          expect(asked).toEqual([])
        }
      })))

  it.live("shows a matching line too long to hold as a note, without holding it (1 MiB of one letter: a 50 MB record)", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "big.txt": `${"a".repeat(1024 * 1024)}\n`, "small.txt": "a small\n" })
        const { result } = yield* settle(tool, { pattern: "a" })
        expect(textOf(result)).toBe(["Found 2 matches", "", `${path.join(work, "big.txt")}:`, GrepTool.Messages.longLine, "", `${path.join(work, "small.txt")}:`, "  Line 1: a small"].join("\n"))
      })))

  it.live("says No matches found", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.ts": "hay\n" })
        const { result } = yield* settle(tool, { pattern: "needle" })
        expect(textOf(result)).toBe("No matches found")
        expect(textOf(result)).toBe(GrepTool.Messages.noMatches)
        expect(structured(result)).toEqual({ matches: [], truncated: false })
      })))

  it.live("searches hidden files, never .git, and respects .gitignore (also when include names the ignored file)", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, {
          ".gitignore": "ignored.ts\n",
          ".git/config": "needle\n",
          ".hidden/a.ts": "needle\n",
          ".npmrc": "needle\n",
          "ignored.ts": "needle\n",
          "kept.ts": "needle\n",
        })
        const all = yield* settle(tool, { pattern: "needle" })
        expect(structured(all.result)?.matches.map((match) => match.path)).toEqual([".hidden/a.ts", ".npmrc", "kept.ts"].map((file) => path.join(work, file)))
        const included = yield* settle(tool, { pattern: "needle", include: "*.ts" })
        expect(structured(included.result)?.matches.map((match) => match.path)).toEqual([".hidden/a.ts", "kept.ts"].map((file) => path.join(work, file)))
        yield* Effect.promise(() => rm(path.join(work, ".git"), { recursive: true }))
        const outsideRepository = yield* settle(tool, { pattern: "needle", include: "ignored.ts" })
        expect(textOf(outsideRepository.result)).toBe("No matches found")
      })))

  it.live("filters by include, by file name or by path from the search folder", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "src/a.ts": "hit\n", "src/deep/b.tsx": "hit\n", "lib/src/c.ts": "hit\n", "d.md": "hit\n" })
        const paths = (output: GrepTool.Output | undefined) => output?.matches.map((match) => path.relative(work, match.path))
        expect(paths(structured((yield* settle(tool, { pattern: "hit", include: "*.{ts,tsx}" })).result))).toEqual(["lib/src/c.ts", "src/a.ts", "src/deep/b.tsx"])
        expect(paths(structured((yield* settle(tool, { pattern: "hit", include: "src/**/*.ts" })).result))).toEqual(["src/a.ts"])
        expect(paths(structured((yield* settle(tool, { pattern: "hit", include: "src/*", path: "lib" })).result))).toEqual(["lib/src/c.ts"])
        const invalid = yield* settle(tool, { pattern: "hit", include: "[ab" })
        expect(textOf(invalid.result)).toBe("Invalid glob pattern: unclosed character class in [ab")
      })))

  it.live("searches literally and case-insensitively on request", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.txt": "a.b(c)\naxb(c)\nNEEDLE\n" })
        const lines = (input: object) => Effect.map(settle(tool, input), ({ result }) => structured(result)?.matches.map((match) => match.text))
        expect(yield* lines({ pattern: "a.b(c)" })).toEqual([])
        expect(yield* lines({ pattern: "a.b\\(c\\)" })).toEqual(["a.b(c)", "axb(c)"])
        expect(yield* lines({ pattern: "a.b(c)", literal: true })).toEqual(["a.b(c)"])
        expect(yield* lines({ pattern: "needle" })).toEqual([])
        expect(yield* lines({ pattern: "needle", caseSensitive: false })).toEqual(["NEEDLE"])
      })))

  it.live("reports an invalid regex with ripgrep's message", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.txt": "x\n" })
        const { result } = yield* settle(tool, { pattern: "(unclosed" })
        expect(textOf(result)).toBe("Invalid regex pattern: regex parse error:\n    (?:(unclosed)\n    ^\nerror: unclosed group")
      })))

  it.live("reads a pattern starting with - as a pattern, not a flag", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.txt": "--version\n-n flag\nplain\n", "-dir/b.txt": "-n here\n" })
        const texts = (input: object) => Effect.map(settle(tool, input), ({ result }) => structured(result)?.matches.map((match) => match.text))
        expect(yield* texts({ pattern: "--version" })).toEqual(["--version"])
        expect(yield* texts({ pattern: "-n" })).toEqual(["-n here", "-n flag"])
        expect(yield* texts({ pattern: "-n", path: "-dir" })).toEqual(["-n here"])
      })))

  it.live("cuts long lines, drops the line break (CRLF too) and shows bytes that are not UTF-8 as U+FFFD", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        const long = `hit${"é".repeat(GrepTool.MAX_LINE_LENGTH)}`
        yield* files(work, {
          "long.txt": `${long}\n`,
          "crlf.txt": "hit crlf\r\n",
          "latin1.txt": Buffer.concat([Buffer.from("hit caf"), Buffer.from([0xe9]), Buffer.from("\n")]),
        })
        const { result } = yield* settle(tool, { pattern: "hit" })
        expect(structured(result)?.matches.map((match) => match.text)).toEqual([
          "hit crlf",
          "hit caf\uFFFD",
          `${long.slice(0, GrepTool.MAX_LINE_LENGTH)}... (line truncated to 2000 chars)`,
        ])
        expect(GrepTool.Messages.lineTruncated).toBe("... (line truncated to 2000 chars)")
        expect(GrepTool.clip(`${"😀".repeat(GrepTool.MAX_LINE_LENGTH)}\n`)).toBe("😀".repeat(GrepTool.MAX_LINE_LENGTH))
      })))

  it.live("shows the first limit lines, counts what it shows, and adds the truncation line", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        // Far more matching lines than a pipe holds: ripgrep is stopped after limit + 1.
        yield* files(work, { "many.txt": "hit\n".repeat(100_000) })
        const { result } = yield* settle(tool, { pattern: "hit", limit: 3 })
        const many = path.join(work, "many.txt")
        expect(textOf(result)).toBe(
          `Found 3 matches\n\n${many}:\n  Line 1: hit\n  Line 2: hit\n  Line 3: hit\n\n(Results are truncated: showing first 3 results. Consider using a more specific path or pattern.)`,
        )
        expect(textOf(result)).toBe(`${GrepTool.Messages.found(3)}\n\n${many}:\n  Line 1: hit\n  Line 2: hit\n  Line 3: hit\n\n${Search.Messages.truncated(3)}`)
        expect(structured(result)?.truncated).toBe(true)
      })))

  it.live("searches one file given as path, whatever include says", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.md": "hit\n", "b.md": "hit\n" })
        const { result } = yield* settle(tool, { pattern: "hit", path: "a.md", include: "*.ts" })
        expect(textOf(result)).toBe(`Found 1 matches\n\n${path.join(work, "a.md")}:\n  Line 1: hit`)
        const missing = yield* settle(tool, { pattern: "hit", path: "none" })
        expect(textOf(missing.result)).toBe(`Search path does not exist: ${path.join(work, "none")}`)
      })))

  it.live("does not follow a symbolic link inside the tree to files outside the Location", () =>
    withSearchTool(GrepTool.make, (tool, { root, work }) =>
      Effect.gen(function* () {
        yield* files(root, { "outside/secret.txt": "hit\n" })
        yield* files(work, { "a.txt": "hit\n" })
        yield* Effect.promise(() => symlink(path.join(root, "outside"), path.join(work, "linked")))
        yield* Effect.promise(() => symlink(path.join(root, "outside/secret.txt"), path.join(work, "secret.txt")))
        const { result } = yield* settle(tool, { pattern: "hit" })
        expect(structured(result)?.matches.map((match) => match.path)).toEqual([path.join(work, "a.txt")])
      })))
})

describe("GrepTool permissions", () => {
  it.live("asks grep with the pattern as the resource and * as what always saves", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.txt": "hit\n" })
        const first = yield* settle(tool, { pattern: "h.t" }, "always")
        expect(askedOf(first.asked)).toEqual([{ action: "grep", resources: ["h.t"], save: ["*"] }])
        const later = yield* settle(tool, { pattern: "other" })
        expect(later.asked).toEqual([])
      }), askGrep))

  it.live("asks external_directory first for an outside folder; a refusal never runs ripgrep", () =>
    Effect.gen(function* () {
      const bin = yield* tmpdir
      const ran = path.join(bin, "ran")
      const fake = yield* recordingRg(bin, ran)
      yield* withSearchTool(GrepTool.makeWith({ env: { RIPGREP_PATH: fake } }), (tool, { root }) =>
        Effect.gen(function* () {
          const outside = path.join(root, "outside")
          yield* files(outside, { "o.txt": "hit\n" })
          const refused = yield* settle(tool, { pattern: "hit", path: outside }, { reply: "reject", message: "no" })
          expect(askedOf(refused.asked)).toEqual([{ action: "external_directory", resources: [`${outside}/*`], save: [`${outside}/*`] }])
          expect(textOf(refused.result)).toBe(Permission.Messages.corrected("no"))
          expect(yield* exists(ran)).toBe(false)
          const allowed = yield* settle(tool, { pattern: "hit", path: path.join(outside, "o.txt") })
          expect(askedOf(allowed.asked)).toEqual([
            { action: "external_directory", resources: [`${outside}/*`], save: [`${outside}/*`] },
            { action: "grep", resources: ["hit"], save: ["*"] },
          ])
          expect(textOf(allowed.result)).toBe(`Found 1 matches\n\n${path.join(outside, "o.txt")}:\n  Line 1: hit`)
          expect(yield* exists(ran)).toBe(true)
        }), askGrep)
    }))

  it.live("refuses a path that leaves the Location through a symbolic link, without asking", () =>
    withSearchTool(GrepTool.make, (tool, { root, work }) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(root, "secret.txt"), "hit\n"))
        yield* Effect.promise(() => symlink(path.join(root, "secret.txt"), path.join(work, "escape.txt")))
        const { result, asked } = yield* settle(tool, { pattern: "hit", path: "escape.txt" })
        expect(asked).toEqual([])
        expect(textOf(result)).toBe(new LocationMutation.PathError({ reason: "location_escape", path: "escape.txt" }).message)
      }), askGrep))

  it.live("finds ripgrep once; when it is gone one search says so and the next finds the other", () =>
    Effect.gen(function* () {
      const bins = yield* tmpdir
      const [first, second] = [path.join(bins, "first"), path.join(bins, "second")]
      yield* Effect.promise(() => mkdir(first).then(() => mkdir(second)))
      yield* Effect.promise(() => symlink(RG, path.join(first, "rg")))
      const env = { PATH: [first, second].join(path.delimiter) }
      yield* withSearchTool(GrepTool.makeWith({ env, packaged: () => Promise.resolve(undefined) }), (tool, { work }) =>
        Effect.gen(function* () {
          yield* files(work, { "a.txt": "hit\n" })
          const found = `Found 1 matches\n\n${path.join(work, "a.txt")}:\n  Line 1: hit`
          expect(textOf((yield* settle(tool, { pattern: "hit" })).result)).toBe(found)
          yield* Effect.promise(() => rm(path.join(first, "rg")).then(() => symlink(RG, path.join(second, "rg"))))
          const gone = path.join(first, "rg")
          expect(textOf((yield* settle(tool, { pattern: "hit" })).result)).toBe(`Search failed: could not start ${gone}: spawn ${gone} ENOENT`)
          expect(textOf((yield* settle(tool, { pattern: "hit" })).result)).toBe(found)
        }))
    }))
})
