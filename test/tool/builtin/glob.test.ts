import { rm, stat, symlink } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { LocationMutation } from "../../../src/location/mutation.js"
import { Permission } from "../../../src/permission/permission.js"
import { GlobTool } from "../../../src/tool/builtin/glob.js"
import { Search } from "../../../src/tool/builtin/search/search.js"
import type { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { askedOf, files, recordingRg, sleepingRg, withSearchTool } from "../../lib/search.js"
import { tmpdir } from "../../lib/tmp.js"

const askGlob = globalConfig({ permission: [{ action: "glob", resource: "*", effect: "ask" }] })
const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const structured = (result: { readonly _tag: string; readonly success?: Tool.Settled }) => result.success?.structured

describe("GlobTool", () => {
  it.live("lists matching files as absolute paths sorted by path, at any depth for a pattern without /", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "b.ts": "", "a.ts": "", "src/z.ts": "", "src/deep/y.ts": "", "src/x.js": "", "notes.md": "" })
        const { result } = yield* settle(tool, { pattern: "*.ts" })
        const expected = ["a.ts", "b.ts", "src/deep/y.ts", "src/z.ts"].map((file) => path.join(work, file))
        expect(textOf(result)).toBe(expected.join("\n"))
        expect(structured(result)).toEqual({ files: expected, truncated: false })
      })))

  it.live("anchors a pattern with / at the search folder, and searches path when given", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "src/a.ts": "", "src/deep/b.ts": "", "lib/src/c.ts": "", "src/d.js": "" })
        const anchored = yield* settle(tool, { pattern: "src/**/*.ts" })
        expect(textOf(anchored.result)).toBe([path.join(work, "src/a.ts"), path.join(work, "src/deep/b.ts")].join("\n"))
        const inside = yield* settle(tool, { pattern: "src/*.ts", path: "lib" })
        expect(textOf(inside.result)).toBe(path.join(work, "lib/src/c.ts"))
        const alternatives = yield* settle(tool, { pattern: "*.{js,ts}", path: "src" })
        expect(textOf(alternatives.result)).toBe(["src/a.ts", "src/d.js", "src/deep/b.ts"].map((file) => path.join(work, file)).join("\n"))
      })))

  it.live("says No files found", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.ts": "" })
        const { result } = yield* settle(tool, { pattern: "*.rs" })
        expect(textOf(result)).toBe("No files found")
        expect(textOf(result)).toBe(GlobTool.Messages.noFiles)
        expect(structured(result)).toEqual({ files: [], truncated: false })
      })))

  it.live("respects .gitignore even for files the pattern names, in a git repository or not", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { ".gitignore": "ignored.ts\nbuild/\n", "ignored.ts": "", "kept.ts": "", "build/out.ts": "", "src/ignored.ts": "" })
        const inRepository = yield* settle(tool, { pattern: "*.ts" })
        expect(textOf(inRepository.result)).toBe(path.join(work, "kept.ts"))
        yield* Effect.promise(() => rm(path.join(work, ".git"), { recursive: true }))
        const withoutRepository = yield* settle(tool, { pattern: "**/*.ts", hidden: true })
        expect(textOf(withoutRepository.result)).toBe(path.join(work, "kept.ts"))
      })))

  it.live("never lists .git, even with hidden files and a pattern that names it", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { ".git/config": "", ".git/HEAD": "", "sub/.git": "gitdir: x", "a.txt": "" })
        for (const pattern of ["**", ".git/*", "**/.git/**", "config", "*"]) {
          const { result } = yield* settle(tool, { pattern, hidden: true })
          expect({ pattern, text: textOf(result) }).toEqual({ pattern, text: pattern.includes(".git") || pattern === "config" ? "No files found" : path.join(work, "a.txt") })
        }
      })))

  it.live("skips hidden files and folders unless hidden is true", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { ".env.ts": "", ".github/ci.ts": "", "src/.local.ts": "", "src/a.ts": "" })
        for (const pattern of ["*.ts", "**", "src/*"]) {
          const shown = yield* settle(tool, { pattern })
          expect({ pattern, text: textOf(shown.result) }).toEqual({ pattern, text: path.join(work, "src/a.ts") })
        }
        const all = yield* settle(tool, { pattern: "*.ts", hidden: true })
        expect(textOf(all.result)).toBe([".env.ts", ".github/ci.ts", "src/.local.ts", "src/a.ts"].map((file) => path.join(work, file)).join("\n"))
      })))

  it.live("shows the first limit files and the truncation line when more exist", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`f${index}.txt`, ""])))
        const cut = yield* settle(tool, { pattern: "*.txt", limit: 3 })
        const shown = (structured(cut.result) as GlobTool.Output).files
        expect(shown).toHaveLength(3)
        expect(textOf(cut.result)).toBe(
          `${shown.join("\n")}\n\n(Results are truncated: showing first 3 results. Consider using a more specific path or pattern.)`,
        )
        expect(textOf(cut.result)).toBe(`${shown.join("\n")}\n\n${Search.Messages.truncated(3)}`)
        const exact = yield* settle(tool, { pattern: "*.txt", limit: 5 })
        expect(structured(exact.result)).toEqual({ files: Array.from({ length: 5 }, (_, index) => path.join(work, `f${index}.txt`)), truncated: false })
        const byDefault = yield* settle(tool, { pattern: "*.txt" })
        expect((structured(byDefault.result) as GlobTool.Output).files).toHaveLength(5)
      })))

  it.live("reads a pattern or a file name starting with - as a pattern, not a flag", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "-x.ts": "", "--help": "", "-dir/a.ts": "" })
        const dash = yield* settle(tool, { pattern: "-x*" })
        expect(textOf(dash.result)).toBe(path.join(work, "-x.ts"))
        const flag = yield* settle(tool, { pattern: "--help" })
        expect(textOf(flag.result)).toBe(path.join(work, "--help"))
        const folder = yield* settle(tool, { pattern: "*.ts", path: "-dir" })
        expect(textOf(folder.result)).toBe(path.join(work, "-dir/a.ts"))
      })))

  it.live("refuses an invalid pattern before asking anything", () =>
    withSearchTool(GlobTool.make, (tool) =>
      Effect.gen(function* () {
        const { result, asked } = yield* settle(tool, { pattern: "src/{a,b" })
        expect(asked).toEqual([])
        expect(textOf(result)).toBe("Invalid glob pattern: unclosed alternate group in src/{a,b")
      }), askGlob))

  it.live("reports a missing search path and one that is not a folder", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.txt": "" })
        const missing = yield* settle(tool, { pattern: "*", path: "nope" })
        expect(textOf(missing.result)).toBe(`Search path does not exist: ${path.join(work, "nope")}`)
        const file = yield* settle(tool, { pattern: "*", path: "a.txt" })
        expect(textOf(file.result)).toBe(`Search path is not a directory: ${path.join(work, "a.txt")}`)
      })))

  it.live("does not follow a symbolic link inside the tree to files outside the Location", () =>
    withSearchTool(GlobTool.make, (tool, { root, work }) =>
      Effect.gen(function* () {
        yield* files(root, { "outside/secret.ts": "" })
        yield* files(work, { "a.ts": "" })
        yield* Effect.promise(() => symlink(path.join(root, "outside"), path.join(work, "linked")))
        yield* Effect.promise(() => symlink(path.join(root, "outside/secret.ts"), path.join(work, "secret.ts")))
        const { result } = yield* settle(tool, { pattern: "**/*.ts" })
        expect(textOf(result)).toBe(path.join(work, "a.ts"))
      })))
})

describe("GlobTool permissions", () => {
  it.live("asks glob with the pattern as the resource and * as what always saves", () =>
    withSearchTool(GlobTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { "a.ts": "" })
        const first = yield* settle(tool, { pattern: "*.ts" }, "always")
        expect(askedOf(first.asked)).toEqual([{ action: "glob", resources: ["*.ts"], save: ["*"] }])
        expect(textOf(first.result)).toBe(path.join(work, "a.ts"))
        const later = yield* settle(tool, { pattern: "**/*.md" })
        expect(later.asked).toEqual([])
      }), askGlob))

  it.live("asks external_directory for a folder outside the Location first, then glob", () =>
    withSearchTool(GlobTool.make, (tool, { root }) =>
      Effect.gen(function* () {
        const outside = path.join(root, "outside")
        yield* files(outside, { "o.ts": "" })
        const { result, asked } = yield* settle(tool, { pattern: "*.ts", path: outside })
        expect(askedOf(asked)).toEqual([
          { action: "external_directory", resources: [`${outside}/*`], save: [`${outside}/*`] },
          { action: "glob", resources: ["*.ts"], save: ["*"] },
        ])
        expect(textOf(result)).toBe(path.join(outside, "o.ts"))
      }), askGlob))

  it.live("never runs ripgrep when the external folder is refused or glob is denied", () =>
    Effect.gen(function* () {
      const bin = yield* tmpdir
      const ran = path.join(bin, "ran")
      const fake = yield* recordingRg(bin, ran)
      yield* withSearchTool(GlobTool.makeWith({ env: { RIPGREP_PATH: fake } }), (tool, { root }) =>
        Effect.gen(function* () {
          const outside = path.join(root, "outside")
          yield* files(outside, { "o.ts": "" })
          const refused = yield* settle(tool, { pattern: "*.ts", path: outside }, { reply: "reject", message: "stay inside" })
          expect(textOf(refused.result)).toBe(Permission.Messages.corrected("stay inside"))
          expect(yield* exists(ran)).toBe(false)
          const denied = yield* settle(tool, { pattern: "secret*" })
          expect(denied.result._tag === "Failure" && denied.result.failure).toBeInstanceOf(Permission.BlockedError)
          expect(yield* exists(ran)).toBe(false)
          const allowed = yield* settle(tool, { pattern: "*.ts", path: outside })
          expect(textOf(allowed.result)).toBe(path.join(outside, "o.ts"))
          expect(yield* exists(ran)).toBe(true)
        }), globalConfig({ permission: [{ action: "glob", resource: "secret*", effect: "deny" }] }))
    }))

  it.live("refuses a path that leaves the Location through a symbolic link, without asking", () =>
    withSearchTool(GlobTool.make, (tool, { root, work }) =>
      Effect.gen(function* () {
        yield* files(root, { "outside/secret.ts": "" })
        yield* Effect.promise(() => symlink(path.join(root, "outside"), path.join(work, "escape")))
        const { result, asked } = yield* settle(tool, { pattern: "*.ts", path: "escape" })
        expect(asked).toEqual([])
        expect(textOf(result)).toBe(new LocationMutation.PathError({ reason: "location_escape", path: "escape" }).message)
      }), askGlob))
})

describe("GlobTool timeout", () => {
  it.live("gives up after the timeout with the search message", () =>
    Effect.gen(function* () {
      const fake = yield* sleepingRg(yield* tmpdir)
      yield* withSearchTool(GlobTool.makeWith({ env: { RIPGREP_PATH: fake }, timeout: Duration.millis(200) }), (tool) =>
        Effect.gen(function* () {
          const { result } = yield* settle(tool, { pattern: "*" })
          expect(textOf(result)).toBe("Search timed out after 0.2 seconds. Consider using a more specific path or pattern.")
        }))
    }))
})
