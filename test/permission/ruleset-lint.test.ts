import { describe, expect, it } from "vitest"
import { RulesetLint } from "../../src/permission/ruleset-lint.js"
import { PermissionRule } from "../../src/permission/rule.js"
import { Agents } from "../../src/permission/agents.js"
import { Config } from "../../src/config.js"

const FILE = "/repo/toolgate.json"
const rules = (...triples: ReadonlyArray<readonly [string, string, PermissionRule.Effect]>): ReadonlyArray<PermissionRule.Sourced> =>
  triples.map(([action, resource, effect], index) => ({ action, resource, effect, source: { kind: "config", file: FILE, scope: "global", index } }))

/** The built-in tools' actions, as the registry lists them (`ToolRegistry.actions`). */
const options = { actions: ["bash", "edit", "external_directory", "glob", "grep", "question", "read", "skill", "todowrite", "webfetch", "websearch"] }
const kinds = (ruleset: ReadonlyArray<PermissionRule.Sourced>) => RulesetLint.audit(ruleset, options).map((finding) => finding.kind)

describe("RulesetLint.explain", () => {
  it("names the winning rule with its source and every other matching rule in order", () => {
    const ruleset = rules(["edit", "*", "ask"], ["edit", "tests/**", "deny"], ["bash", "*", "allow"], ["edit", "**", "allow"])
    const explanation = RulesetLint.explain("edit", "tests/shipping.test.ts", [ruleset])
    expect(explanation.effect).toBe("allow")
    expect(explanation.winner).toEqual({ rule: ruleset[3], index: 3 })
    expect(explanation.others).toEqual([{ rule: ruleset[0], index: 0 }, { rule: ruleset[1], index: 1 }])
    expect(RulesetLint.describe(explanation.winner)).toBe(`"edit ** allow" (${FILE} permission[3])`)
  })

  it("explains the default ask when nothing matches", () => {
    const explanation = RulesetLint.explain("webfetch", "https://x", [rules(["bash", "*", "allow"])])
    expect(explanation).toEqual({ effect: "ask", winner: { rule: { action: "webfetch", resource: "*", effect: "ask", source: { kind: "default" } }, index: -1 }, others: [] })
    expect(RulesetLint.describe(explanation.winner)).toBe('"webfetch * ask" (no rule matched: the default is ask)')
  })
})

describe("RulesetLint.audit", () => {
  it("finds the seed case: a deny that a later allow fully shadows", () => {
    const ruleset = rules(["edit", "tests/**", "deny"], ["edit", "**", "allow"])
    const [finding] = RulesetLint.audit(ruleset, options)
    expect(finding?.kind).toBe("shadowed-deny")
    expect(finding?.message).toBe(`"edit tests/** deny" (${FILE} permission[0]) never takes effect: "edit ** allow" (${FILE} permission[1]) later override every input it matches`)
    expect(finding?.fix).toBe(`move "edit tests/** deny" (${FILE} permission[0]) after "edit ** allow" (${FILE} permission[1]), or narrow the later rule`)
  })

  it("finds a shadow that takes several later rules together", () => {
    // The allow in the middle is itself dead: the ask after it decides all of its inputs.
    expect(kinds(rules(["bash", "git *", "deny"], ["bash", "git push*", "allow"], ["bash", "git *", "ask"]))).toEqual(["shadowed-deny", "dead-rule"])
    // Neither "x" nor "x?*" covers "x*" alone; together they do.
    expect(kinds(rules(["bash", "x*", "deny"], ["bash", "x", "allow"], ["bash", "x?*", "allow"]))).toEqual(["shadowed-deny"])
  })

  it("finds a partial shadow and gives an input the later rule takes away", () => {
    const [finding] = RulesetLint.audit(rules(["edit", "tests/**", "deny"], ["edit", "*.ts", "allow"]), options)
    expect(finding?.kind).toBe("partially-shadowed-deny")
    expect(finding?.example).toEqual({ action: "edit", resource: "tests/.ts" })
  })

  it("does not report a partial shadow that a yet later deny restores", () => {
    expect(kinds(rules(["edit", "tests/**", "deny"], ["edit", "*.ts", "allow"], ["edit", "tests/**", "deny"]))).toEqual(["duplicate-rule"])
  })

  it("finds a dead rule that later rules decide entirely", () => {
    expect(kinds(rules(["bash", "ls", "allow"], ["bash", "*", "ask"]))).toEqual(["dead-rule"])
  })

  it("does not report an exception written inside a broad deny or ask", () => {
    expect(kinds(rules(["*", "*", "deny"], ["read", "*", "allow"]))).toEqual([])
    expect(kinds(rules(["edit", "*", "deny"], ["edit", "src/*", "allow"]))).toEqual([])
  })

  it("finds duplicates, unknown actions and patterns that never match", () => {
    expect(kinds(rules(["bash", "ls", "allow"], ["bash", "ls", "allow"]))).toEqual(["duplicate-rule"])
    expect(kinds(rules(["bsah", "*", "deny"]))).toEqual(["unknown-action"])
    expect(kinds(rules(["webfetch", "/etc/passwd", "deny"]))).toEqual(["never-matches"])
  })

  it("is clean for a sensible ruleset and for the built-in agents alone", () => {
    expect(kinds(rules(["bash", "*", "ask"], ["bash", "git status", "allow"], ["bash", "rm *", "deny"]))).toEqual([])
    for (const agent of Agents.BUILTIN) {
      expect(RulesetLint.audit(Agents.rules(Config.merge([]), agent, { home: "/h", trusted: true }), options)).toEqual([])
    }
  })

  it("sees a relative allow override absolute denies outside and inside the Location", () => {
    expect(kinds(rules(["read", "/etc/*", "deny"], ["read", "*", "allow"]))).toEqual(["shadowed-deny"])
    const ruleset = rules(["read", "/home/u/proj/.env", "deny"], ["read", "/home/u/.ssh/*", "deny"], ["read", "*.env", "ask"], ["read", "src/*", "allow"])
    // The .env deny is shadowed by the broader ask; the .ssh deny and the *.env ask lose some inputs.
    expect(RulesetLint.audit(ruleset, { ...options, location: "/home/u/proj" }).map((finding) => [finding.kind, finding.rules[0]?.index])).toEqual([
      ["shadowed-deny", 0],
      ["partially-shadowed-deny", 1],
      ["partially-shadowed-deny", 2],
    ])
    expect(RulesetLint.audit(rules(["read", "/home/u/proj/src/a", "deny"], ["read", "src/*", "allow"]), { ...options, location: "/home/u/proj" }).map((f) => f.kind)).toEqual(["shadowed-deny"])
  })

  it("never counts a saved approval against a configured deny", () => {
    const ruleset: ReadonlyArray<PermissionRule.Sourced> = [...rules(["bash", "rm *", "deny"]), { action: "bash", resource: "rm *", effect: "allow", source: { kind: "saved", id: "psv_1" } }]
    expect(RulesetLint.audit(ruleset, options)).toEqual([])
    const explanation = RulesetLint.explain("bash", "rm -rf x", [ruleset])
    expect(explanation.effect).toBe("deny")
    expect(explanation.winner.index).toBe(0)
    expect(explanation.others.map((other) => other.index)).toEqual([1])
  })
})
