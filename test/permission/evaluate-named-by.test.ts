import { describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import type { PermissionRule } from "../../src/permission/rule.js"

const rule = (action: string, resource: string, effect: PermissionRule.Effect, source: PermissionRule.Source = { kind: "builtin", agent: "t" }): PermissionRule.Sourced => ({ action, resource, effect, source })
const saved = (action: string): PermissionRule.Sourced => rule(action, "*", "allow", { kind: "saved", id: `psv_${action}` })

const decide = (configured: ReadonlyArray<PermissionRule.Sourced>, options: { readonly saved?: ReadonlyArray<PermissionRule.Sourced>; readonly namedBy?: string } = {}) =>
  PermissionEvaluate.evaluateInput({
    action: "github_create_issue",
    resources: ["*"],
    configured,
    session: [],
    saved: options.saved ?? [],
    ...("namedBy" in options ? { namedBy: options.namedBy } : { namedBy: "github_" }),
  }).effect

describe("PermissionEvaluate: an action only a naming rule allows (a project's MCP server)", () => {
  it("asks under a catch-all allow, and allows through a rule or approval naming the server or the tool", () => {
    expect(decide([rule("*", "*", "allow")])).toBe("ask")
    expect(decide([rule("*", "*", "allow"), rule("github_*", "*", "allow")])).toBe("allow")
    expect(decide([rule("*", "*", "allow"), rule("github_create_issue", "*", "allow")])).toBe("allow")
    expect(decide([rule("*", "*", "allow")], { saved: [saved("github_create_issue")] })).toBe("allow")
  })

  it("does not count a pattern that only happens to match (another prefix, a leading wildcard)", () => {
    expect(decide([rule("*_create_issue", "*", "allow")])).toBe("ask")
    expect(decide([rule("git*", "*", "allow")])).toBe("ask")
  })

  it("keeps a later ask and any deny", () => {
    expect(decide([rule("github_*", "*", "allow"), rule("github_create_*", "*", "ask")])).toBe("ask")
    expect(decide([rule("github_*", "*", "allow"), rule("*", "*", "deny")])).toBe("deny")
    expect(decide([rule("*", "*", "allow"), rule("github_*", "*", "deny")])).toBe("deny")
  })

  it("lets a catch-all allow stand for a server from the person's own config", () => {
    expect(decide([rule("*", "*", "allow")], { namedBy: undefined })).toBe("allow")
  })
})
