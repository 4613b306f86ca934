import { mkdir, readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { Permission } from "../../../src/permission/permission.js"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import type { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

const globalConfig = (body: unknown) => {
  const file = Config.ConfigValidate.file("/global/toolgate.json", "global", body)
  if (file instanceof Error) throw file
  return Config.merge([file])
}

/** Every edit asks. */
const askEdits = globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })

const withTool = <A, E>(body: (tool: Tool.AnyTool, harness: { root: string; work: string }) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.flatMap(ApplyPatchTool.make, (tool) => body(tool, harness) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root, config)))
  })

const put = (file: string, content: string) => Effect.promise(async () => {
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, content)
})
const read = (file: string) => Effect.promise(() => readFile(file, "utf8"))
const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const patch = (...lines: ReadonlyArray<string>) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n")
const summary = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources, metadata: request.metadata }))

describe("ApplyPatchTool permissions", () => {
  it.live("asks external_directory once for every outside folder, then edit once with every resource and the diff", () =>
    withTool((tool, { root, work }) =>
      Effect.gen(function* () {
        const [one, two] = [path.join(root, "one"), path.join(root, "two")]
        yield* put(path.join(one, "a.txt"), "a\n")
        yield* put(path.join(one, "b.txt"), "b\n")
        yield* put(path.join(work, "in.txt"), "in\n")
        const patchText = patch(
          `*** Update File: ${path.join(one, "a.txt")}`, "-a", "+A",
          "*** Update File: in.txt", `*** Move to: ${path.join(two, "moved.txt")}`, "-in", "+IN",
          `*** Delete File: ${path.join(one, "b.txt")}`,
          "*** Add File: new.txt", "+n",
        )
        const { result, asked } = yield* settle(tool, { patchText })
        const diff = [
          `--- new.txt\n+++ new.txt\n@@ -0,0 +1,1 @@\n+n\n`,
          `--- ${path.join(one, "a.txt")}\n+++ ${path.join(one, "a.txt")}\n@@ -1,1 +1,1 @@\n-a\n+A\n`,
          `--- in.txt\n+++ ${path.join(two, "moved.txt")}\n@@ -1,1 +1,1 @@\n-in\n+IN\n`,
          `--- ${path.join(one, "b.txt")}\n+++ ${path.join(one, "b.txt")}\n@@ -1,1 +0,0 @@\n-b\n`,
        ].join("")
        expect(summary(asked)).toEqual([
          { action: "external_directory", resources: [`${one}/*`, `${two}/*`], metadata: { purpose: `edit ${path.join(one, "a.txt")}, in.txt, ${path.join(two, "moved.txt")}, ${path.join(one, "b.txt")}, new.txt` } },
          { action: "edit", resources: [path.join(one, "a.txt"), "in.txt", path.join(two, "moved.txt"), path.join(one, "b.txt"), "new.txt"], metadata: { diff } },
        ])
        expect(asked[0]?.save).toEqual([`${one}/*`, `${two}/*`])
        expect(textOf(result).split("\n\n")[0]).toBe(`Success. Updated the following files:\nA new.txt\nM ${path.join(one, "a.txt")}\nM ${path.join(two, "moved.txt")}\nD ${path.join(one, "b.txt")}`)
        expect(yield* read(path.join(one, "a.txt"))).toBe("A\n")
        expect(yield* read(path.join(two, "moved.txt"))).toBe("IN\n")
        expect(yield* exists(path.join(work, "in.txt"))).toBe(false)
        expect(yield* exists(path.join(one, "b.txt"))).toBe(false)
      }), askEdits))

  it.live("reads nothing outside when external_directory is rejected", () =>
    withTool((tool, { root }) =>
      Effect.gen(function* () {
        const outside = path.join(root, "one", "missing.txt")
        const { result, asked } = yield* settle(tool, { patchText: patch(`*** Update File: ${outside}`, "-a", "+b") }, { reply: "reject", message: "stay inside" })
        expect(textOf(result)).toBe(Permission.Messages.corrected("stay inside"))
        expect(summary(asked)).toEqual([{ action: "external_directory", resources: [`${path.join(root, "one")}/*`], metadata: { purpose: `edit ${outside}` } }])
      })))

  it.live("blocks the whole patch, changing nothing, when edit is denied on one target", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "a.txt"), "a\n")
        yield* put(path.join(work, "locked/b.txt"), "b\n")
        const { result } = yield* settle(tool, { patchText: patch("*** Update File: a.txt", "-a", "+A", "*** Add File: c.txt", "+c", "*** Delete File: locked/b.txt") })
        expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.BlockedError)
        expect(textOf(result)).toBe(Permission.Messages.blocked("edit"))
        expect(yield* read(path.join(work, "a.txt"))).toBe("a\n")
        expect(yield* read(path.join(work, "locked/b.txt"))).toBe("b\n")
        expect(yield* exists(path.join(work, "c.txt"))).toBe(false)
      }), globalConfig({ permission: [{ action: "edit", resource: "locked/*", effect: "deny" }] })))

  it.live("blocks a move onto a denied destination", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        yield* put(path.join(work, "a.txt"), "a\n")
        const { result } = yield* settle(tool, { patchText: patch("*** Update File: a.txt", "*** Move to: locked/a.txt", "-a", "+A") })
        expect(textOf(result)).toBe(Permission.Messages.blocked("edit"))
        expect(yield* read(path.join(work, "a.txt"))).toBe("a\n")
        expect(yield* exists(path.join(work, "locked"))).toBe(false)
      }), globalConfig({ permission: [{ action: "edit", resource: "locked/*", effect: "deny" }] })))
})
