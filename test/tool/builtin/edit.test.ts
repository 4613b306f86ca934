import { chmod, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const withTool = <A, E>(body: (tool: Tool.AnyTool, work: string) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(EditTool.make, (tool) => body(tool, harness.work) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root)))
  })

const put = (file: string, content: string | Buffer) => Effect.promise(() => writeFile(file, content))
const read = (file: string) => Effect.promise(() => readFile(file, "utf8"))

/** Writes `content` to `a.txt`, runs one edit, and returns the result text and the file after. */
const editOnce = (content: string, input: Record<string, unknown>) =>
  withTool((tool, work) =>
    Effect.gen(function* () {
      yield* put(path.join(work, "a.txt"), content)
      const { result, asked } = yield* settle(tool, { path: "a.txt", ...input })
      return { text: textOf(result), result, asked, after: yield* read(path.join(work, "a.txt")) }
    }),
  )

describe("EditTool", () => {
  it("spells every message as 06 does", () => {
    expect(EditTool.Messages.identical).toBe("No changes to apply: oldString and newString are identical.")
    expect(EditTool.Messages.emptyOldString).toBe("oldString must not be empty. Use write to create or overwrite a file.")
    expect(EditTool.Messages.notFound("a.txt")).toBe("File not found: a.txt")
    expect(EditTool.Messages.directory("src")).toBe("Path is a directory, not a file: src")
    expect(EditTool.Messages.noMatch("a.txt")).toBe("Could not find oldString in a.txt. It must match exactly, including whitespace and indentation.")
    expect(EditTool.Messages.ambiguous(2)).toBe(
      "Found 2 matches for oldString, but expected exactly one. Add more surrounding context to make oldString unique, or set replaceAll to true to replace every occurrence.",
    )
    expect(EditTool.Messages.modified("a.txt")).toBe("File a.txt was modified while the edit was awaiting approval. Read it again and retry.")
    expect(EditTool.Messages.edited("a.txt", 1)).toBe("Edited a.txt (1 replacement)")
    expect(EditTool.Messages.edited("a.txt", 2)).toBe("Edited a.txt (2 replacements)")
  })

  it.live("describes every input field and requires only path, oldString and newString", () =>
    withTool((tool) =>
      Effect.sync(() => {
        const definition = Tool.definition(EditTool.name, tool)
        expect(definition.description).toBe(EditTool.DESCRIPTION)
        expect(definition.inputSchema.required).toEqual(["path", "oldString", "newString"])
        expect(Object.keys(definition.inputSchema.properties as object)).toEqual(["path", "oldString", "newString", "replaceAll"])
        expect(Tool.validate(EditTool.name, tool)).toBeUndefined()
      }),
    ))

  it.live("replaces the one match and reports the edit with its diff", () =>
    Effect.gen(function* () {
      const { text, result, after } = yield* editOnce("one\ntwo\nthree\n", { oldString: "two", newString: "2" })
      expect(after).toBe("one\n2\nthree\n")
      expect(text).toBe("Edited a.txt (1 replacement)\n\n--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n")
      expect(result._tag === "Success" && result.success.structured).toEqual({ path: "a.txt", replacements: 1, diff: "--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n" })
    }))

  it.live("refuses identical strings and an empty oldString before touching the file", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        expect(textOf((yield* settle(tool, { path: "missing.txt", oldString: "a", newString: "a" })).result)).toBe(EditTool.Messages.identical)
        expect(textOf((yield* settle(tool, { path: "missing.txt", oldString: "", newString: "a" })).result)).toBe(EditTool.Messages.emptyOldString)
      }),
    ))

  it.live("reports a missing file and a directory", () =>
    withTool((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => mkdir(path.join(work, "src")))
        expect(textOf((yield* settle(tool, { path: "missing.txt", oldString: "a", newString: "b" })).result)).toBe("File not found: missing.txt")
        expect(textOf((yield* settle(tool, { path: "src", oldString: "a", newString: "b" })).result)).toBe("Path is a directory, not a file: src")
      }),
    ))

  it.live("reports no match without a region when no line is shared", () =>
    Effect.gen(function* () {
      const { text, after } = yield* editOnce("one\ntwo\n", { oldString: "zz", newString: "b" })
      expect(text).toBe("Could not find oldString in a.txt. It must match exactly, including whitespace and indentation.")
      expect(after).toBe("one\ntwo\n")
    }))

  it.live("reports no match with the closest region, numbered as read shows it", () =>
    Effect.gen(function* () {
      const content = "import x\n\nfunction a() {\n  return 1\n}\n"
      const { text } = yield* editOnce(content, { oldString: "function a() {\n    return 1\n}", newString: "b" })
      expect(text).toBe(
        "Could not find oldString in a.txt. It must match exactly, including whitespace and indentation.\n\nThe closest match is at lines 3-5:\n3: function a() {\n4:   return 1\n5: }",
      )
    }))

  it.live("refuses several matches without replaceAll", () =>
    Effect.gen(function* () {
      const { text, after } = yield* editOnce("x y x y x\n", { oldString: "x", newString: "z" })
      expect(text).toBe(
        "Found 3 matches for oldString, but expected exactly one. Add more surrounding context to make oldString unique, or set replaceAll to true to replace every occurrence.",
      )
      expect(after).toBe("x y x y x\n")
    }))

  it.live("replaces every match with replaceAll and counts them", () =>
    Effect.gen(function* () {
      const { text, after } = yield* editOnce("x\ny\nx\ny\nx\n", { oldString: "x", newString: "z", replaceAll: true })
      expect(after).toBe("z\ny\nz\ny\nz\n")
      expect(text).toBe("Edited a.txt (3 replacements)\n\n--- a.txt\n+++ a.txt\n@@ -1,5 +1,5 @@\n-x\n+z\n y\n-x\n+z\n y\n-x\n+z\n")
    }))

  it.live("falls back to typography-normalised matching", () =>
    Effect.gen(function* () {
      const { text, after } = yield* editOnce("say \u201Chi\u201D \u2013 now\n", { oldString: 'say "hi" - now', newString: "say hello" })
      expect(after).toBe("say hello\n")
      expect(text.split("\n")[0]).toBe("Edited a.txt (1 replacement)")
    }))

  it.live("falls back to whole lines ignoring trailing whitespace", () =>
    Effect.gen(function* () {
      const { after } = yield* editOnce("a  \nb\t\nc\n", { oldString: "a\nb\n", newString: "AB\n" })
      expect(after).toBe("AB\nc\n")
    }))

  it.live("keeps a CRLF file CRLF, inserted lines included, and shows the diff in LF", () =>
    Effect.gen(function* () {
      const { text, after } = yield* editOnce("a\r\nb\r\nc\r\n", { oldString: "b\n", newString: "x\ny\n" })
      expect(after).toBe("a\r\nx\r\ny\r\nc\r\n")
      expect(text).toBe("Edited a.txt (1 replacement)\n\n--- a.txt\n+++ a.txt\n@@ -1,3 +1,4 @@\n a\n-b\n+x\n+y\n c\n")
    }))

  it.live("leaves the endings of untouched lines of a mixed file alone", () =>
    Effect.gen(function* () {
      const { after } = yield* editOnce("a\nb\r\nc\r\nd\n", { oldString: "c", newString: "C" })
      expect(after).toBe("a\nb\r\nC\r\nd\n")
    }))

  it.live("keeps a byte-order mark exactly once", () =>
    withTool((tool, work) =>
      Effect.gen(function* () {
        const file = path.join(work, "bom.txt")
        yield* put(file, "\uFEFFfirst line\n")
        yield* settle(tool, { path: "bom.txt", oldString: "first", newString: "\uFEFFthe first" })
        expect(yield* Effect.promise(() => readFile(file))).toEqual(Buffer.from("\uFEFFthe first line\n"))
        yield* settle(tool, { path: "bom.txt", oldString: "the first line", newString: "line" })
        expect(yield* read(file)).toBe("\uFEFFline\n")
      }),
    ))

  it.live("keeps the file's mode", () =>
    withTool((tool, work) =>
      Effect.gen(function* () {
        const file = path.join(work, "run.sh")
        yield* put(file, "echo old\n")
        yield* Effect.promise(() => chmod(file, 0o755))
        yield* settle(tool, { path: "run.sh", oldString: "old", newString: "new" })
        expect(yield* read(file)).toBe("echo new\n")
        expect((yield* Effect.promise(() => stat(file))).mode & 0o777).toBe(0o755)
      }),
    ))

  it.live("edits through an internal link, leaving the link a link", () =>
    withTool((tool, work) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "real.txt"), "old\n")
        yield* Effect.promise(() => symlink("real.txt", path.join(work, "alias.txt")))
        const { result } = yield* settle(tool, { path: "alias.txt", oldString: "old", newString: "new" })
        expect(textOf(result).split("\n")[0]).toBe("Edited real.txt (1 replacement)")
        expect(yield* read(path.join(work, "real.txt"))).toBe("new\n")
        expect((yield* Effect.promise(() => lstat(path.join(work, "alias.txt")))).isSymbolicLink()).toBe(true)
        expect(yield* Effect.promise(() => readlink(path.join(work, "alias.txt")))).toBe("real.txt")
      }),
    ))

  it.live("refuses a file that is not UTF-8 rather than rewrite its other bytes", () =>
    withTool((tool, work) =>
      Effect.gen(function* () {
        const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])
        yield* put(path.join(work, "latin1.txt"), bytes)
        const { result } = yield* settle(tool, { path: "latin1.txt", oldString: "caf", newString: "tea" })
        expect(textOf(result)).toBe("Cannot edit latin1.txt: it is not UTF-8 text. Use write to replace it.")
        expect(yield* Effect.promise(() => readFile(path.join(work, "latin1.txt")))).toEqual(bytes)
      }),
    ))
})
