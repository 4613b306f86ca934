/**
 * Where bash expands a `~`: at the start of a word, and after the `=` or a `:` of an argument
 * shaped like an assignment (`a=~/f`, `PATH=x:~/bin`). The oracle is real bash with the parser's
 * home as HOME: for every word below used as a redirect target, a `tee` operand and an option
 * value, the parser's static path (when it has one) must be what bash makes of the word.
 */
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { HOME, parse } from "../../../lib/bash-gate.js"

const NAMES = ["a", "_x", "x1", "x[1]", "x+", "1x", "-x", "--o", "\"a\"", "a\\", "a.b"]
const VALUES = ["~/f", "~", "b:~/f", "b:~", ":~/f", "~:~/f", "=~/f", "\"~\"/f", "'~'/f", "b\\:~/f", "~root/f", "~+/f"]

/** Every word shape: a name, an `=`, a value with a `~` somewhere bash may or may not expand. */
const WORDS = NAMES.flatMap((name) => VALUES.map((value) => `${name}=${value}`))

/** What bash makes of `word` as one argument, with HOME the parser's home. */
const expanded = (word: string): string => execFileSync("bash", ["-c", `printf '%s' ${word}`], { encoding: "utf8", env: { HOME, PATH: process.env.PATH ?? "/usr/bin:/bin" } })

describe("a ~ inside an argument shaped like an assignment", () => {
  it("the oracle: bash expands `a=~/f` and `x=b:~/f`, but not `\"a\"=~/f` or `a:~/f`", () => {
    expect(expanded("a=~/f")).toBe(`a=${HOME}/f`)
    expect(expanded("x=b:~/f")).toBe(`x=b:${HOME}/f`)
    expect(expanded("\"a\"=~/f")).toBe("a=~/f")
    expect(expanded("a:~/f")).toBe("a:~/f")
  })

  for (const form of [(word: string) => `echo x > ${word}`, (word: string) => `echo x | tee ${word}`, (word: string) => `sort -o ${word} f`]) {
    it(`a static path the parser reads in "${form("WORD")}" is the one bash writes`, () => {
      const misread: Array<string> = []
      for (const word of WORDS) {
        const targets = parse(form(word)).targets.filter((target) => target.kind === "file")
        if (!word.startsWith("-")) expect(targets.length).toBeGreaterThan(0)
        for (const target of targets) if (target.path !== undefined && target.path !== expanded(word)) misread.push(`${word} read as ${target.path}, bash: ${expanded(word)}`)
      }
      expect(misread).toEqual([])
    })
  }

  it("still reads a word bash leaves alone as static", () => {
    expect(parse("echo x > a=b").targets[0]?.path).toBe("a=b")
    expect(parse("echo x > a:~/f").targets[0]?.path).toBe("a:~/f")
  })
})
