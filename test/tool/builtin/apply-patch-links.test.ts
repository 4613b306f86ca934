/**
 * apply_patch and symbolic links, with real links on disk where it matters: a delete removes the
 * link and a move moves it (the destination is a link with the same target text), as rm and mv
 * do; the link's target, inside or outside the Location, is never read or changed by them. An
 * update in place still goes through the link to its target, as write and edit do.
 */
import { lstat, mkdir, readFile, readlink, readdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FileMutation } from "../../../src/location/file-mutation.js"
import { LocationMutation } from "../../../src/location/mutation.js"
import { ApplyPatchParse } from "../../../src/tool/builtin/apply-patch/parse.js"
import { ApplyPatchPlan } from "../../../src/tool/builtin/apply-patch/plan.js"
import { ApplyPatchTransaction } from "../../../src/tool/builtin/apply-patch/transaction.js"
import { Permission } from "../../../src/permission/permission.js"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import type { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"
import { tmpdir } from "../../lib/tmp.js"

const hunksOf = (...body: ReadonlyArray<string>) => {
  const parsed = ApplyPatchParse.parse(["*** Begin Patch", ...body, "*** End Patch"].join("\n"))
  if (ApplyPatchParse.isError(parsed)) throw new Error(parsed.message)
  return parsed
}

const chunksOf = (...body: ReadonlyArray<string>) => {
  const [hunk] = hunksOf("*** Update File: f", ...body)
  if (hunk?.type !== "update") throw new Error("not an update")
  return hunk.chunks
}

const place = (name: string): ApplyPatchPlan.Place => ({ real: `/r/${name}`, resource: name })
const file = (text: string): ApplyPatchPlan.Disk => ({ type: "file", bytes: Buffer.from(text), mode: 0o100644 })
const link = (target: string): ApplyPatchPlan.Disk => ({ type: "link", bytes: Buffer.from(target) })
const disk = (entries: Readonly<Record<string, ApplyPatchPlan.Disk>>) => new Map(Object.entries(entries).map(([name, found]) => [`/r/${name}`, found]))
const summary = (plan: ApplyPatchPlan.Plan | ApplyPatchPlan.PlanError) =>
  ApplyPatchPlan.isError(plan)
    ? plan.message
    : {
        files: plan.files,
        diff: plan.diff,
        changes: plan.changes.map((change) => [change.place.resource, change.original?.link === true ? "link" : change.original === undefined ? "new" : "file", change.next?.toString(), change.link === true ? "link" : "file"]),
        shown: plan.shown.map((shown) => shown.resource),
      }

describe("ApplyPatchPlan and symbolic links", () => {
  it("resolves a delete and both paths of a move as the entry itself, an add or an update in place through the link", () => {
    const kinds = hunksOf("*** Delete File: a", "*** Update File: b", "*** Move to: c", "@@", " x", "*** Update File: d", "@@", "-x", "*** Add File: e", "+x").map(ApplyPatchPlan.kindOf)
    expect(kinds).toEqual(["entry", "entry", "file", "file"])
  })

  it("deletes a link itself, quoting nothing of its target", () => {
    expect(summary(ApplyPatchPlan.make([{ type: "delete", target: place("l") }], disk({ l: link("target.txt") })))).toEqual({
      files: [{ status: "D", path: "l" }],
      diff: "--- l\n+++ l\n",
      changes: [["l", "link", undefined, "file"]],
      shown: [],
    })
  })

  it("moves a link itself: the destination is a link with the same target text, its context lines not read", () => {
    const steps: ReadonlyArray<ApplyPatchPlan.Step> = [{ type: "update", target: place("l"), move: place("m"), chunks: chunksOf("@@", " not the target's text") }]
    expect(summary(ApplyPatchPlan.make(steps, disk({ l: link("../outside/secret.txt") })))).toEqual({
      files: [{ status: "M", path: "m" }],
      diff: "--- l\n+++ m\n",
      changes: [
        ["m", "new", "../outside/secret.txt", "link"],
        ["l", "link", undefined, "file"],
      ],
      shown: [],
    })
  })

  it("moves a file onto a link, replacing the link and not its target", () => {
    const steps: ReadonlyArray<ApplyPatchPlan.Step> = [{ type: "update", target: place("a"), move: place("l"), chunks: chunksOf("@@", "-x", "+y") }]
    expect(summary(ApplyPatchPlan.make(steps, disk({ a: file("x\n"), l: link("t") })))).toEqual({
      files: [{ status: "M", path: "l" }],
      diff: "--- a\n+++ l\n@@ -1,1 +1,1 @@\n-x\n+y\n",
      changes: [
        ["l", "link", "y\n", "file"],
        ["a", "file", undefined, "file"],
      ],
      shown: ["a"],
    })
  })

  const errors: ReadonlyArray<{ readonly name: string; readonly step: ApplyPatchPlan.Step; readonly message: string }> = [
    {
      name: "a move of a link that adds or removes lines",
      step: { type: "update", target: place("l"), move: place("m"), chunks: chunksOf("@@", "-x", "+y") },
      message: ApplyPatchPlan.Messages.linkContent("l"),
    },
    { name: "an update in place that meets a link (moved there earlier in the patch)", step: { type: "update", target: place("l"), move: undefined, chunks: chunksOf("@@", "-x") }, message: "Failed to read file to update l: Is a symbolic link" },
  ]
  for (const c of errors) {
    it(`refuses ${c.name}`, () => {
      expect(summary(ApplyPatchPlan.make([c.step], disk({ l: link("t") })))).toBe(c.message)
    })
  }

  it("spells the link message verbatim", () => {
    expect(ApplyPatchPlan.Messages.linkContent("l")).toBe(
      "Failed to move l: it is a symbolic link, and a move moves the link itself, so its hunk cannot add or remove lines. Move it with context lines only, and change its target's content in an Update File hunk of its own.",
    )
  })

  const holds: ReadonlyArray<{ readonly name: string; readonly original: ApplyPatchPlan.Content | undefined; readonly now: ApplyPatchPlan.Disk; readonly holds: boolean }> = [
    { name: "the same link", original: { bytes: Buffer.from("t"), mode: 0, link: true }, now: link("t"), holds: true },
    { name: "a link retargeted", original: { bytes: Buffer.from("t"), mode: 0, link: true }, now: link("u"), holds: false },
    { name: "a link replaced by a file holding its text", original: { bytes: Buffer.from("t"), mode: 0, link: true }, now: file("t"), holds: false },
    { name: "a file replaced by a link whose text is its content", original: { bytes: Buffer.from("t"), mode: 0o100644 }, now: link("t"), holds: false },
    { name: "the same file", original: { bytes: Buffer.from("t"), mode: 0o100644 }, now: file("t"), holds: true },
    { name: "still nothing", original: undefined, now: { type: "missing" }, holds: true },
    { name: "a link where nothing was", original: undefined, now: link("t"), holds: false },
  ]
  for (const c of holds) {
    it(`judges ${c.name} as ${c.holds ? "unchanged" : "changed"}`, () => {
      expect(ApplyPatchPlan.holds({ place: place("l"), original: c.original, next: undefined, mode: undefined }, c.now)).toBe(c.holds)
    })
  }
})

/** `<root>/work` with `target.txt`, `link.txt` → `target.txt` and `out.txt` → `<root>/outside/secret.txt`. */
const linked = Effect.gen(function* () {
  const root = yield* tmpdir
  const work = path.join(root, "work")
  const outside = path.join(root, "outside", "secret.txt")
  yield* Effect.promise(async () => {
    await mkdir(path.join(root, "outside"), { recursive: true })
    await mkdir(work)
    await writeFile(path.join(work, "target.txt"), "target\n")
    await writeFile(outside, "secret\n")
    await symlink("target.txt", path.join(work, "link.txt"))
    await symlink(outside, path.join(work, "out.txt"))
  })
  return { root, work, outside }
})

describe("LocationMutation.resolve as the entry itself", () => {
  it.live("names a link by its own path, inside even when it points outside; a linked folder is still followed", () =>
    Effect.gen(function* () {
      const { root, work } = yield* linked
      yield* Effect.promise(() => symlink(".", path.join(work, "here")))
      const location = { directory: work, caseInsensitive: false }
      const resolve = (input: string, kind: LocationMutation.Kind) => LocationMutation.resolve(location, input, { kind, home: root })
      expect(yield* resolve("link.txt", "entry")).toEqual({ type: "internal", input: "link.txt", real: path.join(work, "link.txt"), resource: "link.txt" })
      expect(yield* resolve("out.txt", "entry")).toEqual({ type: "internal", input: "out.txt", real: path.join(work, "out.txt"), resource: "out.txt" })
      expect((yield* resolve("here/link.txt", "entry")).resource).toBe("link.txt")
      expect((yield* resolve("link.txt", "file")).resource).toBe("target.txt")
      expect((yield* resolve("out.txt", "file").pipe(Effect.flip)).reason).toBe("location_escape")
      expect((yield* LocationMutation.recheck(location, yield* resolve("out.txt", "entry"), { kind: "entry", home: root })).real).toBe(path.join(work, "out.txt"))
    }))
})

/** Every entry under `root`: a link as its target text, a file as its content. */
const tree = async (root: string): Promise<Readonly<Record<string, string>>> => {
  const entries: Record<string, string> = {}
  for (const name of (await readdir(root, { recursive: true })).sort()) {
    const full = path.join(root, name)
    const info = await lstat(full)
    entries[name] = info.isSymbolicLink() ? `-> ${await readlink(full)}` : info.isDirectory() ? "dir" : await readFile(full, "utf8")
  }
  return entries
}

const change = (work: string, name: string, fields: Omit<ApplyPatchPlan.Change, "place">): ApplyPatchPlan.Change => ({ place: { real: path.join(work, name), resource: name }, ...fields })

describe("ApplyPatchTransaction and symbolic links", () => {
  it.live("moves and deletes links themselves, leaving every target as it was", () =>
    Effect.gen(function* () {
      const { outside, work } = yield* linked
      const failed = yield* ApplyPatchTransaction.commit([
        change(work, "sub/moved.txt", { original: undefined, next: Buffer.from("../target.txt"), mode: undefined, link: true }),
        change(work, "link.txt", { original: { bytes: Buffer.from("target.txt"), mode: 0, link: true }, next: undefined, mode: undefined }),
        change(work, "out.txt", { original: { bytes: Buffer.from(outside), mode: 0, link: true }, next: undefined, mode: undefined }),
      ])
      expect(failed).toBeUndefined()
      expect(yield* Effect.promise(() => tree(work))).toEqual({ sub: "dir", "sub/moved.txt": "-> ../target.txt", "target.txt": "target\n" })
      expect(yield* Effect.promise(() => readFile(outside, "utf8"))).toBe("secret\n")
    }))

  it.live("puts moved and deleted links back when a later change fails", () =>
    Effect.gen(function* () {
      const { outside, work } = yield* linked
      yield* Effect.promise(() => mkdir(path.join(work, "blocked")))
      const before = yield* Effect.promise(() => tree(work))
      const failed = yield* ApplyPatchTransaction.commit([
        change(work, "moved.txt", { original: undefined, next: Buffer.from("target.txt"), mode: undefined, link: true }),
        change(work, "target.txt", { original: { bytes: Buffer.from("target\n"), mode: 0o100644 }, next: Buffer.from("changed\n"), mode: 0o100644 }),
        change(work, "out.txt", { original: { bytes: Buffer.from(outside), mode: 0, link: true }, next: Buffer.from("elsewhere.txt"), mode: undefined, link: true }),
        change(work, "blocked", { original: undefined, next: Buffer.from("x"), mode: undefined }),
        change(work, "link.txt", { original: { bytes: Buffer.from("target.txt"), mode: 0, link: true }, next: undefined, mode: undefined }),
      ])
      expect(failed).toEqual({ path: "blocked", detail: "EISDIR", unrestored: [] })
      expect(yield* Effect.promise(() => tree(work))).toEqual(before)
      expect(yield* Effect.promise(() => readFile(outside, "utf8"))).toBe("secret\n")
      expect(Object.keys(yield* Effect.promise(() => tree(work))).filter((name) => name.startsWith(FileMutation.TEMP_PREFIX))).toEqual([])
    }))
})

const askEdits = globalConfig({ permission: [{ action: "edit", resource: "*", effect: "ask" }] })

/** The apply_patch tool on a harness whose Location holds the links of `linked`; edits are asked. */
const withTool = <A, E>(body: (tool: Tool.AnyTool, paths: { readonly work: string; readonly outside: string }) => Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    const outside = path.join(harness.root, "outside", "secret.txt")
    yield* Effect.promise(async () => {
      await mkdir(path.join(harness.root, "outside"))
      await writeFile(path.join(harness.work, "target.txt"), "target\n")
      await writeFile(outside, "secret\n")
      await symlink("target.txt", path.join(harness.work, "link.txt"))
      await symlink(outside, path.join(harness.work, "out.txt"))
    })
    return yield* Effect.flatMap(ApplyPatchTool.make, (tool) => body(tool, { work: harness.work, outside }) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root, askEdits)))
  })

const patch = (...lines: ReadonlyArray<string>) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n")
const inWork = (work: string) => Effect.promise(async () => Object.fromEntries(Object.entries(await tree(work)).filter(([name]) => !name.startsWith(".git"))))
const asked = (requests: ReadonlyArray<Permission.Request>) => requests.map((request) => [request.action, request.resources])

describe("ApplyPatchTool and symbolic links", () => {
  it.live("moves a link itself, asking about the link's own path, and leaves its target alone", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const { result, asked: requests } = yield* settle(tool, { patchText: patch("*** Update File: link.txt", "*** Move to: moved.txt", "@@", " target") })
        expect(textOf(result)).toBe("Success. Updated the following files:\nM moved.txt\n\n--- link.txt\n+++ moved.txt\n")
        expect(asked(requests)).toEqual([["edit", ["link.txt", "moved.txt"]]])
        expect(yield* inWork(work)).toMatchObject({ "moved.txt": "-> target.txt", "target.txt": "target\n" })
        expect(Object.keys(yield* inWork(work))).not.toContain("link.txt")
      })))

  it.live("deletes a link itself, asking about the link's own path, and leaves its target alone", () =>
    withTool((tool, { work, outside }) =>
      Effect.gen(function* () {
        const { result, asked: requests } = yield* settle(tool, { patchText: patch("*** Delete File: link.txt") })
        expect(textOf(result).split("\n\n")[0]).toBe("Success. Updated the following files:\nD link.txt")
        expect(asked(requests)).toEqual([["edit", ["link.txt"]]])
        expect(yield* inWork(work)).toEqual({ "out.txt": `-> ${outside}`, "target.txt": "target\n" })
      })))

  it.live("moves and deletes links pointing outside without external_directory, never touching the file outside", () =>
    withTool((tool, { work, outside }) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => symlink(outside, path.join(work, "out2.txt")))
        const { result, asked: requests } = yield* settle(tool, { patchText: patch("*** Delete File: out.txt", "*** Update File: out2.txt", "*** Move to: moved.txt", "@@", " anything") })
        expect(textOf(result).split("\n\n")[0]).toBe("Success. Updated the following files:\nM moved.txt\nD out.txt")
        expect(asked(requests)).toEqual([["edit", ["out.txt", "out2.txt", "moved.txt"]]])
        expect(yield* inWork(work)).toEqual({ "link.txt": "-> target.txt", "moved.txt": `-> ${outside}`, "target.txt": "target\n" })
        expect(yield* Effect.promise(() => readFile(outside, "utf8"))).toBe("secret\n")
      })))

  it.live("edits the target through a link on an update in place, naming the target, and leaves the link a link", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const { result, asked: requests } = yield* settle(tool, { patchText: patch("*** Update File: link.txt", "@@", "-target", "+edited") })
        expect(textOf(result).split("\n\n")[0]).toBe("Success. Updated the following files:\nM target.txt")
        expect(asked(requests).filter(([action]) => action === "edit")).toEqual([["edit", ["target.txt"]]])
        expect(yield* inWork(work)).toMatchObject({ "link.txt": "-> target.txt", "target.txt": "edited\n" })
      })))

  it.live("refuses to edit through a link pointing outside, and to change content while moving a link", () =>
    withTool((tool, { work, outside }) =>
      Effect.gen(function* () {
        const before = yield* inWork(work)
        const through = yield* settle(tool, { patchText: patch("*** Update File: out.txt", "@@", "-secret", "+leaked") })
        expect(textOf(through.result)).toBe(LocationMutation.Messages.location_escape("out.txt"))
        const moved = yield* settle(tool, { patchText: patch("*** Update File: link.txt", "*** Move to: moved.txt", "@@", "-target", "+edited") })
        expect(textOf(moved.result)).toBe(ApplyPatchPlan.Messages.linkContent("link.txt"))
        expect([...through.asked, ...moved.asked]).toEqual([])
        expect(yield* inWork(work)).toEqual(before)
        expect(yield* Effect.promise(() => readFile(outside, "utf8"))).toBe("secret\n")
      })))

  it.live("moves a file onto a link, replacing the link and not its target", () =>
    withTool((tool, { work, outside }) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, "a.txt"), "a\n"))
        const { result } = yield* settle(tool, { patchText: patch("*** Update File: a.txt", "*** Move to: out.txt", "@@", "-a", "+b") })
        expect(textOf(result).split("\n\n")[0]).toBe("Success. Updated the following files:\nM out.txt")
        expect(yield* inWork(work)).toEqual({ "link.txt": "-> target.txt", "out.txt": "b\n", "target.txt": "target\n" })
        expect(yield* Effect.promise(() => readFile(outside, "utf8"))).toBe("secret\n")
      })))

  it.live("puts a moved link back when the commit fails", () =>
    withTool((tool, { work }) =>
      Effect.gen(function* () {
        const before: { tree?: Readonly<Record<string, string>> } = {}
        const sabotage = () =>
          Effect.promise(async () => {
            await mkdir(path.join(work, "blocked.txt"))
            before.tree = Object.fromEntries(Object.entries(await tree(work)).filter(([name]) => !name.startsWith(".git")))
            return "once" as const
          })
        const { result } = yield* settle(tool, { patchText: patch("*** Update File: link.txt", "*** Move to: moved.txt", "@@", " target", "*** Delete File: out.txt", "*** Add File: blocked.txt", "+x") }, sabotage)
        expect(textOf(result)).toBe("Could not apply the patch: changing blocked.txt failed (EISDIR). No files were changed.")
        expect(yield* inWork(work)).toEqual(before.tree)
      })))
})
