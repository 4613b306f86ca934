import { describe, expect, it } from "@effect/vitest"
import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff"
import fc from "fast-check"
import { FileDiff } from "../../../src/tool/builtin/diff.js"

const reference = (before: string, after: string) =>
  createTwoFilesPatch("f.txt", "f.txt", before, after, undefined, undefined, { context: FileDiff.CONTEXT_LINES, headerOptions: FILE_HEADERS_ONLY })

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join("")

describe("FileDiff.unified", () => {
  const cases: ReadonlyArray<{ name: string; before: string; after: string; expected: string }> = [
    { name: "shows a changed line with its context", before: "x\ny\n", after: "x\nz\n", expected: "--- f.txt\n+++ f.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n" },
    { name: "shows only the headers when nothing changed", before: "same\n", after: "same\n", expected: "--- f.txt\n+++ f.txt\n" },
    { name: "shows a created file", before: "", after: "a\n", expected: "--- f.txt\n+++ f.txt\n@@ -0,0 +1,1 @@\n+a\n" },
    { name: "marks a last line without a newline", before: "a\nb", after: "a\nb\n", expected: "--- f.txt\n+++ f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n" },
    {
      name: "numbers a change deep in the file from the file's start",
      before: numbered(20),
      after: numbered(20).replace("line 12\n", "twelve\n"),
      expected: "--- f.txt\n+++ f.txt\n@@ -9,7 +9,7 @@\n line 9\n line 10\n line 11\n-line 12\n+twelve\n line 13\n line 14\n line 15\n",
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(FileDiff.unified("f.txt", c.before, c.after)).toBe(c.expected)
      expect(FileDiff.unified("f.txt", c.before, c.after)).toBe(reference(c.before, c.after))
    })
  }

  it("numbers an excerpt from its first line in the file", () => {
    expect(FileDiff.excerpt("a.txt", "x\ny\n", "x\nz\n", 10)).toBe("--- a.txt\n+++ a.txt\n@@ -10,2 +10,2 @@\n x\n-y\n+z\n")
  })

  it("splits two texts into a common start, the changed lines and a common rest", () => {
    expect(FileDiff.split("a\nb\nc\n", "a\nB\nc\n")).toEqual({ first: 2, rest: "c\n" })
    expect(FileDiff.split("a\nb\n", "a\nb\n")).toEqual({ first: 4, rest: "" })
    expect(FileDiff.split("ab", "xb")).toEqual({ first: 0, rest: "" })
  })

  it("shows a middle too different to diff cheaply as one replacing hunk", () => {
    const count = FileDiff.MAX_EDIT_LENGTH + 10
    const before = `head\n${numbered(count)}tail\n`
    const after = `head\n${numbered(count).replaceAll("line", "row")}tail\n`
    const lines = before.split("\n").slice(1, -2)
    expect(FileDiff.unified("f.txt", before, after)).toBe(
      [
        "--- f.txt",
        "+++ f.txt",
        `@@ -1,${count + 2} +1,${count + 2} @@`,
        " head",
        ...lines.map((line) => `-${line}`),
        ...lines.map((line) => `+${line.replace("line", "row")}`),
        " tail",
        "",
      ].join("\n"),
    )
  })

  it("pairs the lines of a huge core with as many lines on each side, hunk by hunk", () => {
    const count = FileDiff.MAX_DIFF_LINES + 10_000
    const before = Array.from({ length: count }, (_, index) => (index % 1_000 === 500 ? "MARK\n" : "same line\n")).join("")
    const after = before.replaceAll("MARK", "TOKEN")
    const diff = FileDiff.unified("f.txt", before, after)
    expect(applyPatch(before, diff)).toBe(after)
    expect(diff.split("\n").filter((line) => line.startsWith("@@"))).toEqual(Array.from({ length: count / 1_000 }, (_, index) => `@@ -${index * 1_000 + 498},7 +${index * 1_000 + 498},7 @@`))
    expect(diff.split("\n").slice(2, 10)).toEqual(["@@ -498,7 +498,7 @@", " same line", " same line", " same line", "-MARK", "+TOKEN", " same line", " same line"])
  })

  it("pairs a huge core whose every line changed without overflowing the stack", () => {
    const count = 200_000
    const before = "a line\n".repeat(count)
    const after = "b line\n".repeat(count)
    const diff = FileDiff.unified("f.txt", before, after)
    expect(diff.split("\n").slice(0, 4)).toEqual(["--- f.txt", "+++ f.txt", `@@ -1,${count} +1,${count} @@`, "-a line"])
    expect(applyPatch(before, diff)).toBe(after)
  })

  it("finds a one-line change in 50 MB quickly", () => {
    const before = "0123456789 abcdefghijklmnopqrstuvwxyz\n".repeat(1_400_000)
    const middle = before.length / 2 - ((before.length / 2) % 38)
    const after = `${before.slice(0, middle)}changed\n${before.slice(middle + 38)}`
    const started = performance.now()
    const diff = FileDiff.unified("big.txt", before, after)
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(diff).toBe(
      "--- big.txt\n+++ big.txt\n@@ -699998,7 +699998,7 @@\n 0123456789 abcdefghijklmnopqrstuvwxyz\n 0123456789 abcdefghijklmnopqrstuvwxyz\n 0123456789 abcdefghijklmnopqrstuvwxyz\n-0123456789 abcdefghijklmnopqrstuvwxyz\n+changed\n 0123456789 abcdefghijklmnopqrstuvwxyz\n 0123456789 abcdefghijklmnopqrstuvwxyz\n 0123456789 abcdefghijklmnopqrstuvwxyz\n",
    )
  })

  const lines = fc.array(fc.constantFrom("a\n", "b\n", "c\n", "\n", "a", "b "), { maxLength: 30 }).map((parts) => parts.join(""))

  it("produces a patch that turns before into after", () => {
    fc.assert(fc.property(lines, lines, (before, after) => {
      expect(applyPatch(before, FileDiff.unified("f.txt", before, after))).toBe(after)
    }), { numRuns: 500 })
  })

  it("shows a change among repeated lines where the texts first differ", () => {
    expect(FileDiff.unified("f.txt", "a\na\na\na\na\n", "a\na\nb\na\na\n")).toBe("--- f.txt\n+++ f.txt\n@@ -1,5 +1,5 @@\n a\n a\n-a\n+b\n a\n a\n")
  })

  it("keeps separate hunks for changes far apart", () => {
    const before = numbered(20)
    const after = before.replace("line 2\n", "two\n").replace("line 18\n", "eighteen\n")
    expect(FileDiff.unified("f.txt", before, after)).toBe(reference(before, after))
    expect(FileDiff.unified("f.txt", before, after)).toBe(
      "--- f.txt\n+++ f.txt\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n@@ -15,6 +15,6 @@\n line 15\n line 16\n line 17\n-line 18\n+eighteen\n line 19\n line 20\n",
    )
  })
})
