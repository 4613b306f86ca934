import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Wildcard } from "../../src/permission/wildcard.js"
import { Permission } from "../../src/permission/permission.js"
import type { PermissionRule } from "../../src/permission/rule.js"

/** A reference matcher: plain recursion over the definition, exponential but obviously right. */
const reference = (input: string, pattern: string): boolean => {
  const text = Array.from(input.replaceAll("\\", "/"))
  const normalized = pattern.replaceAll("\\", "/")
  const glob = Array.from(normalized)
  const whole = (g: ReadonlyArray<string>) => {
    const run = (i: number, p: number): boolean => {
      if (p === g.length) return i === text.length
      if (g[p] === "*") return run(i, p + 1) || (i < text.length && run(i + 1, p))
      return i < text.length && (g[p] === "?" || g[p] === text[i]) && run(i + 1, p + 1)
    }
    return run(0, 0)
  }
  return whole(glob) || (normalized.endsWith(" *") && whole(glob.slice(0, -2)))
}

const cases: ReadonlyArray<[string, string, boolean]> = [
  ["git push origin", "git *", true],
  ["git", "git *", true],
  ["gits", "git *", false],
  ["src/a/b.ts", "src/*", true],
  ["a\nb", "a*b", true],
  ["abc", "a?c", true],
  ["ac", "a?c", false],
  ["a.c", "a.c", true],
  ["abc", "a.c", false],
  ["(x)+[y]$", "(x)+[y]$", true],
  ["C:\\Users\\a", "C:/Users/*", true],
  ["src/a.ts", "src\\*", true],
  [".ENV", ".env", false],
  ["", "*", true],
  ["", "", true],
  ["x", "", false],
]

describe("Wildcard", () => {
  for (const [input, pattern, expected] of cases) {
    it(`${JSON.stringify(input)} ${expected ? "matches" : "does not match"} ${JSON.stringify(pattern)}`, () => {
      expect(Wildcard.match(input, pattern)).toBe(expected)
    })
  }

  it("folds case only when asked", () => {
    expect(Wildcard.match(".ENV", ".env", { caseInsensitive: true })).toBe(true)
  })

  it("matches a pathological pattern against 100 000 characters without backtracking", () => {
    expect(Wildcard.match("a".repeat(100_000), "*a*a*a*a*a*a*b")).toBe(false)
    expect(Wildcard.match(`${"a".repeat(100_000)}b`, "*a*a*a*a*a*a*b")).toBe(true)
    expect(Wildcard.match("a".repeat(100_000), "*a?a*a?a*a?a*?b")).toBe(false)
  })

  it("matches long segments of ? against long inputs (bench/permission.ts times it)", () => {
    expect(Wildcard.match("a".repeat(100_000), `*${"?a".repeat(2_000)}b*`)).toBe(false)
    expect(Wildcard.match(`${"a".repeat(100_000)}b`, `*${"?a".repeat(2_000)}b`)).toBe(true)
  })

  it("counts an astral character as one character for ?", () => {
    expect(Wildcard.match("😀", "?")).toBe(true)
    expect(Wildcard.match("a😀b", "a?b")).toBe(true)
    expect(Wildcard.match("😀😀", "?")).toBe(false)
  })

  it("agrees with a reference matcher on random patterns and inputs", () => {
    const alphabet = fc.constantFrom("a", "b", "/", " ", "\\", "😀", "é")
    const input = fc.array(alphabet, { maxLength: 12 }).map((chars) => chars.join(""))
    const pattern = fc.array(fc.oneof(alphabet, fc.constantFrom("*", "?", " *")), { maxLength: 8 }).map((chars) => chars.join(""))
    fc.assert(fc.property(input, pattern, (i, p) => {
      expect(Wildcard.match(i, p)).toBe(reference(i, p))
    }), { numRuns: 5_000 })
  })
})

describe("Permission.evaluate", () => {
  const rule = (action: string, resource: string, effect: PermissionRule.Effect): Permission.Rule => ({ action, resource, effect })

  it("returns the last matching rule, and ask when nothing matches", () => {
    const rules = [rule("edit", "*", "ask"), rule("edit", "tests/**", "deny"), rule("edit", "**", "allow")]
    expect(Permission.evaluate("edit", "tests/shipping.test.ts", rules).effect).toBe("allow")
    expect(Permission.evaluate("bash", "ls", rules)).toEqual({ action: "bash", resource: "*", effect: "ask", source: { kind: "default" } })
  })

  it("flattens rulesets in order", () => {
    expect(Permission.evaluate("bash", "rm -rf /", [rule("*", "*", "allow")], [rule("bash", "rm *", "deny")]).effect).toBe("deny")
  })
})
