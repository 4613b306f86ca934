import { chmod, lstat, mkdir, readdir, readFile, readlink, rename, stat, symlink, writeFile } from "node:fs/promises"
import { spawnSync } from "node:child_process"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { LocationMutation } from "../../../src/location/mutation.js"
import { Permission } from "../../../src/permission/permission.js"
import { FileAccess } from "../../../src/tool/builtin/file-access.js"
import { WriteTool } from "../../../src/tool/builtin/write.js"
import { globalConfig } from "../../lib/config.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const withTool = <A, E>(body: (tool: Effect.Success<typeof WriteTool.make>, harness: { root: string; work: string }) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(WriteTool.make, (tool) => body(tool, harness) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root, config)))
  })

const read = (file: string) => Effect.promise(() => readFile(file, "utf8"))


describe("WriteTool", () => {
  it.live("creates a file with its parents and reports the diff", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      const { result, asked } = yield* settle(tool, { path: "src/new/a.txt", content: "one\ntwo\n" })
      expect(asked).toEqual([])
      expect(yield* read(path.join(work, "src/new/a.txt"))).toBe("one\ntwo\n")
      expect(result._tag === "Success" && result.success.structured).toMatchObject({ operation: "create", path: "src/new/a.txt" })
      expect(textOf(result).split("\n")[0]).toBe(WriteTool.Messages.created("src/new/a.txt"))
      expect(textOf(result)).toContain("+one\n+two")
    })))

  it.live("overwrites atomically, keeping the mode", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      const file = path.join(work, "run.sh")
      yield* Effect.promise(() => writeFile(file, "old\n"))
      yield* Effect.promise(() => chmod(file, 0o755))
      const { result } = yield* settle(tool, { path: "run.sh", content: "new\n" })
      expect(textOf(result).split("\n")[0]).toBe(WriteTool.Messages.wrote("run.sh"))
      expect(yield* read(file)).toBe("new\n")
      expect((yield* Effect.promise(() => stat(file))).mode & 0o777).toBe(0o755)
    })))

  it.live("keeps exactly one byte-order mark when either side had one", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      const file = path.join(work, "bom.txt")
      yield* Effect.promise(() => writeFile(file, "\uFEFFold"))
      yield* settle(tool, { path: "bom.txt", content: "new" })
      expect(yield* read(file)).toBe("\uFEFFnew")
      yield* settle(tool, { path: "bom.txt", content: "\uFEFFnewer" })
      expect(yield* read(file)).toBe("\uFEFFnewer")
      yield* settle(tool, { path: "fresh.txt", content: "\uFEFFx" })
      expect(yield* read(path.join(work, "fresh.txt"))).toBe("\uFEFFx")
      yield* settle(tool, { path: "plain.txt", content: "x" })
      expect(yield* read(path.join(work, "plain.txt"))).toBe("x")
    })))

  it.live("writes through an internal link to its target, leaving the link a link", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      yield* Effect.promise(() => writeFile(path.join(work, "real.txt"), "old"))
      yield* Effect.promise(() => symlink("real.txt", path.join(work, "alias.txt")))
      const { result } = yield* settle(tool, { path: "alias.txt", content: "new" })
      expect(textOf(result).split("\n")[0]).toBe(WriteTool.Messages.wrote("real.txt"))
      expect(yield* read(path.join(work, "real.txt"))).toBe("new")
      expect((yield* Effect.promise(() => lstat(path.join(work, "alias.txt")))).isSymbolicLink()).toBe(true)
      expect(yield* Effect.promise(() => readlink(path.join(work, "alias.txt")))).toBe("real.txt")
    })))

  it.live("refuses a directory target", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      yield* Effect.promise(() => mkdir(path.join(work, "dir")))
      const { result } = yield* settle(tool, { path: "dir", content: "x" })
      expect(textOf(result)).toBe(WriteTool.Messages.isDirectory("dir"))
    })))

  it.live("asks external_directory, then edit, for a target outside, and writes only after both", () =>
    withTool((tool, { root }) => Effect.gen(function* () {
      const outside = path.join(root, "elsewhere", "x.txt")
      const rejected = yield* settle(tool, { path: outside, content: "x" }, { reply: "reject", message: "not there" })
      expect(textOf(rejected.result)).toBe(Permission.Messages.corrected("not there"))
      expect(rejected.asked.map((request) => [request.action, request.resources])).toEqual([["external_directory", [`${path.join(root, "elsewhere")}/*`]]])
      expect(yield* Effect.promise(() => stat(path.join(root, "elsewhere")).then(() => true, () => false))).toBe(false)
      const approved = yield* settle(tool, { path: outside, content: "x" }, "once")
      expect(approved.asked.map((request) => [request.action, request.resources, request.save])).toEqual([
        ["external_directory", [`${path.join(root, "elsewhere")}/*`], [`${path.join(root, "elsewhere")}/*`]],
        ["edit", [outside], [outside]],
      ])
      expect(yield* read(outside)).toBe("x")
    }), globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })))

  it.live("asks edit with the diff of the change, and withholds old lines the session may not read", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      yield* Effect.promise(() => writeFile(path.join(work, "a.txt"), "one\ntwo\n"))
      yield* Effect.promise(() => writeFile(path.join(work, ".env"), "API_KEY=supersecret\n"))
      const { asked } = yield* settle(tool, { path: "a.txt", content: "one\n2\n" }, "once")
      expect(asked.map((request) => [request.action, request.resources, request.metadata])).toEqual([["edit", ["a.txt"], { diff: "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n" }]])
      expect(yield* read(path.join(work, "a.txt"))).toBe("one\n2\n")
      const secret = yield* settle(tool, { path: ".env", content: "" }, "reject")
      expect(secret.asked.map((request) => request.metadata)).toEqual([{ diff: FileAccess.Messages.withheld(".env") }])
      expect(yield* read(path.join(work, ".env"))).toBe("API_KEY=supersecret\n")
    }), globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })))

  it.live("names what is in the way only once edit is granted", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      yield* Effect.promise(() => mkdir(path.join(work, "dir")))
      const rejected = yield* settle(tool, { path: "dir", content: "x" }, "reject")
      expect(rejected.asked.map((request) => [request.action, request.resources, request.metadata])).toEqual([["edit", ["dir"], {}]])
      expect(rejected.result._tag === "Failure" && rejected.result.failure).toBeInstanceOf(Permission.DeclinedError)
      expect(textOf((yield* settle(tool, { path: "dir", content: "x" }, "once")).result)).toBe(WriteTool.Messages.isDirectory("dir"))
    }), globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })))

  it.live("writes nothing when edit is denied", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      const { result } = yield* settle(tool, { path: "locked/a.txt", content: "x" })
      expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.BlockedError)
      expect(yield* Effect.promise(() => stat(path.join(work, "locked")).then(() => true, () => false))).toBe(false)
    }), globalConfig({ permission: [{ action: "edit", resource: "locked/*", effect: "deny" }] })))

  it.live("refuses escapes: ../, a symlinked parent, a NUL byte", () =>
    withTool((tool, { root, work }) => Effect.gen(function* () {
      yield* Effect.promise(() => mkdir(path.join(root, "outside")))
      yield* Effect.promise(() => symlink(path.join(root, "outside"), path.join(work, "out")))
      expect(textOf((yield* settle(tool, { path: "../x", content: "x" })).result)).toBe(LocationMutation.Messages.relative_escape("../x"))
      expect(textOf((yield* settle(tool, { path: "out/new/x", content: "x" })).result)).toBe(LocationMutation.Messages.location_escape("out/new/x"))
      expect(textOf((yield* settle(tool, { path: "a\0b", content: "x" })).result)).toBe(LocationMutation.Messages.invalid_path())
      expect(yield* Effect.promise(() => stat(path.join(root, "outside", "new")).then(() => true, () => false))).toBe(false)
    })))

  it.live("refuses a path holding an unpaired surrogate, which Node would write under another name (U+FFFD)", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      expect(textOf((yield* settle(tool, { path: "caf\udce9.txt", content: "x" })).result)).toBe(LocationMutation.Messages.unpaired_surrogate("caf\udce9.txt"))
      expect(LocationMutation.Messages.unpaired_surrogate("caf\udce9.txt")).toBe('Invalid path: "caf\\udce9.txt" holds an unpaired UTF-16 surrogate, which no file name has (names are read as UTF-8)')
      expect(yield* Effect.promise(() => readdir(work))).not.toContain("caf\ufffd.txt")
      // A pair is one character, and a fine name.
      expect(textOf((yield* settle(tool, { path: "\ud83d\ude00.txt", content: "x" })).result).split("\n")[0]).toBe(WriteTool.Messages.created("\ud83d\ude00.txt"))
    })))

  it.live("refuses when the target is swapped for a link outside while the request awaits approval", () =>
    withTool((tool, { root, work }) => Effect.gen(function* () {
      yield* Effect.promise(() => mkdir(path.join(root, "outside")))
      yield* Effect.promise(() => mkdir(path.join(work, "docs")))
      const swap = () =>
        Effect.promise(async () => {
          await rename(path.join(work, "docs"), path.join(work, "docs-old"))
          await symlink(path.join(root, "outside"), path.join(work, "docs"))
          return "once" as const
        })
      const { result } = yield* settle(tool, { path: "docs/a.txt", content: "x" }, swap)
      expect(textOf(result)).toBe(LocationMutation.Messages.location_escape("docs/a.txt"))
      expect(yield* Effect.promise(() => stat(path.join(root, "outside", "a.txt")).then(() => true, () => false))).toBe(false)
    }), globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })))
})

describe("WriteTool and protected or special files", () => {
  it.live("does not show the old content of a file the model may not read", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      yield* Effect.promise(() => writeFile(path.join(work, ".env"), "API_KEY=supersecret\n"))
      const { result } = yield* settle(tool, { path: ".env", content: "" })
      expect(textOf(result)).toBe(`${WriteTool.Messages.wrote(".env")}\n\n${FileAccess.Messages.withheld(".env")}`)
    })))

  it.live("refuses a FIFO instead of waiting on it, and keeps new files within the umask", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      spawnSync("mkfifo", [path.join(work, "pipe")])
      expect(textOf((yield* settle(tool, { path: "pipe", content: "x" })).result)).toBe(WriteTool.Messages.notFile("pipe"))
      const previous = process.umask(0o077)
      try {
        yield* settle(tool, { path: "secret.txt", content: "s" })
      } finally {
        process.umask(previous)
      }
      expect((yield* Effect.promise(() => stat(path.join(work, "secret.txt")))).mode & 0o777).toBe(0o600)
      const long = `${"n".repeat(250)}.txt`
      expect(textOf((yield* settle(tool, { path: long, content: "x" })).result).split("\n")[0]).toBe(WriteTool.Messages.created(long))
    })))
})
