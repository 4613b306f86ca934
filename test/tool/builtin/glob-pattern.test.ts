import { spawnSync } from "node:child_process"
import { writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { GlobPattern } from "../../../src/tool/builtin/search/glob-pattern.js"
import { Ripgrep } from "../../../src/tool/builtin/search/ripgrep.js"
import { RG } from "../../lib/search.js"
import { tmpdir } from "../../lib/tmp.js"

const compiled = (pattern: string) => {
  const result = GlobPattern.compile(pattern)
  if (result instanceof GlobPattern.InvalidError) throw new Error(result.message)
  return result
}

describe("GlobPattern.compile", () => {
  const cases: ReadonlyArray<{ readonly pattern: string; readonly yes: ReadonlyArray<string>; readonly no: ReadonlyArray<string> }> = [
    { pattern: "*.ts", yes: ["a.ts", "src/a.ts", "src/deep/a.ts", ".hidden.ts"], no: ["a.tsx", "a.ts/x", "src/a.js"] },
    { pattern: "**/*.ts", yes: ["a.ts", "src/deep/a.ts"], no: ["a.tsx"] },
    { pattern: "src/*.ts", yes: ["src/a.ts"], no: ["src/deep/a.ts", "x/src/a.ts", "a.ts"] },
    { pattern: "/src/*.ts", yes: ["src/a.ts"], no: ["x/src/a.ts"] },
    { pattern: "./src/*.ts", yes: ["src/a.ts"], no: ["x/src/a.ts"] },
    { pattern: "src/**/*.ts", yes: ["src/a.ts", "src/x/y/a.ts"], no: ["lib/a.ts", "x/src/a.ts", "src/a.js"] },
    { pattern: "**/test/*.ts", yes: ["test/a.ts", "x/y/test/a.ts"], no: ["test/x/a.ts", "mytest/a.ts"] },
    { pattern: "src/**", yes: ["src/a", "src/x/y/z.md"], no: ["src", "lib/a"] },
    { pattern: "src/", yes: ["src/a", "src/x/y"], no: ["x/src/a"] },
    { pattern: "**", yes: ["a", "x/y/z"], no: [] },
    { pattern: "*.{ts,tsx}", yes: ["a.ts", "b/a.tsx"], no: ["a.js", "a.t"] },
    { pattern: "{src,lib}/*.ts", yes: ["src/a.ts", "lib/a.ts"], no: ["test/a.ts", "x/src/a.ts"] },
    { pattern: "?.md", yes: ["a.md", "x/é.md", "x/😀.md"], no: ["ab.md", ".md"] },
    { pattern: "[ab].txt", yes: ["a.txt", "b.txt"], no: ["c.txt"] },
    { pattern: "[!ab].txt", yes: ["c.txt"], no: ["a.txt"] },
    { pattern: "[^ab].txt", yes: ["c.txt"], no: ["b.txt"] },
    { pattern: "[a-c]x", yes: ["bx"], no: ["dx"] },
    { pattern: "[]]x", yes: ["]x"], no: ["ax"] },
    { pattern: "\\*.md", yes: ["*.md"], no: ["a.md"] },
    { pattern: "a(b)+c$.txt", yes: ["a(b)+c$.txt"], no: ["abc.txt"] },
    { pattern: "-x*", yes: ["-x.ts", "d/-xy"], no: ["x-"] },
    { pattern: "a**b", yes: ["ab", "aXb"], no: ["a/b"] },
    { pattern: "a:b.ts", yes: ["a:b.ts"], no: ["ab.ts"] },
  ]
  for (const c of cases) {
    it(`matches ${c.pattern}`, () => {
      const pattern = compiled(c.pattern)
      expect(c.yes.filter((file) => !pattern.test(file))).toEqual([])
      expect(c.no.filter((file) => pattern.test(file))).toEqual([])
    })
  }

  const prefilters: ReadonlyArray<readonly [string, string | undefined]> = [
    ["*.ts", "*.ts"],
    ["**/*.ts", "*.ts"],
    ["src/**/*.{ts,tsx}", "*.{ts,tsx}"],
    ["src/**", undefined],
    ["**", undefined],
    ["*", undefined],
    ["src/*", undefined],
    ["a:b.ts", undefined],
    ["{src/a,lib/b}.ts", undefined],
    ["[/]x", undefined],
    ["?.md", undefined],
    ["[é]x", undefined],
    ["é*.md", "é*.md"],
    // An escaped `/` is a segment break the scan does not see: no prefilter, so nothing is dropped.
    ["a\\/b.ts", undefined],
  ]
  for (const [pattern, prefilter] of prefilters) {
    it(`prefilters ${pattern} by ${prefilter ?? "nothing"}`, () => {
      expect(compiled(pattern).prefilter).toBe(prefilter)
    })
  }

  const invalid: ReadonlyArray<readonly [string, string]> = [
    ["[ab", "Invalid glob pattern: unclosed character class in [ab"],
    ["{a,b", "Invalid glob pattern: unclosed alternate group in {a,b"],
    ["{a,{b,c}}", "Invalid glob pattern: nested alternate groups are not allowed in {a,{b,c}}"],
    ["a\\", "Invalid glob pattern: dangling escape in a\\"],
    ["[z-a]", `Invalid glob pattern: ${GlobPattern.REASONS.invalidClass} in [z-a]`],
    ["*.[b-a]x", `Invalid glob pattern: ${GlobPattern.REASONS.invalidClass} in *.[b-a]x`],
  ]
  for (const [pattern, message] of invalid) {
    it(`refuses ${pattern}`, () => {
      const result = GlobPattern.compile(pattern)
      expect(result).toBeInstanceOf(GlobPattern.InvalidError)
      expect((result as GlobPattern.InvalidError).message).toBe(message)
    })
  }

  it.live("agrees with ripgrep's file-type globs on file names, so a prefilter never drops a match", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const names = ["a.ts", "a.tsx", "b.js", "[x].md", "c.md", "ab.md", "-x.ts", "x-", "a(b)+c$.txt", "é.md", "bx", "dx", "]x", "*.md", "éa.md"]
      yield* Effect.promise(() => Promise.all(names.map((name) => writeFile(path.join(dir, name), ""))))
      for (const glob of ["*.ts", "*.{ts,tsx}", "*.md", "é*.md", "[!a]*", "[a-c]x", "[]]x", "\\*.md", "a(b)+c$.txt", "-x*", "\\[x\\].md"]) {
        const listed = spawnSync(RG, ["--no-config", "--files", ...Ripgrep.typeArgs(glob), "--", dir], { encoding: "utf8" })
        const byRipgrep = listed.stdout.split("\n").filter((line) => line !== "").map((line) => path.basename(line)).sort()
        expect({ glob, names: names.filter((name) => compiled(glob).test(name)).sort() }).toEqual({ glob, names: byRipgrep })
      }
    }))
})
