/**
 * The organization's policy over everything else (permission/policy.ts): the stricter verdict
 * stands. A policy deny is final, over a saved approval too; a policy ask makes any allow ask; a
 * policy allow, or no policy rule matching, takes nothing away and gives nothing.
 */
import { describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import type { PermissionRule } from "../../src/permission/rule.js"

const rule = (action: string, resource: string, effect: PermissionRule.Effect, source: PermissionRule.Source = { kind: "builtin", agent: "t" }): PermissionRule.Sourced => ({ action, resource, effect, source })
const policy = (position: number, action: string, resource: string, effect: PermissionRule.Effect) => rule(action, resource, effect, { kind: "policy", position })
const saved = (action: string, resource: string) => rule(action, resource, "allow", { kind: "saved", id: `psv_${resource}` })

const judge = (resources: ReadonlyArray<string>, configured: ReadonlyArray<PermissionRule.Sourced>, policyRules: ReadonlyArray<PermissionRule.Sourced>, savedRules: ReadonlyArray<PermissionRule.Sourced> = []) =>
  PermissionEvaluate.evaluateInput({ action: "bash", resources, configured, session: [], saved: savedRules, policy: policyRules })

describe("PermissionEvaluate with the organization's policy", () => {
  it("a policy deny is final: over a configured allow and over a saved approval", () => {
    const decision = judge(["git push --force"], [rule("bash", "*", "allow")], [policy(1, "bash", "git push --force*", "deny")], [saved("bash", "git push --force")])
    expect(decision.effect).toBe("deny")
    expect(decision.matched.map(({ rule }) => rule.source)).toEqual([{ kind: "policy", position: 1 }])
    expect(PermissionEvaluate.byPolicy(decision)).toBe(true)
  })

  it("a policy ask makes an allow ask, a saved approval's too, and names the policy rule for that resource only", () => {
    const decision = judge(["npm publish", "npm test"], [rule("bash", "npm *", "allow")], [policy(1, "bash", "npm publish*", "ask")], [saved("bash", "npm publish")])
    expect(decision.effect).toBe("ask")
    expect(decision.matched.map(({ resource, rule }) => [resource, rule.source.kind])).toEqual([
      ["npm publish", "policy"],
      ["npm test", "builtin"],
    ])
    expect(PermissionEvaluate.byPolicy(decision)).toBe(true)
  })

  it("asks, as the policy's, for a text the gate cannot read when the policy denies or asks about its action: no saved approval of that exact text lets it by", () => {
    const text = "git -c x=y push --force"
    const opaque = (policyRules: ReadonlyArray<PermissionRule.Sourced>, savedRules: ReadonlyArray<PermissionRule.Sourced> = []) =>
      PermissionEvaluate.evaluateInput({ action: "bash", resources: [text], configured: [rule("bash", "*", "allow")], session: [], saved: savedRules, policy: policyRules, opaque: true })
    const denied = opaque([policy(1, "bash", "git push --force*", "deny")], [saved("bash", text)])
    expect(denied.effect).toBe("ask")
    expect(denied.matched.map(({ rule }) => [rule.effect, rule.source])).toEqual([["ask", { kind: "policy", position: 1 }]])
    expect(PermissionEvaluate.byPolicy(denied)).toBe(true)
    // A policy that only allows, or restricts another action, restricts nothing of it.
    expect(opaque([policy(1, "bash", "*", "allow")], [saved("bash", text)]).effect).toBe("allow")
    expect(opaque([policy(1, "webfetch", "*", "deny")], [saved("bash", text)]).effect).toBe("allow")
    // A rule for sandboxed commands only does not apply to one that is not.
    expect(opaque([{ ...policy(1, "bash", "git push*", "deny"), when: "sandboxed" }], [saved("bash", text)]).effect).toBe("allow")
  })

  it("never loosens: a policy allow leaves a configured ask or deny as it is", () => {
    expect(judge(["rm -rf build"], [rule("bash", "rm *", "deny")], [policy(1, "bash", "*", "allow")]).effect).toBe("deny")
    expect(judge(["make"], [], [policy(1, "bash", "*", "allow")]).effect).toBe("ask")
  })

  it("last match wins within the policy: an exception carved out of a policy ask takes nothing away", () => {
    const rules = [policy(1, "bash", "git *", "ask"), policy(2, "bash", "git status", "allow")]
    expect(judge(["git status"], [rule("bash", "git *", "allow")], rules).effect).toBe("allow")
    expect(judge(["git push"], [rule("bash", "git *", "allow")], rules).effect).toBe("ask")
  })

  it("no policy rule matching, or no policy, changes nothing", () => {
    const decision = judge(["ls"], [rule("bash", "ls*", "allow")], [policy(1, "bash", "curl *", "deny")])
    expect(decision).toEqual(judge(["ls"], [rule("bash", "ls*", "allow")], []))
    expect(PermissionEvaluate.byPolicy(decision)).toBe(false)
    expect(PermissionEvaluate.byPolicy(judge(["make"], [], []))).toBe(false)
  })
})
