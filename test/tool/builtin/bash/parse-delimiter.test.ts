import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { BashParseDelimiter } from "../../../../src/tool/builtin/bash/parse-delimiter.js"

/** Delimiter words after `cat <<`, each followed by `;echo after` so a word bash ends sooner shows. */
const WORDS = ["EOF", "'EOF'", '"EOF"', "E'O'F", 'E"O"F', "E\\OF", "'E\\OF'", '"E\\OF"', '"E\\$F"', "E\\'F", "$x", "EOF#", "'a b'", "E{F}"]

/** What real bash prints for `cat <<WORD;echo after`, a body line, `line`, then `true`. */
const bash = (word: string, line: string) =>
  execFileSync("bash", ["--norc", "--noprofile", "-c", `cat <<${word};echo after\nbody\n${line}\ntrue`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })

describe("BashParseDelimiter.read: the heredoc delimiter as bash reads it", () => {
  for (const word of WORDS)
    it(`${JSON.stringify(word)} ends where bash ends it, and its line ends the body in real bash`, () => {
      const source = `cat <<${word};echo after`
      const read = BashParseDelimiter.read(source, 6)
      expect(read?.end).toBe(6 + word.length)
      // The oracle: the body is "body" alone, then `echo after` runs, when our line is the one bash ends it with.
      expect(bash(word, read!.line)).toBe("body\nafter\n")
      expect(read!.quoted).toBe(/['"\\]/.test(word))
    })

  it("ends at every metacharacter and blank", () => {
    for (const end of [";", "&", "|", "<", ">", "(", ")", " ", "\t", "\n"]) expect(BashParseDelimiter.read(`<<EOF${end}x`, 2)?.line).toBe("EOF")
  })

  it("gives up on nested syntax, continuations and unterminated quotes", () => {
    for (const word of ["$(x)", "${x}", "`x`", "$'x'", '$"x"', "$[1]", "E\\\nOF", "'EOF", '"EOF', '"$(x)"', ""]) expect(BashParseDelimiter.read(`<<${word}`, 2)).toBeUndefined()
  })
})
