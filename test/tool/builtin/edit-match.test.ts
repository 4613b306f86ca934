import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { FileDiff } from "../../../src/tool/builtin/diff.js"
import { EditMatch } from "../../../src/tool/builtin/edit/match.js"
import { EditPlan } from "../../../src/tool/builtin/edit/plan.js"
import { TextStyle } from "../../../src/tool/builtin/edit/text-style.js"

describe("EditMatch.normalize", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["\u2018a\u2019 \u201Ab\u201B", "'a' 'b'"],
    ["\u201Ca\u201D \u201Eb\u201F", '"a" "b"'],
    ["1\u20102\u20113\u20124\u20135\u20146\u20157\u22128", "1-2-3-4-5-6-7-8"],
    ["a\u00A0b\u2003c\u202Fd\u3000e", "a b c d e"],
    ["plain 'text' - as is", "plain 'text' - as is"],
  ]
  for (const [input, expected] of cases) {
    it(`maps ${JSON.stringify(input)} one character for one`, () => {
      expect(EditMatch.normalize(input)).toBe(expected)
      expect(EditMatch.normalize(input).length).toBe(input.length)
    })
  }
})

describe("EditMatch.find", () => {
  const cases: ReadonlyArray<{ name: string; text: string; old: string; expected: EditMatch.Found | undefined }> = [
    { name: "finds an exact substring", text: "a b c", old: "b", expected: { tier: "exact", ranges: [{ start: 2, end: 3 }] } },
    { name: "finds non-overlapping exact matches left to right", text: "aaaaa", old: "aa", expected: { tier: "exact", ranges: [{ start: 0, end: 2 }, { start: 2, end: 4 }] } },
    { name: "matches curly quotes in the file with straight ones", text: "say \u201Chi\u201D now", old: 'say "hi"', expected: { tier: "normalized", ranges: [{ start: 0, end: 8 }] } },
    { name: "matches curly quotes in oldString with straight ones", text: "x = 'a'", old: "x = \u2018a\u2019", expected: { tier: "normalized", ranges: [{ start: 0, end: 7 }] } },
    { name: "matches the dash family as a hyphen", text: "a \u2013 b \u2014 c", old: "a - b - c", expected: { tier: "normalized", ranges: [{ start: 0, end: 9 }] } },
    { name: "matches a non-breaking space as a space", text: "a\u00A0b", old: "a b", expected: { tier: "normalized", ranges: [{ start: 0, end: 3 }] } },
    { name: "prefers an exact match over a normalised one", text: "a\u2013b a-b", old: "a-b", expected: { tier: "exact", ranges: [{ start: 4, end: 7 }] } },
    { name: "matches whole lines ignoring trailing whitespace", text: "  foo  \nbar\t\nbaz\n", old: "  foo\nbar", expected: { tier: "lines", ranges: [{ start: 0, end: 12 }] } },
    { name: "includes the last line break when oldString ends with one", text: "  foo  \nbar\t\nbaz\n", old: "  foo\nbar\n", expected: { tier: "lines", ranges: [{ start: 0, end: 13 }] } },
    { name: "normalises typography in the line tier too", text: "it\u2019s \nnext\n", old: "it's\nnext", expected: { tier: "lines", ranges: [{ start: 0, end: 10 }] } },
    { name: "matches lines at the end of a file without a final break", text: "a\nb  ", old: "b\n", expected: { tier: "lines", ranges: [{ start: 2, end: 5 }] } },
    { name: "does not match leading whitespace differences", text: "  foo\n", old: "    foo", expected: undefined },
    { name: "does not match part of a line in the line tier", text: "foo bar\n", old: "foo  ", expected: undefined },
    { name: "does not match blank lines for a whitespace-only oldString", text: "a\n\nb", old: "   ", expected: undefined },
    { name: "finds nothing for an empty oldString", text: "abc", old: "", expected: undefined },
    { name: "never matches half of a character", text: "a\u{1F600}b", old: "\uD83D", expected: undefined },
  ]
  for (const c of cases) it(c.name, () => expect(EditMatch.find(c.text, c.old)).toEqual(c.expected))
})

describe("EditMatch.closest", () => {
  it("returns the window sharing the most non-trivial lines, at oldString's length", () => {
    const text = "import x\n\nfunction a() {\n  return 1\n}\n\nfunction b() {\n  return 2\n}\n"
    expect(EditMatch.closest(text, "function b() {\n    return 2\n}")).toEqual({ first: 7, lines: ["function b() {", "  return 2", "}"] })
  })

  it("compares lines after normalising typography, and shows them as stored", () => {
    expect(EditMatch.closest("x\n  say \u201Chi\u201D\ny\n", 'say "hi"\nzzz')).toEqual({ first: 2, lines: ["  say \u201Chi\u201D", "y"] })
  })

  it("ignores lines shorter than the minimum once trimmed", () => {
    expect(EditMatch.closest("}\n)\nab\n", "  }\n  ab\n")).toBeUndefined()
  })

  it("clamps the window to the file", () => {
    expect(EditMatch.closest("last line here", "zero\nlast line here\nafter")).toEqual({ first: 1, lines: ["last line here"] })
  })

  it("breaks ties by the earliest window", () => {
    expect(EditMatch.closest("same line\nother\nsame line\n", "  same line")).toEqual({ first: 1, lines: ["same line"] })
  })
})

describe("TextStyle", () => {
  it("strips a BOM and maps CRLF to LF, keeping CRLF as the dominant ending", () => {
    const view = TextStyle.view("\uFEFFa\r\nb\r\nc\n")
    expect(view).toEqual({ bom: true, text: "a\r\nb\r\nc\n", lf: "a\nb\nc\n", crlf: [1, 3], eol: "\r\n" })
  })

  it("keeps LF as the dominant ending when bare LFs are as many", () => {
    expect(TextStyle.view("a\r\nb\n").eol).toBe("\n")
  })

  it("treats a lone CR as an ordinary character", () => {
    expect(TextStyle.view("a\rb\n")).toEqual({ bom: false, text: "a\rb\n", lf: "a\rb\n", crlf: [], eol: "\n" })
  })

  it("maps LF-view offsets back to the stored text", () => {
    const view = TextStyle.view("a\r\nb\nc\r\nd")
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((offset) => TextStyle.toText(view, offset))).toEqual([0, 1, 3, 4, 5, 6, 8, 9])
  })

  it("spells every line break with the given ending", () => {
    expect(TextStyle.withEol("a\r\nb\nc", "\r\n")).toBe("a\r\nb\r\nc")
    expect(TextStyle.withEol("a\r\nb\nc", "\n")).toBe("a\nb\nc")
  })
})

/**
 * What a plan writes, as text, after checking that its byte form (spliced from the file's own
 * bytes) is exactly that text encoded.
 */
const written = (source: string, oldString: string, newString: string, replaceAll = false) => {
  const outcome = EditPlan.make(source, { oldString, newString, replaceAll })
  if (outcome._tag !== "Edit") return outcome
  const content = EditPlan.content(outcome)
  expect(EditPlan.bytes(outcome, Buffer.from(source))).toEqual(Buffer.from(content))
  return { _tag: outcome._tag, tier: outcome.tier, replacements: outcome.replacements, content }
}

describe("EditPlan", () => {
  it("writes replaced and inserted lines of a CRLF file with CRLF, and diffs the LF view", () => {
    expect(written("a\r\nb\r\nc\r\n", "b\n", "x\ny\n")).toEqual({ _tag: "Edit", tier: "exact", replacements: 1, content: "a\r\nx\r\ny\r\nc\r\n" })
    const outcome = EditPlan.make("a\r\nb\r\nc\r\n", { oldString: "b\n", newString: "x\ny\n", replaceAll: false })
    expect(outcome._tag === "Edit" && EditPlan.diff(outcome, "f.txt")).toBe("--- f.txt\n+++ f.txt\n@@ -1,3 +1,4 @@\n a\n-b\n+x\n+y\n c\n")
  })

  it("leaves the endings of untouched lines of a mixed file alone", () => {
    expect(written("a\nb\r\nc\r\nd\r\ne\n", "c\nd", "C\nD")).toMatchObject({ content: "a\nb\r\nC\r\nD\r\ne\n" })
  })

  it("keeps a BOM exactly once, even when newString starts with one", () => {
    expect(written("\uFEFFab", "a", "x")).toMatchObject({ content: "\uFEFFxb" })
    expect(written("\uFEFFab", "a", "\uFEFFx")).toMatchObject({ content: "\uFEFFxb" })
    expect(written("\uFEFFa b a", "a", "\uFEFFx", true)).toMatchObject({ content: "\uFEFFx b \uFEFFx" })
  })

  it("maps offsets to bytes past multi-byte characters", () => {
    expect(written("é😀 x é😀 x\n", "x", "ß", true)).toMatchObject({ content: "é😀 ß é😀 ß\n" })
    expect(written("\uFEFFé x\r\n", "x", "y\nz", true)).toMatchObject({ content: "\uFEFFé y\r\nz\r\n" })
  })

  it("reports every match when replaceAll is false", () => {
    expect(written("x y x y x", "x", "z")).toEqual({ _tag: "Ambiguous", count: 3 })
  })

  it("replaces every match when replaceAll is true", () => {
    expect(written("x y x y x", "x", "z", true)).toEqual({ _tag: "Edit", tier: "exact", replacements: 3, content: "z y z y z" })
  })

  it("reports no match with the closest region", () => {
    expect(written("one line\ntwo line\n", "  two line\nthree", "x")).toEqual({ _tag: "NoMatch", closest: { first: 2, lines: ["two line"] } })
  })

  it("numbers the diff of an edit deep in a file from the file's start", () => {
    const source = Array.from({ length: 100 }, (_, index) => `line ${index + 1}\n`).join("")
    const outcome = EditPlan.make(source, { oldString: "line 50\n", newString: "fifty\n", replaceAll: false })
    expect(outcome._tag === "Edit" && EditPlan.diff(outcome, "f.txt")).toBe(
      "--- f.txt\n+++ f.txt\n@@ -47,7 +47,7 @@\n line 47\n line 48\n line 49\n-line 50\n+fifty\n line 51\n line 52\n line 53\n",
    )
  })

  it("widens the diff when the change floats past the lines around the match", () => {
    const source = `x\n${"\n".repeat(10)}y\n`
    const outcome = EditPlan.make(source, { oldString: "x\n", newString: "x", replaceAll: false })
    expect(outcome._tag === "Edit" && EditPlan.diff(outcome, "f.txt")).toBe("--- f.txt\n+++ f.txt\n@@ -8,5 +8,4 @@\n \n \n \n-\n y\n")
    expect(outcome._tag === "Edit" && EditPlan.diff(outcome, "f.txt")).toBe(FileDiff.unified("f.txt", source, `x${"\n".repeat(10)}y\n`))
  })

  const alphabet = fc.constantFrom("a", "b", " ", "\n", "\u201C", "\u2013", "é", "😀", "\uFEFF")
  /** Texts that may hold U+FEFF anywhere but first, where it would be the file's BOM. */
  const text = fc.array(alphabet, { minLength: 1, maxLength: 40 }).map((chars) => chars.join("")).filter((source) => !source.startsWith("\uFEFF"))
  const replacement = fc.array(alphabet, { maxLength: 6 }).map((chars) => chars.join(""))

  it("replaces a unique exact substring by slicing around it", () => {
    fc.assert(fc.property(text, fc.nat(), fc.nat(), replacement, (source, a, b, next) => {
      const start = a % source.length
      const end = start + 1 + (b % (source.length - start))
      const old = source.slice(start, end)
      fc.pre(source.indexOf(old) === source.lastIndexOf(old) && old.isWellFormed())
      expect(written(source, old, next)).toEqual({ _tag: "Edit", tier: "exact", replacements: 1, content: source.slice(0, start) + next + source.slice(end) })
    }))
  })

  it("replaces every exact occurrence like split and join, and diffs like the whole-file diff", () => {
    fc.assert(fc.property(text, fc.nat(), fc.nat(), replacement, (source, a, b, next) => {
      const start = a % source.length
      const old = source.slice(start, start + 1 + (b % 3))
      fc.pre(source.isWellFormed() && old.isWellFormed() && old !== next)
      expect(written(source, old, next, true)).toMatchObject({ _tag: "Edit", content: source.split(old).join(next) })
      const outcome = EditPlan.make(source, { oldString: old, newString: next, replaceAll: true })
      expect(outcome._tag === "Edit" && EditPlan.diff(outcome, "f.txt")).toBe(FileDiff.unified("f.txt", source, source.split(old).join(next)))
    }))
  })

  it("edits a CRLF file as its LF view converted back", () => {
    fc.assert(fc.property(text, fc.nat(), fc.nat(), replacement, (source, a, b, next) => {
      const start = a % source.length
      const old = source.slice(start, start + 1 + (b % 4))
      fc.pre(source.includes("\n") && source.isWellFormed() && old.isWellFormed())
      const lf = written(source, old, next, true)
      expect(written(source.replaceAll("\n", "\r\n"), old, next, true)).toMatchObject({ _tag: "Edit", content: (lf as { content: string }).content.replaceAll("\n", "\r\n") })
    }))
  })

  it("keeps the ending of every line of a mixed file when no line breaks are edited", () => {
    const line = fc.tuple(fc.array(fc.constantFrom("a", "b", " "), { maxLength: 6 }).map((chars) => chars.join("")), fc.constantFrom("\n", "\r\n"))
    const endings = (content: string) => content.match(/\r?\n/g) ?? []
    fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom("a", "b", "ab", " a"), fc.constantFrom("x", "yy", ""), (lines, old, next) => {
      const source = lines.map(([body, eol]) => body + eol).join("")
      const outcome = written(source, old, next, true)
      fc.pre(outcome._tag === "Edit")
      expect(endings((outcome as { content: string }).content)).toEqual(endings(source))
    }))
  })
})
