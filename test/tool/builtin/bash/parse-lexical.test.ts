import { describe, expect, it } from "@effect/vitest"
import { BashParseLexical } from "../../../../src/tool/builtin/bash/parse-lexical.js"
import { decide, parser } from "../../../lib/bash-gate.js"

const T = "touch /outside/PWNED"

/** Issue 11, items 1–5: lines where tree-sitter's reading differs from bash's. Each must not be allowed. */
const divergences: ReadonlyArray<readonly [string, string]> = [
  ["nested backquotes", `echo \`echo \\\`${T}\\\`\``],
  ["nested backquotes in double quotes", `echo "\`echo \\\`${T}\\\`\`"`],
  ["three levels of backquotes", `echo \`echo \\\`echo \\\\\\\`${T}\\\\\\\`\\\`\``],
  ["nested backquotes behind git status", `git status \`echo \\\`${T}\\\`\``],
  ["a backquote with an escaped dollar", `echo \`echo \\$(${T})\``],
  ["a line that is a backslash-newline", `echo a\n\\\n${T}`],
  ["a line that starts with a backslash", `echo a\n\\${T}`],
  ["indented", `echo a\n  \\\n  \\${T}`],
  ["chained", `echo a && echo b\n\\\n${T}`],
  ["inside a subshell", `(echo a\n\\\n${T})`],
  ["inside sh -c", `sh -c 'echo a\n\\\n${T}'`],
  ["backslash CR LF", `echo a\\\r\n${T}`],
  ["CR before #", `echo a\r#; ${T}`],
  ["VT before #", `echo a\v#; ${T}`],
  ["FF before #", `echo a\f#; ${T}`],
  ["CR after a redirect operator", "echo a <\r\nrm -f victim"],
  ["ESC", `echo a\u001b; ${T}`],
  ["a no-break space", `echo a\u00a0;\u00a0${T}`],
  ["a quote, #\\, a newline and a blank line", `echo 'a'#\\\n\n${T}`],
  ["a substitution, #\\, a newline and a blank line", `echo $(echo a)#\\\n\n${T}`],
  ["a continuation in a commented line", `echo a # b \\\n${T}`],
  ["a continuation after no blank", `echo a\\\n${T}`],
  ["a continuation ending the text", "echo a \\"],
  ["an escaped blank before the command name", "\\ rm harmless"],
  // Found by the differential fuzzer.
  ["a backquote ends at the next backquote, inside single quotes too", `echo \`echo '\`;${T}\`'\``],
  ["a write hidden the same way", "echo `echo '`>/outside/victim`'`"],
  ["$'\\\\' is one backslash: the string ends there", `echo $'\\\\';${T} \\'`],
  ["a heredoc delimiter partly quoted, in a subshell", `(cat <<E"O"F\n$x\nEOF\n${T}\n)`],
  ["the same in a substitution", `echo $(cat <<E""OF\n\${}\nEOF\n${T}\n)`],
]

describe("BashParseLexical: the parser refuses to claim understanding where bash may read otherwise", () => {
  for (const [name, command] of divergences)
    it(`${name}: ${JSON.stringify(command)} is opaque, or its hidden command is judged`, () => {
      const { parsed, effect } = decide(command)
      expect(effect).toBe("ask")
      const surfaced = parsed.resources.some((resource) => /^(touch|rm) /.test(resource.text))
      expect(parsed.opaque || surfaced).toBe(true)
    })

  const plain: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ["docker run \\\n  -v a:b \\\n  img", ["docker run \\\n  -v a:b \\\n  img", "docker run -v a:b img"]],
    ["echo a # a comment\necho b", ["echo a", "echo b"]],
    ["echo a#b", ["echo a#b"]],
    ["echo 'a  b' \"c\td\"", ["echo 'a  b' \"c\td\""]],
    ["echo $(date)", ["echo $(date)", "date"]],
    ["echo `date`", ["echo `date`", "date"]],
    ["cat <<EOF\nline \\\nEOF", ["cat <<EOF", "cat"]],
  ]
  for (const [command, resources] of plain)
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
