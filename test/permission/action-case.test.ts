/**
 * A rule's action names a tool whatever its case: written `Bash`, `Edit` or `WebFetch` (as other
 * agents' settings spell their tools), a deny denied nothing, since actions were compared by
 * spelling (found by the third review of spellings). Compared without case now, in evaluation,
 * in how a rule's resource is read (a path rule's `~`, a command rule's blanks, a URL's canonical
 * form), and in the audit.
 */
import { describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import type { PermissionRule } from "../../src/permission/rule.js"
import { PermissionRuleSpellings } from "../../src/permission/rule-spellings.js"
import { RulesetLint } from "../../src/permission/ruleset-lint.js"

const rule = (action: string, resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action, resource, effect, source: { kind: "config", file: "toolgate.json", scope: "global", index: 0 } })

describe("actions compared without case", () => {
  const rules = [rule("*", "*", "allow"), rule("Bash", "rm *", "deny"), rule("WEBFETCH", "https://example.com/*", "deny"), rule("Edit", "/home/me/secret/*", "deny")]

  it("a deny written in another case denies the tool, by the compiled evaluator and the plain one", () => {
    const compiled = PermissionEvaluate.compile([rules])
    for (const [action, resource, effect] of [
      ["bash", "rm x", "deny"],
      ["bash", "ls", "allow"],
      ["webfetch", "https://example.com/a", "deny"],
      ["edit", "/home/me/secret/a", "deny"],
      ["read", "/home/me/secret/a", "allow"],
    ] as const) {
      expect([action, resource, compiled.evaluate(action, resource).effect]).toEqual([action, resource, effect])
      expect([action, resource, PermissionEvaluate.evaluate(action, resource, rules).effect]).toEqual([action, resource, effect])
    }
  })

  it("reads the resource as the tool's: a path rule's home, a command rule's blanks, a URL's canonical form", () => {
    expect(PermissionRuleSpellings.resources("Edit", "~/secret/*", "/home/me")).toEqual(["/home/me/secret/*"])
    expect(PermissionRuleSpellings.resources("BASH", "git  push *", "/home/me")).toEqual(["git  push *", "git push *"])
    expect(PermissionRuleSpellings.resources("WebFetch", "https://EXAMPLE.com/*", "/home/me")).toEqual(["https://EXAMPLE.com/*", "https://example.com/*"])
  })

  it("the audit knows the tool under another case", () => {
    const findings = RulesetLint.audit([rule("Bash", "rm *", "deny")], { actions: ["bash", "read"] })
    expect(findings.filter((finding) => finding.kind === "unknown-action")).toEqual([])
  })
})
