import { describe, expect, it } from "@effect/vitest"
import { decide, parser, rule } from "../../../lib/bash-gate.js"
import { EXACT_DENIES, FIT_ALLOWED, FIT_ASKED, FIT_RULES } from "../../../lib/bash-tables.js"

const parse = (command: string) => parser.parse(command, { home: "/home/me" })

/** Issue 11, item 12: harmless spellings must not push people to broad rules. */
describe("BashParse: harmless spellings do not stop a rule from matching", () => {
  const rules = FIT_RULES
  for (const command of FIT_ALLOWED)
    it(`${JSON.stringify(command)} is allowed by the rule for what it runs`, () => {
      expect(decide(command, rules).effect).toBe("allow")
    })

  for (const command of FIT_ASKED)
    it(`${JSON.stringify(command)} still asks`, () => {
      expect(decide(command, rules).effect).toBe("ask")
    })

  it("git -C names a directory the tool judges like a cd", () => {
    expect(parse("git -C /outside commit -m x").targets).toEqual([{ kind: "directory", path: "/outside", cwd: [], entered: true }])
  })
})

describe("BashParse: exact rules, unsets, cd and save patterns (issue 11, also)", () => {
  it("an exact deny also matches the command with its redirections appended", () => {
    for (const [command, exact] of EXACT_DENIES)
      expect([command, decide(command, [rule("*", "allow"), rule(exact, "deny")]).effect]).toEqual([command, "deny"])
  })

  it("the redirect-free form saves nothing: an always covers no more than before", () => {
    expect(parse("echo hi 2>&1").resources).toEqual([
      { text: "echo hi 2>&1", save: "echo *" },
      { text: "echo hi", save: undefined },
    ])
  })

  it("`\\ rm harmless` keeps its raw text and saves nothing", () => {
    expect(parse("\\ rm harmless").resources).toEqual([{ text: "\\ rm harmless", save: undefined }])
  })

  it("unset of plain names is read, not opaque", () => {
    for (const command of ["unset X", "unset -v X Y", "unset -f f"]) expect([command, parse(command).opaque]).toEqual([command, false])
    for (const command of ["unset 'a[$(x)]'", "unset $n", "unset PATH", "unset GIT_DIR"]) expect([command, parse(command).opaque]).toEqual([command, true])
  })

  it("a line that is only a cd saves cd *", () => {
    expect(parse("cd src").resources).toEqual([{ text: "cd src", save: "cd *" }])
    expect(parse("cd").resources).toEqual([{ text: "cd", save: "cd *" }])
    expect(parse("cd a && pushd b").resources).toEqual([{ text: "cd a && pushd b", save: undefined }])
  })

  it("leading harmless assignments save the operation's pattern", () => {
    expect(parse("NODE_ENV=test npm test").resources).toEqual([{ text: "npm test", save: "npm test *" }])
  })
})
