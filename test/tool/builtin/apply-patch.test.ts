import { chmod, link, mkdir, readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { Permission } from "../../../src/permission/permission.js"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import { FileAccess } from "../../../src/tool/builtin/file-access.js"
import type { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const globalConfig = (body: unknown) => {
  const file = Config.ConfigValidate.file("/global/toolgate.json", "global", body)
  if (file instanceof Error) throw file
  return Config.merge([file])
}

const withTool = <A, E>(body: (tool: Tool.AnyTool, harness: { root: string; work: string }) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(ApplyPatchTool.make, (tool) => body(tool, harness) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root, config)))
  })

const put = (file: string, content: string | Buffer) => Effect.promise(async () => {
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, content)
})
const read = (file: string) => Effect.promise(() => readFile(file, "utf8"))
const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const patch = (...lines: ReadonlyArray<string>) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n")

describe("ApplyPatchTool", () => {
  it.live("adds, updates and deletes, reporting A, M, D lines and the diff", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "modify.txt"), "line1\nline2\n")
        yield* put(path.join(work, "delete.txt"), "obsolete\n")
        const patchText = patch("*** Add File: nested/new.txt", "+created", "*** Delete File: delete.txt", "*** Update File: modify.txt", "@@", "-line2", "+changed")
        const { result, asked } = yield* settle(tool, { patchText })
        expect(asked).toEqual([])
        expect(textOf(result)).toBe(
          [
            "Success. Updated the following files:",
            "A nested/new.txt",
            "M modify.txt",
            "D delete.txt",
            "",
            "--- nested/new.txt\n+++ nested/new.txt\n@@ -0,0 +1,1 @@\n+created\n--- modify.txt\n+++ modify.txt\n@@ -1,2 +1,2 @@\n line1\n-line2\n+changed\n--- delete.txt\n+++ delete.txt\n@@ -1,1 +0,0 @@\n-obsolete\n",
          ].join("\n"),
        )
        expect(result._tag === "Success" && result.success.structured).toMatchObject({ files: [{ status: "A", path: "nested/new.txt" }, { status: "M", path: "modify.txt" }, { status: "D", path: "delete.txt" }] })
        expect(yield* read(path.join(work, "nested/new.txt"))).toBe("created\n")
        expect(yield* read(path.join(work, "modify.txt"))).toBe("line1\nchanged\n")
        expect(yield* exists(path.join(work, "delete.txt"))).toBe(false)
      })))

  it.live("keeps CRLF endings and a BOM, and ends every updated file with a newline", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "crlf.txt"), "one\r\ntwo\r\n")
        yield* put(path.join(work, "bom.txt"), "\uFEFFalpha\nbeta\n")
        yield* put(path.join(work, "open.txt"), "last")
        const patchText = patch(
          "*** Update File: crlf.txt", "@@", " one", "-two", "+TWO", "+three",
          "*** Update File: bom.txt", "@@", "-alpha", "+ALPHA",
          "*** Update File: open.txt", "@@", "-last", "+final",
        )
        const { result } = yield* settle(tool, { patchText: patchText.replaceAll("\n", "\r\n") })
        expect(textOf(result).split("\n").slice(0, 4)).toEqual(["Success. Updated the following files:", "M crlf.txt", "M bom.txt", "M open.txt"])
        expect(yield* read(path.join(work, "crlf.txt"))).toBe("one\r\nTWO\r\nthree\r\n")
        expect(yield* read(path.join(work, "bom.txt"))).toBe("\uFEFFALPHA\nbeta\n")
        expect(yield* read(path.join(work, "open.txt"))).toBe("final\n")
      })))

  it.live("moves a file onto an existing destination, keeping its mode and showing what the destination held", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "bin/run.sh"), "echo old\n")
        yield* Effect.promise(() => chmod(path.join(work, "bin/run.sh"), 0o755))
        yield* put(path.join(work, "scripts/run.sh"), "existing\n")
        const { result } = yield* settle(tool, { patchText: patch("*** Update File: bin/run.sh", "*** Move to: scripts/run.sh", "@@", "-echo old", "+echo new") })
        expect(textOf(result)).toBe("Success. Updated the following files:\nM scripts/run.sh\n\n--- bin/run.sh\n+++ scripts/run.sh\n@@ -1,1 +1,1 @@\n-echo old\n+echo new\n--- scripts/run.sh\n+++ scripts/run.sh\n@@ -1,1 +1,1 @@\n-existing\n+echo new\n")
        expect(yield* exists(path.join(work, "bin/run.sh"))).toBe(false)
        expect(yield* exists(path.join(work, "bin"))).toBe(true)
        expect(yield* read(path.join(work, "scripts/run.sh"))).toBe("echo new\n")
        expect((yield* Effect.promise(() => stat(path.join(work, "scripts/run.sh")))).mode & 0o777).toBe(0o755)
      })))

  it.live("shows a person what a move replaces, and keeps it from a model that may not read it", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "draft.txt"), "draft\n")
        yield* put(path.join(work, ".env"), "SECRET=1\n")
        const { result, asked } = yield* settle(tool, { patchText: patch("*** Update File: draft.txt", "*** Move to: .env", "@@", "-draft", "+final") }, "once")
        expect(asked.map((request) => [request.action, request.metadata?.["diff"]])).toEqual([
          ["edit", "--- draft.txt\n+++ .env\n@@ -1,1 +1,1 @@\n-draft\n+final\n--- .env\n+++ .env\n@@ -1,1 +1,1 @@\n-SECRET=1\n+final\n"],
        ])
        expect(textOf(result)).toBe(`Success. Updated the following files:\nM .env\n\n${FileAccess.Messages.withheld(".env")}`)
      }), globalConfig({ permission: { edit: { "*": "ask" } } })))

  it.live("unwraps a heredoc around the patch", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const { result } = yield* settle(tool, { patchText: `apply_patch <<'EOF'\n${patch("*** Add File: a.txt", "+x")}\nEOF\n` })
        expect(textOf(result).split("\n")[1]).toBe("A a.txt")
        expect(yield* read(path.join(work, "a.txt"))).toBe("x\n")
      })))

  const errors: ReadonlyArray<{ readonly name: string; readonly patchText: string; readonly message: string }> = [
    { name: "an update without chunks", patchText: patch("*** Update File: foo.txt"), message: "Update file hunk for path 'foo.txt' is empty" },
    { name: "missing context", patchText: patch("*** Update File: foo.txt", "@@ nowhere", "-stable"), message: "Failed to find context 'nowhere' in foo.txt" },
    { name: "missing old lines", patchText: patch("*** Update File: foo.txt", "@@", "-missing", "+changed"), message: "Failed to find expected lines in foo.txt:\nmissing" },
    { name: "deleting a missing file", patchText: patch("*** Delete File: missing.txt"), message: "Failed to delete missing.txt: No such file or directory" },
    { name: "deleting a folder", patchText: patch("*** Delete File: dir"), message: "Failed to delete dir: Is a directory" },
    { name: "updating a missing file", patchText: patch("*** Update File: missing.txt", "@@", "-old", "+new"), message: "Failed to read file to update missing.txt: No such file or directory" },
  ]
  it.live("rejects an empty patch text and an empty patch", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        expect(textOf((yield* settle(tool, { patchText: "" })).result)).toBe(ApplyPatchTool.Messages.required)
        expect(textOf((yield* settle(tool, { patchText: patch() })).result)).toBe("patch rejected: empty patch")
      })))

  for (const c of errors) {
    it.live(`rejects ${c.name} after an added file, creating nothing`, () =>
      withTool((tool, { work }) =>
        Effect.gen(function* () {
          yield* put(path.join(work, "foo.txt"), "stable\n")
          yield* put(path.join(work, "dir/inner.txt"), "inner\n")
          const { result } = yield* settle(tool, { patchText: `${patch("*** Add File: created.txt", "+x").replace("\n*** End Patch", "")}\n${c.patchText.replace("*** Begin Patch\n", "")}` })
          expect(textOf(result)).toBe(c.message)
          expect(yield* exists(path.join(work, "created.txt"))).toBe(false)
          expect(yield* read(path.join(work, "foo.txt"))).toBe("stable\n")
        })))
  }

  it.live("refuses when a file changed while the patch awaited approval, changing nothing", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "a.txt"), "a\n")
        yield* put(path.join(work, "b.txt"), "b\n")
        const meddle = () => Effect.as(put(path.join(work, "b.txt"), "b\nmore\n"), "once" as const)
        const { result } = yield* settle(tool, { patchText: patch("*** Update File: a.txt", "-a", "+A", "*** Update File: b.txt", "-b", "+B") }, meddle)
        expect(textOf(result)).toBe("File b.txt was modified while the patch was awaiting approval. Read it again and retry.")
        expect(yield* read(path.join(work, "a.txt"))).toBe("a\n")
        expect(yield* read(path.join(work, "b.txt"))).toBe("b\nmore\n")
      }), globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })))

  it.live("asks read before applying a hunk to a file the model may not read, and is no oracle when refused", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, ".env"), "API_KEY=supersecret\n")
        // A no-op hunk whose context is a guess: applying or not would tell whether the guess was right.
        const right = yield* settle(tool, { patchText: patch("*** Update File: .env", " API_KEY=supersecret") }, "reject")
        const wrong = yield* settle(tool, { patchText: patch("*** Update File: .env", " API_KEY=supersecreX") }, "reject")
        expect(right.asked.map((request) => [request.action, request.resources])).toEqual([["read", [".env"]]])
        expect(textOf(right.result)).toBe(Permission.Messages.declined("read"))
        expect(textOf(wrong.result)).toBe(textOf(right.result))
        const approved = yield* settle(tool, { patchText: patch("*** Update File: .env", "-API_KEY=supersecret", "+API_KEY=rotated") })
        expect(approved.asked.map((request) => request.action)).toEqual(["read"])
        expect(textOf(approved.result)).toContain("Success. Updated the following files:\nM .env\n\n--- .env")
        expect(yield* read(path.join(work, ".env"))).toBe("API_KEY=rotated\n")
      })))

  it.live("asks read on a hard-linked file plainly, even where read * allows", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, ".env"), "API_KEY=supersecret\n")
        yield* Effect.promise(() => link(path.join(work, ".env"), path.join(work, "hard.txt")))
        const probe = yield* settle(tool, { patchText: patch("*** Update File: hard.txt", " API_KEY=supersecret") }, "reject")
        expect(probe.asked.map((request) => [request.action, request.resources])).toEqual([["read", ["hard.txt"]]])
        expect(textOf(probe.result)).toBe(Permission.Messages.declined("read"))
      })))
})
