/**
 * Brace expansion against real bash: for each word, the files `touch <word>` names in the gate's
 * reading are the words bash itself makes of it (HOME set to the gate's home, run in an empty
 * folder so nothing globs). Before, such a word was one operand that was not static, so a program
 * that finds its output by position judged nothing: `cp .envr{c.in,c}` wrote `.envrc` and
 * `mv t{oolgate.json,x}` took the project config away, unasked under `* allow`.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BashParseBrace } from "../../../../src/tool/builtin/bash/parse-brace.js"
import { HOME, parse } from "../../../lib/bash-gate.js"

const empty = mkdtempSync(path.join(os.tmpdir(), "toolgate-brace-"))
afterAll(() => rmSync(empty, { recursive: true, force: true }))

/** The words real bash makes of `word`, each on its own. */
const bash = (word: string): ReadonlyArray<string> => {
  const out = execFileSync("bash", ["-c", `printf '%s\\0' ${word}`], { cwd: empty, env: { PATH: process.env.PATH ?? "", HOME } }).toString()
  return out === "" ? [] : out.slice(0, -1).split("\0")
}

const WORDS = [
  "a{b,c}d", "{a,b}{c,d}", "x{,}", "{,a}", "{a,b,}", "x{1..3}", "x{01..10..3}", "{a..e..2}", "{5..1}", "{-2..2}", "{-01..2}", "{3..1..2}", "{1..3..-1}", "{1..3..0}",
  "a{b{c,d},e}", "{a}{b,c}", "{a{b,c}", "a{b,c}{", "a\\{b,c\\}", "'{a,b}'c", '"x"{a,b}', "a{b,c}'{d,e}'", "a{b\\,c,d}", '{"a,b"}', "{1..a}",
  "~/{a,b}", "{~,x}/a", "'~'/{a,b}", ".envr{c.in,c}", "t{oolgate.json,x}", "sub/{.git/config,x}", "{1..2}{,}", "a{b,c}/../{d,e}",
]

describe("BashParseBrace against real bash", () => {
  // `touch --`: a word bash makes may start with `-` (`{-2..2}`); the gate lists each file once.
  const named = (word: string) => parse(`touch -- ${word}`).targets.map((target) => target.path)
  for (const word of WORDS) {
    it(`touch ${word} names what bash names`, () => {
      expect([word, named(word)]).toEqual([word, [...new Set(bash(word))]])
    })
  }

  it("a word bash makes that the gate cannot read is unknown, in its place", () => {
    // `~b` is user b's home folder; `{}` is a placeholder to the readers of find and xargs.
    expect([bash("~{/a,b}"), named("~{/a,b}")]).toEqual([[`${HOME}/a`, "~b"], [`${HOME}/a`, undefined]])
    expect([bash("{a,b}c{}"), named("{a,b}c{}")]).toEqual([["ac{}", "bc{}"], [undefined]])
  })

  it("leaves what it cannot know unknown: letter ranges through punctuation, and more than MAX_WORDS words", () => {
    expect(named("{Z..a}")).toEqual([undefined])
    const huge = parse(`touch x{1..${BashParseBrace.MAX_WORDS + 1}}`)
    expect(huge.opaque).toBe(true)
  })

  it("gives up at once, as opaque, on a word made to stall it (every { looked for its }, thousands of groups)", () => {
    for (const word of ["{".repeat(30_000), "{a,b}".repeat(10_000), `{${"a,".repeat(50_000)}b}`]) {
      const started = Date.now()
      const read = parse(`touch ${word}`)
      expect([word.slice(0, 12), read.opaque, Date.now() - started < 5_000]).toEqual([word.slice(0, 12), true, true])
    }
  })
})
