import { describe, expect, it } from "@effect/vitest"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"
import { BYPASS_ALLOWED, BYPASS_RULES, BYPASSES } from "../../../lib/bash-tables.js"

const parser = await BashParse.load()



const decide = (command: string) => {
  const parsed = parser.parse(command, { home: "/home/me" })
  const resources = parsed.resources.map((resource) => resource.text)
  return { parsed, effect: PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: BYPASS_RULES, session: [], saved: [], opaque: parsed.opaque }).effect }
}


describe("BashParse bypasses", () => {
  for (const c of BYPASSES) {
    it(`stops ${JSON.stringify(c.command.slice(0, 60))} with ${c.effect}`, () => {
      const { parsed, effect } = decide(c.command)
      expect(effect).toBe(c.effect)
      if (c.surfaces === undefined) return expect(parsed.opaque).toBe(true)
      expect(parsed.resources.map((resource) => resource.text)).toContain(c.surfaces)
    })
  }

  it("allows what the rules allow", () => expect(decide(BYPASS_ALLOWED).effect).toBe("allow"))
})
