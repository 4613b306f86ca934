import { describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import { PermissionRequest } from "../../src/permission/request.js"
import type { PermissionRule } from "../../src/permission/rule.js"
import { Subcommand } from "../../src/permission/subcommand.js"

const rule = (resource: string, effect: PermissionRule.Effect, source: PermissionRule.Source = { kind: "builtin", agent: "t" }): PermissionRule.Sourced => ({ action: "bash", resource, effect, source })
const saved = (resource: string): PermissionRule.Sourced => rule(resource, "allow", { kind: "saved", id: `psv_${resource}` })
const policy = (resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => rule(resource, effect, { kind: "policy", position: 0 })

const decide = (
  resource: string,
  configured: ReadonlyArray<PermissionRule.Sourced>,
  options: { readonly saved?: ReadonlyArray<PermissionRule.Sourced>; readonly policy?: ReadonlyArray<PermissionRule.Sourced> } = {},
) => PermissionEvaluate.evaluateInput({ action: "bash", resources: [resource], configured, session: [], saved: options.saved ?? [], ...(options.policy === undefined ? {} : { policy: options.policy }) })

/** The person's usual rules: everything, but never a push. */
const NO_PUSH = [rule("*", "allow"), rule("git push *", "deny")]

describe("Subcommand.standsFor", () => {
  it("gives what a sub-command the program does not ship may stand for, and the words that name it", () => {
    expect(Subcommand.standsFor("git p origin")).toEqual({ pattern: "git * origin", prefix: "git p" })
    expect(Subcommand.standsFor("git psuh")).toEqual({ pattern: "git *", prefix: "git psuh" })
    expect(Subcommand.standsFor("cargo b --release")).toEqual({ pattern: "cargo * --release", prefix: "cargo b" })
    expect(Subcommand.standsFor("gh prm 12")).toEqual({ pattern: "gh * 12", prefix: "gh prm" })
  })

  it("keeps only the program when the rest has wildcards or is long, so deciding stays quick", () => {
    expect(Subcommand.standsFor("git p *.ts")).toEqual({ pattern: "git *", prefix: "git p" })
    expect(Subcommand.standsFor(`git p ${"a".repeat(Subcommand.MAX_REST + 1)}`)).toEqual({ pattern: "git *", prefix: "git p" })
    const hostile = `git p ${"*?".repeat(5_000)}`
    const started = Date.now()
    expect(PermissionEvaluate.evaluateInput({ action: "bash", resources: [hostile], configured: [rule("*", "allow"), rule("git push *a*b*c*d*e*", "deny")], session: [], saved: [] }).effect).toBe("ask")
    expect(Date.now() - started).toBeLessThan(60_000)
  })

  it("gives nothing for a shipped sub-command, an option, another program or no sub-command", () => {
    for (const resource of ["git push origin", "git status", "cargo build", "gh pr merge 1", "git --version", "git", "ls -la", "npm publish"]) expect(Subcommand.standsFor(resource)).toBeUndefined()
  })
})

describe("PermissionEvaluate: a sub-command the program's config may run as another", () => {
  it("asks when a rule denies or asks about a command it may stand for, naming why", () => {
    const decision = decide("git p origin", NO_PUSH)
    expect(decision.effect).toBe("ask")
    expect(decision.matched).toEqual([{ resource: "git p origin", rule: { ...rule("*", "allow"), effect: "ask" }, raised: "subcommand" }])
    expect(decide("git psuh origin", NO_PUSH).effect).toBe("ask")
    expect(decide("git p origin", [rule("*", "allow"), rule("git push --force *", "ask")]).effect).toBe("ask")
    expect(decide("git p", [rule("*", "allow"), rule("git push", "deny")]).effect).toBe("ask")
    expect(PermissionRequest.Messages.raised({ kind: "subcommand", prefix: "git p" })).toBe(
      "git p is no sub-command the program ships: an alias or autocorrect in its config may run it as one a rule denies or asks about, so only a rule or approval naming git p allows it; other allows apply as ask",
    )
  })

  it("allows when no rule restricts what it may stand for, or a later rule decides all of it", () => {
    expect(decide("git p origin", [rule("*", "allow")]).effect).toBe("allow")
    expect(decide("git p origin", [rule("*", "allow"), rule("rm *", "deny"), rule("cargo publish *", "deny")]).effect).toBe("allow")
    // Last match wins: `git *` decides every git command the deny before it would.
    expect(decide("git p origin", [rule("git push *", "deny"), rule("git *", "allow")]).effect).toBe("allow")
    // What the deny matches cannot be this command: it ends in `main`, this one in `origin`.
    expect(decide("git p origin", [rule("*", "allow"), rule("git push * main", "deny")]).effect).toBe("allow")
  })

  it("allows through a rule or saved approval naming the sub-command, and not one that only happens to match", () => {
    expect(decide("git p origin", [...NO_PUSH, rule("git p *", "allow")]).effect).toBe("allow")
    expect(decide("git p origin", [rule("git p *", "allow"), ...NO_PUSH]).effect).toBe("allow")
    expect(decide("git p origin", NO_PUSH, { saved: [saved("git p *")] }).effect).toBe("allow")
    expect(decide("git p origin", [...NO_PUSH, rule("git p*", "allow")]).effect).toBe("ask")
    expect(decide("git p origin", [...NO_PUSH, rule("git ? *", "allow")]).effect).toBe("ask")
  })

  it("keeps a deny and an ask that match the text itself", () => {
    expect(decide("git p origin", [...NO_PUSH, rule("git p *", "deny")]).effect).toBe("deny")
    expect(decide("git p origin", [rule("*", "ask")]).effect).toBe("ask")
  })

  it("asks, as the policy's, when the organization's policy restricts a command it may stand for", () => {
    const decision = decide("git p origin", [rule("*", "allow")], { policy: [policy("git push *", "deny")] })
    expect(decision.effect).toBe("ask")
    expect(decision.matched[0]?.rule.source.kind).toBe("policy")
    expect(decide("git p origin", [rule("*", "allow")], { policy: [policy("rm *", "deny")] }).effect).toBe("allow")
  })

  it("leaves other actions alone", () => {
    expect(PermissionEvaluate.evaluateInput({ action: "edit", resources: ["git p origin"], configured: [{ ...rule("*", "allow"), action: "*" }, { ...rule("git push *", "deny"), action: "*" }], session: [], saved: [] }).effect).toBe("allow")
  })
})
