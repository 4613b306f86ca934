import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { FileDiff } from "../../../src/tool/builtin/diff.js"
import { ApplyPatchDiff } from "../../../src/tool/builtin/apply-patch/diff.js"
import { ApplyPatchParse } from "../../../src/tool/builtin/apply-patch/parse.js"
import { ApplyPatchPlan } from "../../../src/tool/builtin/apply-patch/plan.js"

/** The chunks of a one-file update patch body. */
const chunksOf = (...body: ReadonlyArray<string>) => {
  const parsed = ApplyPatchParse.parse(["*** Begin Patch", "*** Update File: f", ...body, "*** End Patch"].join("\n"))
  if (ApplyPatchParse.isError(parsed) || parsed[0]?.type !== "update") throw new Error("not an update")
  return parsed[0].chunks
}

const updated = (text: string, ...body: ReadonlyArray<string>) => {
  const result = ApplyPatchPlan.update(text, chunksOf(...body), "f")
  return ApplyPatchPlan.isError(result) ? result.message : result
}

describe("ApplyPatchPlan.update", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly text: string; readonly body: ReadonlyArray<string>; readonly result: string }> = [
    { name: "replaces a line", text: "a\nb\nc\n", body: ["@@", " a", "-b", "+B", " c"], result: "a\nB\nc\n" },
    { name: "applies chunks from a moving cursor", text: "x\ny\nx\ny\n", body: ["@@", "-x", "+1", "@@", "-x", "+2"], result: "1\ny\n2\ny\n" },
    { name: "seeks the @@ context line first", text: "def a():\n  pass\ndef b():\n  pass\n", body: ["@@ def b():", "-  pass", "+  return 1"], result: "def a():\n  pass\ndef b():\n  return 1\n" },
    { name: "adds a final newline", text: "a", body: ["@@", "-a", "+b"], result: "b\n" },
    { name: "adds a final newline to an untouched last line", text: "a\nz", body: ["@@", "-a", "+b"], result: "b\nz\n" },
    { name: "appends pure additions at the end", text: "a\nb", body: ["@@", "+c"], result: "a\nb\nc\n" },
    { name: "inserts pure additions after the @@ context line", text: "a\nb\n", body: ["@@ a", "+x"], result: "a\nx\nb\n" },
    { name: "anchors an end-of-file chunk at the end", text: "a\nb\na\n", body: ["@@", "-a", "+z", "*** End of File"], result: "a\nb\nz\n" },
    { name: "keeps CRLF endings, new lines included", text: "one\r\ntwo\r\n", body: ["@@", "-one", "+ONE", " two", "+three"], result: "ONE\r\ntwo\r\nthree\r\n" },
    { name: "keeps each context line's own ending in a mixed file", text: "a\r\nb\rc\nd\r\n", body: ["@@", " a", " b", "-c", "+C", " d"], result: "a\r\nb\rC\r\nd\r\n" },
    { name: "keeps a BOM", text: "\uFEFFa\nb\n", body: ["@@", "-a", "+A"], result: "\uFEFFA\nb\n" },
    { name: "keeps fuzzy-matched context lines as they are", text: "a  \n\u201Cq\u201D\nc\n", body: ["@@", " a", " \"q\"", "-c", "+C"], result: "a  \n\u201Cq\u201D\nC\n" },
    { name: "retries without a trailing empty old line", text: "a\nb\n", body: ["@@", "-b", "-", "+B", "+"], result: "a\nB\n" },
    { name: "updates an empty file", text: "", body: ["@@", "+x"], result: "x\n" },
    { name: "fails on a missing context line", text: "a\n", body: ["@@ nowhere", "-a"], result: "Failed to find context 'nowhere' in f" },
    { name: "fails on missing old lines, listing them", text: "a\n", body: ["@@", " a", "-missing", "+x"], result: "Failed to find expected lines in f:\na\nmissing" },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(updated(c.text, ...c.body)).toBe(c.result)
    })
  }
})

const place = (name: string): ApplyPatchPlan.Place => ({ real: `/r/${name}`, resource: name })
const file = (text: string, mode = 0o100644): ApplyPatchPlan.Disk => ({ type: "file", bytes: Buffer.from(text), mode })
const disk = (entries: Readonly<Record<string, ApplyPatchPlan.Disk>>) => new Map(Object.entries(entries).map(([name, found]) => [`/r/${name}`, found]))
const summary = (plan: ApplyPatchPlan.Plan | ApplyPatchPlan.PlanError) =>
  ApplyPatchPlan.isError(plan)
    ? plan.message
    : { files: plan.files, diff: plan.diff, changes: plan.changes.map((change) => [change.place.resource, change.next?.toString(), change.mode]), shown: plan.shown.map((shown) => shown.resource) }

describe("ApplyPatchPlan.make", () => {
  it("lists added, then modified, then deleted files with one combined diff", () => {
    const steps: ReadonlyArray<ApplyPatchPlan.Step> = [
      { type: "delete", target: place("d.txt") },
      { type: "update", target: place("m.txt"), move: undefined, chunks: chunksOf("@@", "-x", "+y") },
      { type: "add", target: place("a.txt"), contents: "new\n" },
    ]
    expect(summary(ApplyPatchPlan.make(steps, disk({ "d.txt": file("gone\n"), "m.txt": file("x\n", 0o100755) })))).toEqual({
      files: [
        { status: "A", path: "a.txt" },
        { status: "M", path: "m.txt" },
        { status: "D", path: "d.txt" },
      ],
      diff: "--- a.txt\n+++ a.txt\n@@ -0,0 +1,1 @@\n+new\n--- m.txt\n+++ m.txt\n@@ -1,1 +1,1 @@\n-x\n+y\n--- d.txt\n+++ d.txt\n@@ -1,1 +0,0 @@\n-gone\n",
      changes: [
        ["d.txt", undefined, 0o100644],
        ["m.txt", "y\n", 0o100755],
        ["a.txt", "new\n", undefined],
      ],
      shown: ["d.txt", "m.txt"],
    })
  })

  it("moves a file onto an existing destination, keeping the source's mode, and shows what the destination held", () => {
    const steps: ReadonlyArray<ApplyPatchPlan.Step> = [{ type: "update", target: place("old.txt"), move: place("new.txt"), chunks: chunksOf("@@", "-from", "+to") }]
    expect(summary(ApplyPatchPlan.make(steps, disk({ "old.txt": file("from\n", 0o100700), "new.txt": file("existing\n") })))).toEqual({
      files: [{ status: "M", path: "new.txt" }],
      diff: "--- old.txt\n+++ new.txt\n@@ -1,1 +1,1 @@\n-from\n+to\n--- new.txt\n+++ new.txt\n@@ -1,1 +1,1 @@\n-existing\n+to\n",
      changes: [
        ["new.txt", "to\n", 0o100700],
        ["old.txt", undefined, 0o100700],
      ],
      shown: ["old.txt", "new.txt"],
    })
  })

  it("shows a move onto a new path, or onto a link, as the move alone", () => {
    const steps: ReadonlyArray<ApplyPatchPlan.Step> = [{ type: "update", target: place("old.txt"), move: place("new.txt"), chunks: chunksOf("@@", "-from", "+to") }]
    const moved = "--- old.txt\n+++ new.txt\n@@ -1,1 +1,1 @@\n-from\n+to\n"
    const onto = (found: Readonly<Record<string, ApplyPatchPlan.Disk>>) => summary(ApplyPatchPlan.make(steps, disk({ "old.txt": file("from\n"), ...found })))
    expect(onto({})).toMatchObject({ diff: moved, shown: ["old.txt"] })
    expect(onto({ "new.txt": { type: "link", bytes: Buffer.from("elsewhere") } })).toMatchObject({ diff: moved, shown: ["old.txt"] })
  })

  it("applies later hunks to the result of earlier ones", () => {
    const steps: ReadonlyArray<ApplyPatchPlan.Step> = [
      { type: "add", target: place("n.txt"), contents: "one\n" },
      { type: "update", target: place("n.txt"), move: undefined, chunks: chunksOf("@@", "-one", "+two") },
    ]
    expect(summary(ApplyPatchPlan.make(steps, disk({})))).toEqual({
      files: [
        { status: "A", path: "n.txt" },
        { status: "M", path: "n.txt" },
      ],
      diff: "--- n.txt\n+++ n.txt\n@@ -0,0 +1,1 @@\n+two\n",
      changes: [["n.txt", "two\n", undefined]],
      shown: [],
    })
  })

  const errors: ReadonlyArray<{ readonly name: string; readonly step: ApplyPatchPlan.Step; readonly found: Readonly<Record<string, ApplyPatchPlan.Disk>>; readonly message: string }> = [
    { name: "updating a missing file", step: { type: "update", target: place("m"), move: undefined, chunks: chunksOf("-a") }, found: {}, message: "Failed to read file to update m: No such file or directory" },
    { name: "updating a folder", step: { type: "update", target: place("m"), move: undefined, chunks: chunksOf("-a") }, found: { m: { type: "unusable", reason: "Is a directory" } }, message: "Failed to read file to update m: Is a directory" },
    { name: "updating a file that is not UTF-8", step: { type: "update", target: place("m"), move: undefined, chunks: chunksOf("-a") }, found: { m: { type: "file", bytes: Buffer.from([0xff, 0xfe, 0x00]), mode: 0 } }, message: "Failed to read file to update m: Not UTF-8 text" },
    { name: "deleting a missing file", step: { type: "delete", target: place("m") }, found: {}, message: "Failed to delete m: No such file or directory" },
    { name: "deleting a folder", step: { type: "delete", target: place("dir") }, found: { dir: { type: "unusable", reason: "Is a directory" } }, message: "Failed to delete dir: Is a directory" },
    { name: "adding over a folder", step: { type: "add", target: place("dir"), contents: "" }, found: { dir: { type: "unusable", reason: "Is a directory" } }, message: "Failed to write dir: Is a directory" },
  ]
  for (const c of errors) {
    it(`fails ${c.name}`, () => {
      expect(summary(ApplyPatchPlan.make([c.step], disk(c.found)))).toBe(c.message)
    })
  }
})

/** `marks` with every unchanged run shortened as the plan does: the context next to changes kept, the rest one `=` mark. */
const elided = (marks: ReadonlyArray<{ mark: " " | "-" | "+"; text: string }>): ReadonlyArray<ApplyPatchDiff.Mark> => {
  const out: ApplyPatchDiff.Mark[] = []
  const context = FileDiff.CONTEXT_LINES
  for (let at = 0; at < marks.length; ) {
    if (marks[at]?.mark !== " ") {
      out.push(marks[at++] as ApplyPatchDiff.Mark)
      continue
    }
    let end = at
    while (marks[end]?.mark === " ") end++
    const head = at === 0 ? 0 : Math.min(context, end - at)
    const tail = end === marks.length ? 0 : Math.min(context, end - at - head)
    out.push(...marks.slice(at, at + head))
    if (end - tail > at + head) out.push({ mark: "=", count: end - tail - at - head })
    out.push(...marks.slice(end - tail, end))
    at = end
  }
  return out
}

describe("ApplyPatchDiff.unified", () => {
  it("equals FileDiff.unified for minimal changes of unique lines", () => {
    const size = fc.integer({ min: 1, max: 60 })
    const edits = fc.array(fc.record({ at: fc.nat(), removed: fc.integer({ min: 0, max: 3 }), added: fc.integer({ min: 0, max: 3 }) }), { maxLength: 6 })
    fc.assert(fc.property(size, edits, (size, edits) => {
    const removed = new Map<number, number>()
    const added = new Map<number, number>()
    for (const edit of edits) {
      const at = edit.at % size
      removed.set(at, Math.max(removed.get(at) ?? 0, edit.removed))
      added.set(at, (added.get(at) ?? 0) + edit.added)
    }
    const marks: Array<{ mark: " " | "-" | "+"; text: string }> = []
    const fresh = { next: 0 }
    for (let line = 0; line < size; ) {
      for (let count = 0; count < (added.get(line) ?? 0); count++) marks.push({ mark: "+", text: `new ${fresh.next++}` })
      const gone = Math.min(removed.get(line) ?? 0, size - line)
      for (let count = 0; count < gone; count++) marks.push({ mark: "-", text: `line ${line + count}` })
      if (gone === 0) marks.push({ mark: " ", text: `line ${line}` })
      line += Math.max(gone, 1)
    }
    const side = (excluded: string) => marks.filter((mark) => mark.mark !== excluded).map((mark) => `${mark.text}\n`).join("")
    expect(ApplyPatchDiff.unified("f.txt", marks)).toBe(FileDiff.unified("f.txt", side("+"), side("-")))
    expect(ApplyPatchDiff.unified("f.txt", elided(marks))).toBe(ApplyPatchDiff.unified("f.txt", marks))
    }), { numRuns: 500 })
  })

  it("orders a run of 200 000 changed lines without overflowing the stack", () => {
    const count = 200_000
    const marks = [...Array.from({ length: count }, () => ({ mark: "+" as const, text: "new" })), ...Array.from({ length: count }, () => ({ mark: "-" as const, text: "old" }))]
    expect(ApplyPatchDiff.unified("f.txt", marks).split("\n").slice(0, 4)).toEqual(["--- f.txt", "+++ f.txt", `@@ -1,${count} +1,${count} @@`, "-old"])
  })
})
