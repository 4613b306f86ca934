import { describe, expect, it } from "@effect/vitest"
import { BashParseLexical } from "../../../../src/tool/builtin/bash/parse-lexical.js"
import { decide, parser } from "../../../lib/bash-gate.js"
import { DIVERGENCES, LEXICAL_PLAIN } from "../../../lib/bash-tables.js"


describe("BashParseLexical: the parser refuses to claim understanding where bash may read otherwise", () => {
  for (const [name, command] of DIVERGENCES)
    it(`${name}: ${JSON.stringify(command)} is opaque, or its hidden command is judged`, () => {
      const { parsed, effect } = decide(command)
      expect(effect).toBe("ask")
      const surfaced = parsed.resources.some((resource) => /^(touch|rm) /.test(resource.text))
      expect(parsed.opaque || surfaced).toBe(true)
    })

  for (const [command, resources] of LEXICAL_PLAIN)
    it(`${JSON.stringify(command)} is still read`, () => {
      const parsed = parser.parse(command, { home: "/home/me" })
      expect(parsed.opaque).toBe(false)
      expect(parsed.resources.map((resource) => resource.text)).toEqual(resources)
    })

  it("control characters and non-ASCII blanks are strange; tab, newline and letters are not", () => {
    expect(["\r", "\v", "\f", "\u0000", "\u001b", "\u007f", "\u00a0", "\u2028", "\ufeff"].map(BashParseLexical.strange)).toEqual(Array(9).fill(true))
    expect(["\t", "\n", "é", "😀", "a b"].map(BashParseLexical.strange)).toEqual(Array(5).fill(false))
  })

  it("a continuation counts only after a blank, outside a commented line, before a line that is not blank", () => {
    expect(BashParseLexical.continuations("a \\\nb")).toBe(true)
    expect(BashParseLexical.continuations("a\\\\\nb")).toBe(true)
    expect(BashParseLexical.continuations("a\\\nb")).toBe(false)
    expect(BashParseLexical.continuations("a \\\\\\\nb")).toBe(false)
    expect(BashParseLexical.continuations("a \\\n\nb")).toBe(false)
    expect(BashParseLexical.continuations("a # \\\nb")).toBe(false)
  })
})
