/**
 * Quotes in the word of a `${…}` that is itself in double quotes (BashParseLexical), judged by
 * real bash with a recording `git` first on PATH. There bash reads single quotes as characters
 * and expands what they hold, drops inner double quotes (and their backslashes) before it
 * expands, and expands the text of `$'…'` again: `cat "${x-'$"(git push o)'}"` (the fuzzer's
 * seed 2613767319) pushed while the gate allowed it under `* allow` with `git push *` denied.
 * Each reproduction must push under bash and ask in the gate; then every spelling of a
 * generated family the gate allows is run, and none may push. The same holds for what an
 * unquoted heredoc body evaluates (BashParseGuard), where the grammar leaves lines unparsed.
 */
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../../../lib/bash-gate.js"
import { cleanup, pushes } from "../../../lib/bash-push-marker.js"

afterAll(cleanup)
const RULES = [rule("*", "allow"), rule("git push *", "deny")]
const effect = (line: string) => decide(line, RULES).effect
const PUSH = "git push o"
/** Deciding and running a few thousand lines takes seconds. */
const TIMEOUT_MS = 60_000

/** Lines the gate allowed and bash pushes from, one per way bash reads the word. */
const REPRODUCTIONS = [
  `cat "\${x-'$"(${PUSH})'}"`,
  `cat "\${x-'$""(${PUSH})'}"`,
  `cat "\${x-'$"\\(${PUSH})'}"`,
  `cat "\${x-"$""(${PUSH})"}"`,
  `cat "\${x-"$\\(${PUSH})"}"`,
  `cat "\${x-$'\\x24(${PUSH})'}"`,
  `cat "\${x-$'\\x60${PUSH}\\x60'}"`,
  `cat "\${x-$'\\u0024(${PUSH})'}"`,
  `cat "\${x:=$'\\x24(${PUSH})'}"`,
  `x=1; cat "\${x+'$"(${PUSH})'}"`,
  `cat "a\${x-'$"(${PUSH})'}b"`,
  `cat "\${x-\${y-'$"(${PUSH})'}}"`,
  `cat \${x-"\${y-'$"(${PUSH})'}"}`,
  `cat "\${x-'\${y-"$"(${PUSH})}'}"`,
  `cat "\${x-('$"(${PUSH})')}"`,
  `cat <<EOF\n\${x-'$"(${PUSH})'}\nEOF`,
  `cat <<EOF\n \${x-'$"(${PUSH})'}\nEOF`,
  `cat <<-EOF\n\t\${x-"$""(${PUSH})"}\n\tEOF`,
  `echo "$(cat "\${x-'$"(${PUSH})'}")"`,
  `for i in "\${x-'$"(${PUSH})'}"; do :; done`,
]

/**
 * What an unquoted heredoc body evaluates, with a value that holds no `$(` in the line: the
 * grammar leaves a body line that starts with a blank unparsed, and takes `$((x))` for a substitution.
 */
const EVALUATED = [`x=$'a[\\x24(${PUSH})]'; cat <<EOF\n $[x]\nEOF`, `x=$'a[\\x24(${PUSH})]'; cat <<EOF\n \${a[x]}\nEOF`, `x=$'a[\\x24(${PUSH})]'; cat <<EOF\n$((x))\nEOF`, `x=$'\\x24(${PUSH})'; cat <<EOF\n \${x@P}\nEOF`]

/** Spellings that join into a substitution: quotes before and after a `$` or a backquote, and `$'…'` escapes. */
const BEFORE = ["", "'", '"']
const BETWEEN = ["", "'", '"', "\\", '""', "''", "$'", '$"', "\\\\", "'\"", "\"'"]
const BODIES = [`(${PUSH})`, `{z-$(${PUSH})}`]
const AFTER = ["", "'", '"']
const ESCAPES = [`\\x24(${PUSH})`, `\\x60${PUSH}\\x60`, `\\u0024(${PUSH})`, `\\044(${PUSH})`, `\\$(${PUSH})`, `\\x24\\x28${PUSH}\\x29`]
const WORDS = [
  ...BEFORE.flatMap((before) => BETWEEN.flatMap((between) => BODIES.flatMap((body) => AFTER.map((after) => `${before}$${between}${body}${after}`)))),
  ...BEFORE.flatMap((before) => BETWEEN.flatMap((between) => AFTER.map((after) => `${before}${between}\`${PUSH}${between}\`${after}`))),
  ...ESCAPES.flatMap((escape) => BEFORE.map((quote) => `${quote}$'${escape}'${quote}`)),
]
/** Operators with the assignment that makes them expand their word (`+` and the patterns need a set variable). */
const OPERATORS = [
  ["-", ""],
  [":=", ""],
  ["?", ""],
  ["+", "y=x; "],
  ["#", "y=x; "],
  ["/x/", "y=x; "],
] as const
/** Where the `${…}` sits: double quotes, nested, an unquoted one around a quoted one, heredoc bodies, a substitution in quotes; and a word in parentheses. */
const FRAMES: ReadonlyArray<readonly [string, (operator: string, word: string) => string]> = [
  ["in double quotes", (operator, word) => `cat "\${y${operator}${word}}"`],
  ["nested in double quotes", (operator, word) => `cat "a\${y${operator}\${z-${word}}}"`],
  ["double-quoted inside an unquoted one", (operator, word) => `cat \${y${operator}"\${z-${word}}"}`],
  ["in a heredoc body", (operator, word) => `cat <<E\n\${y${operator}${word}}\nE`],
  ["in a heredoc line that starts with a blank (the grammar leaves it unparsed)", (operator, word) => `cat <<E\n \${y${operator}${word}}\nE`],
  ["in a substitution in double quotes", (operator, word) => `echo "$(cat "\${y${operator}${word}}")"`],
  ["in parentheses (an array to the grammar)", (operator, word) => `cat "\${y${operator}(${word})}"`],
]

describe("quotes in the word of a double-quoted ${…} (real bash)", () => {
  for (const line of REPRODUCTIONS) {
    it(`pushes under bash, and asks: ${JSON.stringify(line)}`, () => {
      expect(pushes(line)).toBe(PUSH)
      expect(effect(line)).toBe("ask")
    })
  }

  for (const [name, frame] of FRAMES) {
    it(
      `never allows a spelling that pushes, ${name}`,
      () => {
        const allowed = OPERATORS.flatMap(([operator, set]) => WORDS.map((word) => `${set}${frame(operator, word)}`)).filter((line) => effect(line) === "allow")
        // The plain spellings (`$(git push o)` in the word) are read and denied, not allowed: what is allowed is what the gate reads as text.
        expect(allowed.filter((line) => pushes(line) !== "")).toEqual([])
      },
      TIMEOUT_MS,
    )
  }

  for (const line of EVALUATED) {
    it(`pushes under bash, and asks: ${JSON.stringify(line)}`, () => {
      expect(pushes(line)).toBe(PUSH)
      expect(effect(line)).toBe("ask")
    })
  }

  it("reads the plain spellings bash reads alike, and denies the push they show", () => {
    expect([`cat "\${f%'.txt'}"`, `cat "\${x:-"$HOME"}"`, `cat "\${x:-'a b'}"`, `cat \${x-'$"(${PUSH})'}`].map(effect)).toEqual(["allow", "allow", "allow", "allow"])
    expect([`cat "\${x:-"$(${PUSH})"}"`, `cat "\${x:-$(${PUSH})}"`].map(effect)).toEqual(["deny", "deny"])
    expect(pushes(`cat \${x-'$"(${PUSH})'}`)).toBe("")
  })
})
