import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { RealForm } from "../../src/location/real-form.js"

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "toolgate-real-form-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Where the kernel puts a file written at `at` (a dangling link is followed, as `>` does): its real path after the write, or undefined when the write fails. */
const written = (at: string): string | undefined => {
  try {
    writeFileSync(at, "x")
  } catch {
    return undefined
  }
  // The C library's realpath: Node's JavaScript one resolves a link's `..` on paper.
  const real = realpathSync.native(at)
  unlinkSync(real)
  return real
}

describe("RealForm.of", () => {
  it("walks a dangling link's `..` after the link before it, as the kernel does", () => {
    const base = path.join(root, "dotdot")
    mkdirSync(path.join(base, "work"), { recursive: true })
    mkdirSync(path.join(base, "elsewhere", "deep"), { recursive: true })
    symlinkSync(path.join(base, "elsewhere", "deep"), path.join(base, "work", "d"))
    symlinkSync("d/../victim.txt", path.join(base, "work", "y"))
    expect(RealForm.of(path.join(base, "work", "y"))).toBe(path.join(base, "elsewhere", "victim.txt"))
    expect(written(path.join(base, "work", "y"))).toBe(path.join(base, "elsewhere", "victim.txt"))
  })

  it("follows a chain of dangling links, relative and absolute", () => {
    const base = path.join(root, "chain")
    mkdirSync(path.join(base, "a"), { recursive: true })
    mkdirSync(path.join(base, "b"), { recursive: true })
    symlinkSync("../b/second", path.join(base, "a", "first"))
    symlinkSync(path.join(base, "b", "target.txt"), path.join(base, "b", "second"))
    expect(RealForm.of(path.join(base, "a", "first"))).toBe(path.join(base, "b", "target.txt"))
    expect(RealForm.of(path.join(base, "a", "first", "below"))).toBe(path.join(base, "b", "target.txt", "below"))
  })

  it("names a loop as too many links", () => {
    const base = path.join(root, "loop")
    mkdirSync(base, { recursive: true })
    symlinkSync("two", path.join(base, "one"))
    symlinkSync("one", path.join(base, "two"))
    expect(RealForm.of(path.join(base, "one"))).toBe("too_many_links")
    expect(RealForm.orSelf(path.join(base, "one"))).toBe(path.join(base, "one"))
  })

  // The oracle: random trees of folders and links (relative with `..`, absolute, dangling, through
  // each other), and for each path the place the kernel really writes a new file, compared with
  // the prediction. Seeded, so a failure repeats.
  it("predicts where the kernel writes, for random trees of links (differential, 1 200 paths)", () => {
    // mulberry32: 32-bit integer steps only (Math.imul), so every n is reached.
    const state = { seed: 0x5eed }
    const random = (n: number) => {
      state.seed = (state.seed + 0x6d2b79f5) | 0
      let t = Math.imul(state.seed ^ (state.seed >>> 15), 1 | state.seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) % n
    }
    const pick = <A,>(items: ReadonlyArray<A>): A => items[random(items.length)] as A
    const disagreements: Array<string> = []
    for (let tree = 0; tree < 40; tree++) {
      const base = path.join(root, `fuzz-${tree}`)
      const folders = ["", "a", "a/b", "c", "c/d", "e"]
      for (const folder of folders) mkdirSync(path.join(base, folder), { recursive: true })
      const names = ["l1", "l2", "l3", "l4", "l5"]
      const segments = ["..", ".", "a", "b", "c", "d", "e", "x", ...names]
      // Link targets: a few segments each, often through a link to a deeper folder and then `..`
      // (`p/../x`, where paper and kernel part: paper says `<here>/x`, the kernel `a/x`).
      symlinkSync(pick(["a/b", "c/d", path.join(base, "a", "b")]), path.join(base, "p"))
      const target = () => {
        const parts = random(2) === 0 ? ["p", "..", pick(["x", "a", "c", "p", ...names])] : Array.from({ length: 1 + random(4) }, () => pick([...segments, "a/b", "c/d"]))
        return random(4) === 0 ? path.join(base, ...parts) : parts.join("/")
      }
      for (const name of names) symlinkSync(target(), path.join(base, random(3) === 0 ? pick(folders) : "", name))
      for (let probe = 0; probe < 30; probe++) {
        // Through folders and links, ending in a new name or in a link itself (a write through a dangling link).
        const through = Array.from({ length: random(3) }, () => pick(segments.filter((segment) => segment !== "..")))
        const at = path.join(base, pick(folders), ...through, random(2) === 0 ? pick(names) : `new-${probe}`)
        const predicted = RealForm.of(at)
        const actual = written(at)
        if (actual !== undefined && predicted !== actual) disagreements.push(`${at}: predicted ${predicted}, kernel wrote ${actual}`)
        if (actual !== undefined && RealForm.isFailure(predicted)) disagreements.push(`${at}: predicted ${predicted}, but the write succeeded`)
      }
    }
    expect(disagreements).toEqual([])
  })
})
