import { describe, expect, it } from "@effect/vitest"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import type { PermissionRule } from "../../../../src/permission/rule.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"
import { BashParseOperation } from "../../../../src/tool/builtin/bash/parse-operation.js"
import { EXPANDING_OPTIONS, OPTIONS } from "../../../lib/bash-tables.js"

const parser = await BashParse.load()
const parse = (command: string) => parser.parse(command, { home: "/home/me" })

const rule = (action: string, resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action, resource, effect, source: { kind: "builtin", agent: "test" } })

const decide = (command: string, rules: ReadonlyArray<PermissionRule.Sourced>) => {
  const parsed = parse(command)
  const resources = parsed.resources.map((resource) => resource.text)
  return PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: rules, session: [], saved: [], opaque: parsed.opaque }).effect
}


/** Commands whose leading options are all harmless or name a directory: judged as the operation alone (BashParseOperation.plain). */
const CLEAN = new Set(OPTIONS.slice(0, 12).map((c) => c.command).concat("/usr/bin/git -C . push > out"))

describe("BashParse options before the sub-command", () => {
  for (const c of OPTIONS) {
    it(`reads ${JSON.stringify(c.command)} as ${c.extra.join(", ")}`, () => {
      const parsed = parse(c.command)
      expect(parsed.opaque).toBe(false)
      if (CLEAN.has(c.command)) {
        // Harmless options dropped: the operation is the one resource, and saves its own pattern.
        expect(parsed.resources.map((resource) => resource.text)).toEqual(c.extra)
        return
      }
      const extra = parsed.resources.filter((resource) => c.extra.includes(resource.text))
      expect(extra.map((resource) => resource.text)).toEqual(c.extra)
      expect(extra.every((resource) => resource.save === undefined)).toBe(true)
      // The raw form stays, first, and keeps today's save.
      expect(parsed.resources[0]?.text).toBe(c.command)
      expect(new Set(parsed.resources.map((resource) => resource.text)).size).toBe(parsed.resources.length)
    })

    it(`judges ${JSON.stringify(c.command)} by ${c.rule} (${c.effect})`, () => {
      expect(decide(c.command, [rule("*", "*", "allow"), rule("bash", c.rule, c.effect)])).toBe(c.effect)
    })
  }

  it("reads a known option's argument as its argument only, and a directory option as a directory target", () => {
    expect(parse("git -C . push origin").resources.map((resource) => resource.text)).toEqual(["git push origin"])
    expect(parse("git -C src push origin").targets).toEqual([{ kind: "directory", path: "src", cwd: [], entered: true }])
    expect(parse("git --work-tree=/outside --git-dir /o/.git status").targets).toEqual([
      { kind: "directory", path: "/outside", cwd: [], entered: true },
      { kind: "directory", path: "/o/.git", cwd: ["/outside"], entered: true },
    ])
    expect(parse("kubectl -n prod delete pod x").resources.map((resource) => resource.text)).toEqual(["kubectl delete pod x"])
  })

  it("keeps the raw form when an option is not known to be harmless, and gives the extra forms no save", () => {
    expect(parse("cargo +nightly publish").resources).toEqual([{ text: "cargo publish", save: "cargo publish *" }])
    expect(parse("git -C . status").resources).toEqual([{ text: "git status", save: "git status *" }])
    expect(parse("git --bare status").resources).toEqual([
      { text: "git --bare status", save: undefined },
      { text: "git status", save: undefined },
    ])
    // --exec-path names where git finds its programs: it runs them.
    expect(parse("git --exec-path=/x status").opaque).toBe(true)
    expect(parse("kubectl --server h get pods").resources.map((resource) => resource.text)).toEqual(["kubectl --server h get pods", "kubectl get pods"])
    // A kubeconfig names a program kubectl runs (its exec plugin): opaque.
    expect(parse("kubectl --kubeconfig k get pods").opaque).toBe(true)
  })

  it("adds nothing without options, for arity 1, or with options after the sub-command", () => {
    for (const command of ["git push origin", "rm -rf x", "git push -f origin", "npm run test -- --watch", "ls -la"]) {
      expect(parse(command).resources.filter((resource) => resource.save === undefined)).toEqual([])
    }
  })

  it("adds no form without a sub-command", () => {
    expect(BashParseOperation.forms(["git", "--version"], ["git", "--version"], () => true)).toEqual([])
    expect(BashParseOperation.forms(["git", "-C", "."], ["git", "-C", "."], () => true)).toEqual([])
  })

  it("makes a command opaque when a word before its operation expands (it may split or name another)", () => {
    // git's -c can name programs to run (core.pager) and sub-commands (alias.*): always opaque.
    for (const command of EXPANDING_OPTIONS) {
      const parsed = parse(command)
      expect([command, parsed.opaque]).toEqual([command, true])
      expect(decide(command, [rule("*", "*", "allow"), rule("bash", "git push *", "ask")])).toBe("ask")
    }
    // git reads options anywhere: a word that expands may become `--receive-pack=…` or `--output=…`.
    expect(parse("git push origin $BRANCH").opaque).toBe(true)
    expect(parse('git diff "$f"').opaque).toBe(true)
    expect(parse('git diff -- "$f"').opaque).toBe(false)
    expect(parse("git commit -m \"$MSG\"").opaque).toBe(false)
  })

  it("still allows what the rules allow", () => {
    expect(decide("git -C . status", [rule("*", "*", "allow"), rule("bash", "git push *", "ask")])).toBe("allow")
  })
})
