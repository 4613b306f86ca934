import { describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import type { PermissionRule } from "../../src/permission/rule.js"

const rule = (action: string, resource: string, effect: PermissionRule.Effect, source: PermissionRule.Source = { kind: "builtin", agent: "t" }): PermissionRule.Sourced => ({ action, resource, effect, source })
const saved = (action: string, resource: string): PermissionRule.Sourced => rule(action, resource, "allow", { kind: "saved", id: `psv_${resource}` })

const location = "/work/repo"
const context: PermissionEvaluate.Context = { location }
const build = [rule("*", "*", "allow")]

const decide = (resources: ReadonlyArray<string>, configured: ReadonlyArray<PermissionRule.Sourced>, options: { readonly saved?: ReadonlyArray<PermissionRule.Sourced>; readonly action?: string; readonly context?: PermissionEvaluate.Context } = {}) =>
  PermissionEvaluate.evaluateInput({ action: options.action ?? "edit", resources, configured, session: [], saved: options.saved ?? [], context: options.context ?? context })

describe("PermissionEvaluate.protectedNames", () => {
  it("finds the protected names of an edit inside the Location, relative or absolute", () => {
    expect(PermissionEvaluate.protectedNames("edit", "sub/.git/config", context)).toEqual([".git"])
    expect(PermissionEvaluate.protectedNames("edit", "/work/repo/.envrc", context)).toEqual([".envrc"])
    expect(PermissionEvaluate.protectedNames("edit", "./.git/../.git/config", context)).toEqual([".git"])
  })

  it("finds none for other actions or without a Location", () => {
    expect(PermissionEvaluate.protectedNames("read", ".git/config", context)).toEqual([])
    expect(PermissionEvaluate.protectedNames("edit", ".git/config", {})).toEqual([])
    expect(PermissionEvaluate.protectedNames("edit", "/work/other/src/a.ts", context)).toEqual([])
  })

  it("finds them outside the Location too, in every folder of the path", () => {
    expect(PermissionEvaluate.protectedNames("edit", "/work/other/.git/config", context)).toEqual([".git"])
    expect(PermissionEvaluate.protectedNames("edit", "../other/.envrc", context)).toEqual([".envrc"])
    expect(PermissionEvaluate.protectedNames("edit", "/home/me/.bashrc", context)).toEqual([".bashrc"])
    expect(PermissionEvaluate.protectedNames("edit", "/home/me/.config/git/config", context)).toEqual([".config/git"])
  })

  it("folds names where the volume ignores case", () => {
    expect(PermissionEvaluate.protectedNames("edit", "sub/../.GIT/config", context)).toEqual([])
    expect(PermissionEvaluate.protectedNames("edit", "sub/../.GIT/config", { location, caseInsensitivePaths: true })).toEqual([".git"])
  })
})

describe("PermissionEvaluate.evaluateInput on protected paths", () => {
  it("asks for an outside protected file even where its folder was approved, unless a rule names it", () => {
    const outside = [saved("external_directory", "/home/me/*")]
    expect(decide(["/home/me/.bashrc"], build, { saved: outside }).effect).toBe("ask")
    expect(decide(["/home/me/.bashrc"], build, { saved: outside }).matched[0]?.raised).toBe("protected")
    expect(decide(["/home/me/notes.txt"], build, { saved: outside }).effect).toBe("allow")
    expect(decide(["/home/me/.bashrc"], [...build, rule("edit", "/home/me/.bashrc", "allow")]).effect).toBe("allow")
    expect(decide(["/home/me/.bashrc"], build, { saved: [saved("edit", "/home/me/.bashrc")] }).effect).toBe("allow")
  })

  it("raises a wildcard allow to ask for an edit of a protected path, and only for it", () => {
    expect(decide([".git/config"], build).effect).toBe("ask")
    expect(decide([".git/config"], [rule("edit", "**", "allow")]).effect).toBe("ask")
    expect(decide(["src/a.ts"], build).effect).toBe("allow")
    expect(decide([".git/config"], build, { action: "read" }).effect).toBe("allow")
    expect(decide([".git/config"], build, { context: {} }).effect).toBe("allow")
  })

  it("raises only the protected resources of a request", () => {
    const decision = decide(["src/a.ts", ".vscode/settings.json"], build)
    expect(decision.effect).toBe("ask")
    expect(decision.matched.map(({ resource, rule }) => [resource, rule.effect])).toEqual([["src/a.ts", "allow"], [".vscode/settings.json", "ask"]])
  })

  it("allows when the deciding allow names the protected path, even beneath a later wildcard allow", () => {
    expect(decide([".vscode/settings.json"], [...build, rule("edit", ".vscode/**", "allow")]).effect).toBe("allow")
    expect(decide([".git/config"], [rule("edit", ".git/config", "allow"), ...build]).effect).toBe("allow")
    expect(decide(["sub/.git/hooks/pre-commit"], [...build, rule("edit", "**/.git/**", "allow")]).effect).toBe("allow")
    expect(decide([".git/config"], [...build, rule("edit", "/work/repo/.git/*", "allow")]).effect).toBe("allow")
  })

  it("needs each protected name the path holds named, and the naming rule must match", () => {
    expect(decide([".vscode/.git/x"], [...build, rule("edit", ".vscode/**", "allow")]).effect).toBe("ask")
    expect(decide([".git/config"], [...build, rule("edit", ".git/HEAD", "allow")]).effect).toBe("ask")
    expect(decide([".git/config"], [...build, rule("edit", ".gi?/config", "allow")]).effect).toBe("ask")
  })

  it("never counts the Location's own path as naming anything", () => {
    const inside = { location: "/home/me/.vscode/proj" }
    expect(decide([".vscode/settings.json"], [...build, rule("edit", "/home/me/.vscode/proj/*", "allow")], { context: inside }).effect).toBe("ask")
    expect(decide([".vscode/settings.json"], [...build, rule("edit", "/home/me/.vscode/proj/.vscode/*", "allow")], { context: inside }).effect).toBe("allow")
  })

  it("counts the Location's own protected folders: a Location opened inside .git writes .git", () => {
    const git = { location: "/work/repo/.git" }
    expect(PermissionEvaluate.protectedNames("edit", "hooks/pre-commit", git)).toEqual([".git"])
    expect(decide(["hooks/pre-commit"], build, { context: git }).effect).toBe("ask")
    expect(decide(["config"], build, { context: git }).effect).toBe("ask")
    // A relative pattern never names the folders the Location is in; an absolute one spelling them does.
    expect(decide(["hooks/pre-commit"], [...build, rule("edit", "hooks/*", "allow")], { context: git }).effect).toBe("ask")
    expect(decide(["hooks/pre-commit"], [...build, rule("edit", "/work/repo/.git/hooks/*", "allow")], { context: git }).effect).toBe("allow")
    expect(decide(["hooks/pre-commit"], build, { context: git, saved: [saved("edit", "/work/repo/.git/hooks/pre-commit")] }).effect).toBe("allow")
    expect(decide(["src/a.ts"], build, { context: { location: "/home/me/.vscode/proj" } }).effect).toBe("ask")
    expect(decide(["src/a.ts"], build, { context: { location: "/home/me/vscode/proj" } }).effect).toBe("allow")
  })

  it("lets an ask between a naming allow and a wildcard allow stand", () => {
    expect(decide([".git/config"], [rule("edit", ".git/config", "allow"), rule("edit", ".git/**", "ask"), ...build]).effect).toBe("ask")
  })

  it("keeps last-match order for deny: it stands over any saved approval and a naming allow after it wins; an untrusted project's naming allow (applied as ask) does not count", () => {
    expect(decide([".git/config"], [...build, rule("edit", ".git/**", "deny"), rule("edit", ".git/config", "allow")]).effect).toBe("allow")
    expect(decide([".git/config"], [...build, rule("edit", ".git/**", "deny")], { saved: [saved("edit", "/work/repo/.git/config")] }).effect).toBe("deny")
    const untrusted: PermissionRule.Sourced = { ...rule("edit", ".git/config", "ask", { kind: "config", file: "/work/repo/toolgate.json", scope: "project", index: 0 }), downgraded: true }
    expect(decide([".git/config"], [untrusted, ...build]).effect).toBe("ask")
  })

  it("raises a wildcard saved approval to ask, and allows through one saved for exactly the path", () => {
    expect(decide([".envrc"], [rule("edit", "*", "ask")], { saved: [saved("edit", "/work/repo/*")] }).effect).toBe("ask")
    expect(decide([".envrc"], [rule("edit", "*", "ask")], { saved: [saved("edit", "/work/repo/.envrc")] })).toMatchObject({ effect: "allow", decidedBy: "saved" })
  })

  it("folds case in naming where the volume ignores case, not elsewhere", () => {
    const folding = { location, caseInsensitivePaths: true }
    expect(decide([".GIT/config"], build, { context: folding }).effect).toBe("ask")
    expect(decide([".GIT/config"], [...build, rule("edit", ".git/config", "allow")], { context: folding }).effect).toBe("allow")
    expect(decide([".GIT/config"], build).effect).toBe("allow")
  })
})
