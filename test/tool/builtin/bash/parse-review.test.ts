import { describe, expect, it } from "@effect/vitest"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import type { PermissionRule } from "../../../../src/permission/rule.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"
import { EVERYDAY, FINDINGS, REVIEW_ASK_RULES, REVIEW_DENY_RULES } from "../../../lib/bash-tables.js"

const parser = await BashParse.load()
const parse = (command: string) => parser.parse(command, { home: "/home/me" })

const effect = (command: string, rules: ReadonlyArray<PermissionRule.Sourced>) => {
  const parsed = parse(command)
  const resources = parsed.resources.map((resource) => resource.text)
  return PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: rules, session: [], saved: [], opaque: parsed.opaque }).effect
}


describe("BashParse review findings", () => {
  for (const { finding, commands } of FINDINGS) {
    describe(finding, () => {
      for (const command of commands) {
        it(`stops ${JSON.stringify(command)}`, () => {
          expect(["deny", "ask"]).toContain(effect(command, REVIEW_DENY_RULES))
          expect(effect(command, REVIEW_ASK_RULES)).not.toBe("allow")
        })
      }
    })
  }

  it("leaves no write of finding 3 at a known place", () => {
    for (const command of FINDINGS[2]?.commands ?? []) {
      const files = parse(command).targets.filter((target) => target.kind === "file")
      expect(files.length).toBeGreaterThan(0)
      expect(files.every((target) => target.path === undefined || target.cwd.includes(undefined))).toBe(true)
    }
  })

  it("reads an abbreviated long option as the option it abbreviates (env --chd is --chdir)", () => {
    expect(parse("env --chd=/outside tee f").targets).toEqual([{ kind: "file", path: "f", cwd: ["/outside"] }])
    expect(parse("env --chd=/outside sh -c 'echo x > f'").targets).toEqual([{ kind: "file", path: "f", cwd: ["/outside"] }])
  })

  it("keeps git's own options readable when they configure nothing", () => {
    expect(parse("git commit -m 'fix -c option'").opaque).toBe(false)
    expect(parse("git --no-pager log --oneline").opaque).toBe(false)
  })

  it("makes a loop with a quoted cd start somewhere unknown", () => {
    expect(parse("for i in 1 2; do echo x > passwd; c''d /etc; done").targets.filter((target) => target.path === "passwd").map((target) => target.cwd)).toContainEqual([undefined])
  })
})


describe("BashParse after the review", () => {
  for (const command of EVERYDAY) it(`still reads ${JSON.stringify(command.slice(0, 60))}`, () => expect(parse(command).opaque).toBe(false))
})
