/**
 * Hard links (issue 12, item 10): a regular file with more than one name may be another name of a
 * file the session may not read, so its `read` is opaque: asked even where `read *` allows, allowed
 * only by a rule naming it exactly. Real files and real links; real ripgrep for grep.
 */
import { link, readFile, rename, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LocationMutation } from "../../../src/location/mutation.js"
import { Permission } from "../../../src/permission/permission.js"
import { FileAccess } from "../../../src/tool/builtin/file-access.js"
import { GrepTool } from "../../../src/tool/builtin/grep.js"
import { ReadTool } from "../../../src/tool/builtin/read.js"
import { WriteTool } from "../../../src/tool/builtin/write.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { files, withSearchTool } from "../../lib/search.js"

const SECRET = "API_KEY=supersecret\n"
const askedOf = (asked: ReadonlyArray<Permission.Request>) => asked.map(({ action, resources }) => [action, resources])
const exactRead = globalConfig({ permission: [{ action: "read", resource: "hard.txt", effect: "allow" }] })

/** `.env` holding a secret and `hard.txt`, a second name of it. */
const linked = (work: string) =>
  Effect.andThen(files(work, { ".env": SECRET }), Effect.promise(() => link(path.join(work, ".env"), path.join(work, "hard.txt"))))

describe("FileAccess hard links", () => {
  it.live("read asks for a hard link plainly under the build defaults, and shows nothing when refused", () =>
    withSearchTool(ReadTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* linked(work)
        const { result, asked } = yield* settle(tool, { path: "hard.txt" }, "reject")
        expect(askedOf(asked)).toEqual([["read", ["hard.txt"]]])
        expect(textOf(result)).toBe(Permission.Messages.declined("read"))
      })))

  it.live("read of a hard link is allowed by a rule naming it exactly, and a file with one name is not asked", () =>
    withSearchTool(ReadTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* linked(work)
        yield* files(work, { "plain.txt": "hello\n" })
        const exact = yield* settle(tool, { path: "hard.txt" }, "reject")
        expect(exact.asked).toEqual([])
        expect(textOf(exact.result)).toContain("1: API_KEY=supersecret")
        const plain = yield* settle(tool, { path: "plain.txt" }, "reject")
        expect(plain.asked).toEqual([])
      }), exactRead))

  it.live("read refuses a file that became a hard link while its read was awaiting approval", () =>
    withSearchTool(ReadTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { ".env": SECRET, "notes.txt": "harmless\n" })
        // While the person looks at `read notes.txt`, notes.txt is replaced by a second name of .env.
        const swap = () =>
          Effect.promise(async () => {
            await link(path.join(work, ".env"), path.join(work, "swap.tmp"))
            await rename(path.join(work, "swap.tmp"), path.join(work, "notes.txt"))
            return "once" as const
          })
        const { result } = yield* settle(tool, { path: "notes.txt" }, swap)
        expect(textOf(result)).toBe(LocationMutation.Messages.changed("notes.txt"))
      }), globalConfig({ permission: [{ action: "read", resource: "*", effect: "ask" }] })))

  it.live("grep leaves out the lines of a hard-linked file unless a rule names it", () =>
    Effect.gen(function* () {
      const search = (config?: ReturnType<typeof globalConfig>) =>
        withSearchTool(GrepTool.make, (tool, { work }) =>
          Effect.gen(function* () {
            yield* linked(work)
            yield* files(work, { "a.ts": "API_KEY=x\n" })
            const { result, asked } = yield* settle(tool, { pattern: "API_KEY" }, "reject")
            expect(asked).toEqual([])
            return (textOf(result).match(/^.+:$/gm) ?? []).map((line) => path.basename(line.slice(0, -1)))
          }), config)
      expect(yield* search()).toEqual(["a.ts"])
      expect(yield* search(exactRead)).toEqual(["a.ts", "hard.txt"])
    }))

  it.live("grep leaves out the lines of a file whose name is not UTF-8, which no rule or link check could judge", () =>
    withSearchTool(GrepTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* files(work, { ".env": SECRET, "a.ts": "API_KEY=x\n" })
        // A second name of .env, in bytes that are not UTF-8 (an attacker's review, 2026-12-04).
        const odd = Buffer.concat([Buffer.from(path.join(work, "notes")), Buffer.from([0xff]), Buffer.from(".txt")])
        yield* Effect.promise(() => link(path.join(work, ".env"), odd))
        const { result, asked } = yield* settle(tool, { pattern: "API_KEY" }, "reject")
        expect(asked).toEqual([])
        expect(textOf(result)).not.toContain("supersecret")
        expect((textOf(result).match(/^.+:$/gm) ?? []).map((line) => path.basename(line.slice(0, -1)))).toEqual(["a.ts"])
      })))

  it.live("write over a hard link withholds the old content's diff, and leaves the other name as it was", () =>
    withSearchTool(WriteTool.make, (tool, { work }) =>
      Effect.gen(function* () {
        yield* linked(work)
        const { result } = yield* settle(tool, { path: "hard.txt", content: "new\n" }, "reject")
        expect(textOf(result)).toBe(`${WriteTool.Messages.wrote("hard.txt")}\n\n${FileAccess.Messages.withheld("hard.txt")}`)
        expect(yield* Effect.promise(() => readFile(path.join(work, ".env"), "utf8"))).toBe(SECRET)
        expect(yield* Effect.promise(() => readFile(path.join(work, "hard.txt"), "utf8"))).toBe("new\n")
      })))
})

describe("FileAccess.hasLinks", () => {
  it.live("is true only for a regular file with more than one name", () =>
    withSearchTool(ReadTool.make, (_tool, { work }) =>
      Effect.gen(function* () {
        yield* linked(work)
        yield* files(work, { "one.txt": "x" })
        yield* Effect.promise(() => writeFile(path.join(work, "two.txt"), "y"))
        expect(FileAccess.hasLinks(path.join(work, "hard.txt"))).toBe(true)
        expect(FileAccess.hasLinks(path.join(work, ".env"))).toBe(true)
        expect(FileAccess.hasLinks(path.join(work, "one.txt"))).toBe(false)
        expect(FileAccess.hasLinks(work)).toBe(false)
        expect(FileAccess.hasLinks(path.join(work, "missing"))).toBe(false)
      })))
})
