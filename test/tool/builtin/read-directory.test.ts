import { spawnSync } from "node:child_process"
import { mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ReadTool } from "../../../src/tool/builtin/read.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const withTool = <A, E>(body: (tool: Effect.Success<typeof ReadTool.make>, work: string) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(ReadTool.make, (tool) => body(tool, harness.work) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root)))
  })

/** Makes folders (names ending in `/`) and files under `root`. */
const tree = (root: string, names: ReadonlyArray<string>) =>
  Effect.promise(async () => {
    await mkdir(root, { recursive: true })
    for (const name of names) {
      if (name.endsWith("/")) await mkdir(path.join(root, name), { recursive: true })
      else await writeFile(path.join(root, name), name)
    }
  })

describe("ReadTool directories", () => {
  it.live("lists folders first with a slash, then the rest, each by code unit", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const dir = path.join(work, "sub")
      yield* tree(dir, ["b/", "A/", "a/", "z.txt", "B.md", ".hidden", "10.txt", "9.txt"])
      yield* Effect.promise(() => symlink("a", path.join(dir, "link")))
      const { result, asked } = yield* settle(tool, { path: "sub" })
      const content = "Read directory sub, entries 1-9\nA/\na/\nb/\n.hidden\n10.txt\n9.txt\nB.md\nlink\nz.txt"
      expect(textOf(result)).toBe(content)
      expect(result._tag === "Success" && result.success.structured).toEqual({ kind: "directory", path: "sub", content })
      expect(asked).toEqual([])
    })))

  it.live("lists the Location root as .", () =>
    withTool((tool) => Effect.gen(function* () {
      expect(textOf((yield* settle(tool, { path: "." })).result)).toBe(`${ReadTool.Messages.directoryHeader(".", 1, 1)}\n.git/`)
    })))

  it.live("pages entries with offset and limit", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* tree(path.join(work, "d"), ["x/", "a.txt", "b.txt", "c.txt", "d.txt"])
      const first = yield* settle(tool, { path: "d", offset: 2, limit: 3 })
      const content = "Read directory d, entries 2-4\na.txt\nb.txt\nc.txt\n[Output truncated. Continue reading with offset: 5]"
      expect(textOf(first.result)).toBe(content)
      expect(first.result._tag === "Success" && first.result.success.structured).toEqual({ kind: "directory", path: "d", content, next: 5 })
      expect(textOf((yield* settle(tool, { path: "d", offset: 5 })).result)).toBe(`${ReadTool.Messages.directoryHeader("d", 5, 5)}\nd.txt`)
      expect(textOf((yield* settle(tool, { path: "d", offset: 0, limit: 1 })).result)).toBe(
        [ReadTool.Messages.directoryHeader("d", 1, 1), "x/", ReadTool.Messages.more(2)].join("\n"),
      )
      expect(textOf((yield* settle(tool, { path: "d", offset: 6 })).result)).toBe("Offset 6 is out of range for this directory (5 entries)")
    })))

  it.live("reads an empty directory as 0 entries", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* tree(work, ["empty/"])
      expect(textOf((yield* settle(tool, { path: "empty" })).result)).toBe("Read directory empty, 0 entries")
      expect(textOf((yield* settle(tool, { path: "empty", offset: 2 })).result)).toBe(ReadTool.Messages.directoryOutOfRange(2, 0))
    })))

  it.live("caps a directory page at MAX_READ_LINES entries", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const names = Array.from({ length: ReadTool.MAX_READ_LINES + 10 }, (_, index) => `f${String(index).padStart(5, "0")}`)
      yield* tree(path.join(work, "many"), names)
      const text = textOf((yield* settle(tool, { path: "many" })).result)
      expect(text).toBe(
        [ReadTool.Messages.directoryHeader("many", 1, ReadTool.MAX_READ_LINES), ...names.slice(0, ReadTool.MAX_READ_LINES), ReadTool.Messages.more(ReadTool.MAX_READ_LINES + 1)].join(
          "\n",
        ),
      )
    })))

  it.live("ends a directory page early when the next entry would pass MAX_READ_BYTES", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const names = Array.from({ length: 300 }, (_, index) => `${String(index).padStart(3, "0")}${"n".repeat(247)}`)
      yield* tree(path.join(work, "long"), names)
      const fits = Math.floor(ReadTool.MAX_READ_BYTES / (names[0]!.length + 1))
      const text = textOf((yield* settle(tool, { path: "long" })).result)
      expect(text).toBe([ReadTool.Messages.directoryHeader("long", 1, fits), ...names.slice(0, fits), ReadTool.Messages.more(fits + 1)].join("\n"))
    })))
})

describe("ReadTool missing paths and non-files", () => {
  it.live("says a file is not found, with no suggestions when nothing is similar", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* tree(work, ["other.txt"])
      expect(textOf((yield* settle(tool, { path: "nothing.txt" })).result)).toBe("File not found: nothing.txt")
      expect(textOf((yield* settle(tool, { path: "gone/nothing.txt" })).result)).toBe(ReadTool.Messages.notFound("gone/nothing.txt"))
    })))

  it.live("suggests up to three names that contain the name or are contained in it, case-insensitively", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* tree(path.join(work, "src"), ["config.json", "config.local.json", "CONFIG.md", "con", "other.txt"])
      const { result } = yield* settle(tool, { path: "src/config" })
      expect(textOf(result)).toBe("File not found: src/config\n\nDid you mean one of these?\nsrc/CONFIG.md\nsrc/con\nsrc/config.json")
    })))

  it.live("suggests bare names in the Location root", () =>
    withTool((tool, work) => Effect.gen(function* () {
      yield* tree(work, ["Readme.md"])
      const { result } = yield* settle(tool, { path: "README" })
      expect(textOf(result)).toBe(ReadTool.Messages.suggestions("README", ["Readme.md"]))
    })))

  it.live("refuses a path that is neither a file nor a directory", () =>
    withTool((tool, work) => Effect.gen(function* () {
      const made = spawnSync("mkfifo", [path.join(work, "pipe")])
      expect(made.status).toBe(0)
      expect(textOf((yield* settle(tool, { path: "pipe" })).result)).toBe("Path is not a file: pipe")
    })))
})
