import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BashLanding } from "../../../../src/tool/builtin/bash/landing.js"

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-landing-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const files = (entries: ReadonlyArray<string>) => {
  for (const entry of entries) {
    mkdirSync(path.dirname(path.join(root, entry)), { recursive: true })
    writeFileSync(path.join(root, entry), "x")
  }
}
files(["dst/keep", "plain.txt", "src/.envrc", "src/a.txt", "src/deep/.git/config", "big/.keep"])
// A link to a folder inside a copied tree: `cp -rL linked dst` copies what it holds; a link to its own folder loops.
files(["hooks/pre-commit", "linked/.keep", "looped/.keep"])
symlinkSync(path.join(root, "hooks"), path.join(root, "linked", "hooks"))
symlinkSync(".", path.join(root, "looped", "self"))
// Copied with its tree, each entry lands at two paths (`dst/big/f` and `dst/f`): half the bound and one more is too many.
for (let n = 0; n < BashLanding.MAX_PATHS / 2 + 1; n++) writeFileSync(path.join(root, "big", `f${n}`), "")

const at = (...parts: ReadonlyArray<string>) => path.join(root, ...parts)
const paths = (destination: string, sources: Parameters<typeof BashLanding.paths>[2]) => BashLanding.paths(at(destination), root, sources, { caseInsensitive: false })

describe("BashLanding.paths: what lands in a folder destination", () => {
  it("nothing lands inside a file: the program writes the file itself", () => {
    expect(paths("plain.txt", [{ path: "src/.envrc", tree: false }])).toEqual([])
  })

  it("a source lands under its own name, in a folder or where one will be", () => {
    expect(paths("dst", [{ path: "src/.envrc", tree: false }])).toEqual([at("dst", ".envrc")])
    expect(paths("new", [{ path: "src/a.txt/", tree: false }])).toEqual([at("new", "a.txt")])
  })

  it("a folder copied with its tree brings every path in it, under its name and directly (`cp -r src new`)", () => {
    const found = paths("dst", [{ path: "src", tree: true }]) ?? []
    expect(found).toContain(at("dst", "src", "deep", ".git", "config"))
    expect(found).toContain(at("dst", "deep", ".git", "config"))
    expect(paths("dst", [{ path: "src/.", tree: true }])).toContain(at("dst", ".envrc"))
    // Without its tree, a folder source is only its name.
    expect(paths("dst", [{ path: "src", tree: false }])).toEqual([at("dst", "src")])
  })

  it("a link to a folder inside the tree is walked, and a link loop is unknowable", () => {
    const found = paths("dst", [{ path: "linked", tree: true }]) ?? []
    expect(found).toContain(at("dst", "linked", "hooks", "pre-commit"))
    expect(found).toContain(at("dst", "hooks", "pre-commit"))
    expect(paths("dst", [{ path: "looped", tree: true }])).toBeUndefined()
  })

  it("--parents lands the source's whole path", () => {
    expect(paths("dst", [{ path: "src/deep/.git/config", tree: false, parents: true }])).toEqual([at("dst", "src", "deep", ".git", "config")])
  })

  it("a plain glob is expanded against its folder, dot files included", () => {
    expect([...(paths("dst", [{ path: undefined, glob: "src/*", tree: false }]) ?? [])].sort()).toEqual([at("dst", ".envrc"), at("dst", "a.txt"), at("dst", "deep")])
    expect(paths("dst", [{ path: undefined, glob: "src/*.txt", tree: false }])).toEqual([at("dst", "a.txt")])
    expect(paths("dst", [{ path: undefined, glob: "src/?envr[a-z]", tree: false }])).toEqual([at("dst", ".envrc")])
    expect(paths("dst", [{ path: undefined, glob: "nowhere/*", tree: false }])).toEqual([])
  })

  it("is unknowable for a source that is not static, a glob in a folder name, or too many paths", () => {
    expect(paths("dst", [{ path: undefined, tree: false }])).toBeUndefined()
    expect(paths("dst", [{ path: undefined, glob: "s*/a.txt", tree: false }])).toBeUndefined()
    expect(paths("dst", [{ path: "big", tree: true }])).toBeUndefined()
  })
})
