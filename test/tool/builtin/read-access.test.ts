import { spawnSync } from "node:child_process"
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../../../src/config.js"
import { LocationMutation } from "../../../src/location/mutation.js"
import { Permission } from "../../../src/permission/permission.js"
import { ReadFile } from "../../../src/tool/builtin/read/file.js"
import { ReadTool } from "../../../src/tool/builtin/read.js"
import { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { type Harness, harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"
import { tmpdir } from "../../lib/tmp.js"

const withTool = <A, E>(body: (tool: Effect.Success<typeof ReadTool.make>, harness: Harness) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const made = yield* makeHarness
    const harness = { ...made, root: yield* Effect.promise(() => realpath(made.root)) }
    return yield* Effect.flatMap(ReadTool.make, (tool) => body(tool, harness) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(made.root, config)))
  })


const put = (file: string, content: string) => Effect.promise(() => writeFile(file, content))

/** What was asked, in order, without ids and timestamps. */
const askedOf = (asked: ReadonlyArray<Permission.Request>) => asked.map(({ action, resources }) => ({ action, resources }))

describe("ReadTool permissions", () => {
  it.live("asks external_directory, then read, for a file outside the Location, and reads it after both", () =>
    withTool((tool, { root }) => Effect.gen(function* () {
      const outside = path.join(root, "outside.txt")
      yield* put(outside, "far away\n")
      const { result, asked } = yield* settle(tool, { path: outside })
      expect(askedOf(asked)).toEqual([
        { action: "external_directory", resources: [`${root}/*`] },
        { action: "read", resources: [outside] },
      ])
      expect(textOf(result)).toBe(`${ReadTool.Messages.fileHeader(outside, 1, 1)}\n1: far away`)
    }), globalConfig({ permission: [{ action: "read", resource: "*", effect: "ask" }] })))

  it.live("gives the model the feedback of a refusal with a message", () =>
    withTool((tool, { root }) => Effect.gen(function* () {
      const outside = path.join(root, "outside.txt")
      yield* put(outside, "far away\n")
      const answer = (request: Permission.Request) => Effect.succeed(request.action === "read" ? { reply: "reject" as const, message: "not that file" } : ("once" as const))
      // The harness answers with a reply object at run time; its function type names only plain replies.
      const { result, asked } = yield* settle(tool, { path: outside }, answer as never)
      expect(askedOf(asked).map(({ action }) => action)).toEqual(["external_directory", "read"])
      expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Tool.Failure)
      expect(textOf(result)).toBe(Permission.Messages.corrected("not that file"))
      expect(textOf(result)).toBe("The user rejected this call with feedback: not that file")
    }), globalConfig({ permission: [{ action: "read", resource: "*", effect: "ask" }] })))

  it.live("stops at a refused external_directory and passes a decline through", () =>
    withTool((tool, { root }) => Effect.gen(function* () {
      const outside = path.join(root, "outside.txt")
      yield* put(outside, "far away\n")
      const refused = yield* settle(tool, { path: outside }, { reply: "reject", message: "stay inside" })
      expect(askedOf(refused.asked)).toEqual([{ action: "external_directory", resources: [`${root}/*`] }])
      expect(textOf(refused.result)).toBe(Permission.Messages.corrected("stay inside"))
      const declined = yield* settle(tool, { path: outside }, "reject")
      expect(declined.result._tag === "Failure" && declined.result.failure).toBeInstanceOf(Permission.DeclinedError)
    })))

  it.live("fails a denied read with BlockedError before touching the file system", () =>
    withTool((tool, { work }) => Effect.gen(function* () {
      const missing = yield* settle(tool, { path: "secret.txt" })
      expect(missing.asked).toEqual([])
      expect(missing.result._tag === "Failure" && missing.result.failure).toBeInstanceOf(Permission.BlockedError)
      expect(textOf(missing.result)).toBe("Permission denied: read")
      yield* put(path.join(work, "secret.txt"), "hidden\n")
      const present = yield* settle(tool, { path: "secret.txt" })
      expect(present.result._tag === "Failure" && present.result.failure).toBeInstanceOf(Permission.BlockedError)
    }), globalConfig({ permission: [{ action: "read", resource: "secret.txt", effect: "deny" }] })))
})

describe("ReadTool adversarial paths", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly input: string; readonly reason: LocationMutation.Reason; readonly setup: (harness: Harness) => Promise<void> }> = [
    { name: "../x", input: "../outside.txt", reason: "relative_escape", setup: async () => {} },
    { name: "a/../../x", input: "a/../../outside.txt", reason: "relative_escape", setup: async () => {} },
    {
      name: "a symlink to a file outside",
      input: "link.txt",
      reason: "location_escape",
      setup: ({ root, work }) => symlink(path.join(root, "outside.txt"), path.join(work, "link.txt")),
    },
    {
      name: "a symlinked folder outside, at depth 3",
      input: "a/b/c/outside.txt",
      reason: "location_escape",
      setup: async ({ root, work }) => {
        await mkdir(path.join(work, "a/b"), { recursive: true })
        await symlink(root, path.join(work, "a/b/c"))
      },
    },
    {
      name: "a dangling symlink pointing outside",
      input: "dangling.txt",
      reason: "location_escape",
      setup: ({ root, work }) => symlink(path.join(root, "missing.txt"), path.join(work, "dangling.txt")),
    },
    { name: "a NUL byte", input: "outside.txt\0.png", reason: "invalid_path", setup: async () => {} },
  ]

  for (const c of cases) {
    it.live(`refuses ${c.name} without asking or reading`, () =>
      withTool((tool, harness) => Effect.gen(function* () {
        yield* put(path.join(harness.root, "outside.txt"), "SECRET\n")
        yield* Effect.promise(() => c.setup(harness))
        const { result, asked } = yield* settle(tool, { path: c.input })
        expect(asked).toEqual([])
        expect(textOf(result)).toBe(new LocationMutation.PathError({ reason: c.reason, path: c.input }).message)
      })))
  }

  it.live("treats a sibling folder sharing the Location's name as a prefix as outside", () =>
    withTool((tool, { root }) => Effect.gen(function* () {
      const sibling = path.join(root, "work-evil")
      yield* Effect.promise(() => mkdir(sibling))
      yield* put(path.join(sibling, "x.txt"), "SECRET\n")
      const { result, asked } = yield* settle(tool, { path: path.join(sibling, "x.txt") }, { reply: "reject", message: "no" })
      expect(askedOf(asked)).toEqual([{ action: "external_directory", resources: [`${sibling}/*`] }])
      expect(textOf(result)).toBe(Permission.Messages.corrected("no"))
    })))
})

describe("ReadFile.open", () => {
  it.live("refuses to follow a link swapped in after resolution, and never blocks on a FIFO", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      yield* put(path.join(dir, "real.txt"), "x")
      yield* Effect.promise(() => symlink(path.join(dir, "real.txt"), path.join(dir, "link.txt")))
      const code = yield* Effect.promise(() => ReadFile.open(path.join(dir, "link.txt")).then(() => "opened", (error: NodeJS.ErrnoException) => error.code))
      expect(code).toBe("ELOOP")
      expect(spawnSync("mkfifo", [path.join(dir, "pipe")]).status).toBe(0)
      expect(yield* Effect.promise(() => ReadFile.open(path.join(dir, "pipe")))).toEqual({ type: "other" })
      expect(yield* Effect.promise(() => ReadFile.open(path.join(dir, "none.txt")))).toEqual({ type: "missing" })
      expect(yield* Effect.promise(() => ReadFile.open(dir))).toEqual({ type: "directory" })
    }))
})
