import { describe, expect, it } from "@effect/vitest"
import { ApplyPatchParse } from "../../../src/tool/builtin/apply-patch/parse.js"
import { ApplyPatchSeek } from "../../../src/tool/builtin/apply-patch/seek.js"

const patch = (...lines: ReadonlyArray<string>) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n")
const message = (text: string) => {
  const parsed = ApplyPatchParse.parse(text)
  return ApplyPatchParse.isError(parsed) ? parsed.message : undefined
}

describe("ApplyPatchParse.parse", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly text: string; readonly hunks: ReadonlyArray<ApplyPatchParse.Hunk> }> = [
    { name: "an added file, one + line each", text: patch("*** Add File: a.txt", "+one", "+", "+three"), hunks: [{ type: "add", path: "a.txt", contents: "one\n\nthree\n" }] },
    { name: "an added empty file", text: patch("*** Add File: empty.txt"), hunks: [{ type: "add", path: "empty.txt", contents: "" }] },
    { name: "a deleted file", text: patch("*** Delete File: old.txt"), hunks: [{ type: "delete", path: "old.txt" }] },
    {
      name: "an update with context, removed and added lines",
      text: patch("*** Update File: a.txt", "@@", " keep", "-old", "+new"),
      hunks: [{ type: "update", path: "a.txt", move: undefined, chunks: [{ context: undefined, ops: [{ kind: " ", text: "keep" }, { kind: "-", text: "old" }, { kind: "+", text: "new" }], eof: false }] }],
    },
    {
      name: "a first chunk without @@",
      text: patch("*** Update File: a.txt", "-old", "+new"),
      hunks: [{ type: "update", path: "a.txt", move: undefined, chunks: [{ context: undefined, ops: [{ kind: "-", text: "old" }, { kind: "+", text: "new" }], eof: false }] }],
    },
    {
      name: "a move, @@ context lines, an empty context line and the end-of-file marker",
      text: patch("*** Update File: a.txt", "*** Move to: b/c.txt", "@@ def f():", "-x", "", "+y", "@@ class C", "-z", "*** End of File"),
      hunks: [
        {
          type: "update",
          path: "a.txt",
          move: "b/c.txt",
          chunks: [
            { context: "def f():", ops: [{ kind: "-", text: "x" }, { kind: " ", text: "" }, { kind: "+", text: "y" }], eof: false },
            { context: "class C", ops: [{ kind: "-", text: "z" }], eof: true },
          ],
        },
      ],
    },
    {
      name: "several hunks, blank lines between chunks skipped",
      text: patch("*** Update File: a.txt", "@@", "-a", "+b", "*** Add File: n.txt", "+n", "*** Delete File: d.txt"),
      hunks: [
        { type: "update", path: "a.txt", move: undefined, chunks: [{ context: undefined, ops: [{ kind: "-", text: "a" }, { kind: "+", text: "b" }], eof: false }] },
        { type: "add", path: "n.txt", contents: "n\n" },
        { type: "delete", path: "d.txt" },
      ],
    },
    {
      name: "padded markers",
      text: " *** Begin Patch \n  *** Update File: a.txt  \n  @@  \n-a\n+b\n  *** End of File \n*** Delete File: d.txt\n *** End Patch ",
      hunks: [
        { type: "update", path: "a.txt", move: undefined, chunks: [{ context: undefined, ops: [{ kind: "-", text: "a" }, { kind: "+", text: "b" }], eof: true }] },
        { type: "delete", path: "d.txt" },
      ],
    },
    { name: "CRLF patch text", text: "*** Begin Patch\r\n*** Add File: a.txt\r\n+x\r\n*** End Patch\r\n", hunks: [{ type: "add", path: "a.txt", contents: "x\n" }] },
    { name: "a cat <<'EOF' heredoc", text: `cat <<'EOF'\n${patch("*** Delete File: a")}\nEOF\n`, hunks: [{ type: "delete", path: "a" }] },
    { name: "a <<EOF heredoc", text: `<<EOF\n${patch("*** Delete File: a")}\nEOF`, hunks: [{ type: "delete", path: "a" }] },
    { name: 'a <<"EOF" heredoc', text: `<<"EOF"\n${patch("*** Delete File: a")}\nEOF`, hunks: [{ type: "delete", path: "a" }] },
    { name: "an apply_patch <<'EOF' heredoc", text: `apply_patch <<'EOF'\n${patch("*** Delete File: a")}\nEOF`, hunks: [{ type: "delete", path: "a" }] },
  ]
  for (const c of cases) {
    it(`parses ${c.name}`, () => {
      expect(ApplyPatchParse.parse(c.text)).toEqual(c.hunks)
    })
  }

  const errors: ReadonlyArray<{ readonly name: string; readonly text: string; readonly message: string }> = [
    { name: "an empty patch text", text: "", message: "patchText is required" },
    { name: "a blank patch text", text: " \n\t\n", message: "patchText is required" },
    { name: "a missing begin marker", text: "*** Add File: a\n+x\n*** End Patch", message: "The first line of the patch must be '*** Begin Patch'" },
    { name: "a missing end marker", text: "*** Begin Patch\n*** Add File: a\n+x", message: "The last line of the patch must be '*** End Patch'" },
    { name: "only the begin marker", text: "*** Begin Patch", message: "The last line of the patch must be '*** End Patch'" },
    { name: "an unterminated heredoc", text: `cat <<'EOF'\n${patch("*** Delete File: a")}`, message: "The first line of the patch must be '*** Begin Patch'" },
    {
      name: "an invalid hunk header",
      text: patch("*** Frobnicate File: foo"),
      message:
        "Invalid hunk at line 2: '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    },
    {
      name: "an Add File line without +",
      text: patch("*** Add File: a", "+x", "y"),
      message: "Invalid hunk at line 4: 'y' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    },
    { name: "an update without chunks", text: patch("*** Update File: foo.txt"), message: "Update file hunk for path 'foo.txt' is empty" },
    { name: "an update with only a move", text: patch("*** Update File: a", "*** Move to: b"), message: "Update file hunk for path 'a' is empty" },
    { name: "no hunks", text: patch(), message: "patch rejected: empty patch" },
    { name: "a chunk without lines", text: patch("*** Update File: a", "@@"), message: "Invalid hunk at line 3: Update hunk does not contain any lines" },
    { name: "an end-of-file marker without lines", text: patch("*** Update File: a", "@@", "*** End of File"), message: "Invalid hunk at line 3: Update hunk does not contain any lines" },
    {
      name: "a line without a prefix in a chunk",
      text: patch("*** Update File: a", "@@", "-x", "oops"),
      message: "Invalid hunk at line 5: Unexpected line found in update hunk: 'oops'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
    },
  ]
  for (const c of errors) {
    it(`rejects ${c.name}`, () => {
      expect(message(c.text)).toBe(c.message)
    })
  }
})

describe("ApplyPatchSeek.find", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly lines: ReadonlyArray<string>; readonly pattern: ReadonlyArray<string>; readonly from: number; readonly eof: boolean; readonly found: number | undefined }> = [
    { name: "an exact match", lines: ["a", "b", "c"], pattern: ["b", "c"], from: 0, eof: false, found: 1 },
    { name: "the first match from the cursor", lines: ["x", "a", "x", "a"], pattern: ["a"], from: 2, eof: false, found: 3 },
    { name: "nothing before the cursor", lines: ["a", "b"], pattern: ["a"], from: 1, eof: false, found: undefined },
    { name: "an empty pattern at the cursor", lines: ["a"], pattern: [], from: 1, eof: false, found: 1 },
    { name: "a pattern longer than the file", lines: ["a"], pattern: ["a", "b"], from: 0, eof: false, found: undefined },
    { name: "ignoring trailing whitespace", lines: ["a  ", "b\t"], pattern: ["a", "b"], from: 0, eof: false, found: 0 },
    { name: "ignoring both ends", lines: ["  a", "\tb "], pattern: ["a", "b"], from: 0, eof: false, found: 0 },
    { name: "typography-normalised", lines: ["say \u201Chi\u201D \u2014 it\u2019s\u00A0ok"], pattern: ["say \"hi\" - it's ok"], from: 0, eof: false, found: 0 },
    { name: "an exact match before a fuzzy one", lines: ["a ", "a"], pattern: ["a"], from: 0, eof: false, found: 1 },
    { name: "at the end of the file only, with eof", lines: ["a", "b", "a"], pattern: ["a"], from: 0, eof: true, found: 2 },
    { name: "no end-of-file match elsewhere", lines: ["a", "b"], pattern: ["a"], from: 0, eof: true, found: undefined },
  ]
  for (const c of cases) {
    it(`finds ${c.name}`, () => {
      expect(ApplyPatchSeek.find(c.lines, c.pattern, c.from, c.eof)).toBe(c.found)
    })
  }
})
