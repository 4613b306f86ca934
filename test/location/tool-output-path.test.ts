import { mkdir, stat, symlink } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LocationMutation } from "../../src/location/mutation.js"
import { ToolOutputPath } from "../../src/location/tool-output-path.js"
import { tmpdir } from "../lib/tmp.js"

const ROOT = "/data/tool-output"
const OWN = ToolOutputPath.folder(ROOT, "prj_a", "ses_a")
const OTHER = ToolOutputPath.folder(ROOT, "prj_a", "ses_b")

const external = (real: string, directory = path.dirname(real)): Extract<LocationMutation.Target, { type: "external" }> => ({
  type: "external",
  input: real,
  real,
  resource: real,
  externalDirectory: { directory, resource: LocationMutation.folderPattern(directory), save: "/data/*" },
})

describe("ToolOutputPath", () => {
  it("keys a session by 32 hex digits of its id's hash: stable, distinct, safe whatever the id", () => {
    expect(ToolOutputPath.sessionKey("ses_a")).toMatch(/^[0-9a-f]{32}$/)
    expect(ToolOutputPath.sessionKey("ses_a")).toBe(ToolOutputPath.sessionKey("ses_a"))
    expect(ToolOutputPath.sessionKey("ses_a")).not.toBe(ToolOutputPath.sessionKey("ses_A"))
    expect(ToolOutputPath.sessionKey("../../etc")).toMatch(/^[0-9a-f]{32}$/)
    expect(OWN).toBe(path.join(ROOT, "prj_a", ToolOutputPath.sessionKey("ses_a")))
  })

  const places: ReadonlyArray<readonly [string, string, ToolOutputPath.Place]> = [
    ["the session's folder", OWN, "own"],
    ["a file in it", path.join(OWN, "tool_1"), "own"],
    ["another session's file", path.join(OTHER, "tool_1"), "other"],
    ["another project's folder", path.join(ROOT, "prj_b"), "other"],
    ["a file of an older layout at the top", path.join(ROOT, "tool_1"), "other"],
    ["tool-output itself", ROOT, "other"],
    ["its own folder in other letter case", OWN.toUpperCase(), "other"],
    ["the data directory", "/data", "above"],
    ["the file system root", "/", "above"],
    ["a sibling with a longer name", "/data/tool-output-evil/tool_1", "outside"],
    ["a folder elsewhere", "/home/ada/project", "outside"],
  ]
  for (const [name, real, expected] of places) it(`places ${name} as ${expected}`, () => expect(ToolOutputPath.place(ROOT, OWN, real)).toBe(expected))

  it("holds tool-output and what is in it, in any letter case, and nothing beside it", () => {
    expect(ToolOutputPath.holds(ROOT, ROOT)).toBe(true)
    expect(ToolOutputPath.holds(ROOT, path.join(OWN, "tool_1"))).toBe(true)
    expect(ToolOutputPath.holds(ROOT, "/DATA/Tool-Output/x")).toBe(true)
    expect(ToolOutputPath.holds(ROOT, "/data/tool-output-evil/x")).toBe(false)
    expect(ToolOutputPath.holds(ROOT, "/data")).toBe(false)
  })

  it("asks nothing for the session's own output and another session's folder, saved as exactly that folder", () => {
    const file = path.join(OTHER, "tool_1")
    expect(ToolOutputPath.external("own", external(path.join(OWN, "tool_1")))).toBeUndefined()
    expect(ToolOutputPath.external("other", external(file))).toEqual({ directory: OTHER, resource: `${OTHER}/*`, save: `${OTHER}/*` })
    expect(ToolOutputPath.external("other", external(ROOT, ROOT))).toEqual({ directory: ROOT, resource: `${ROOT}/*`, save: `${ROOT}/*` })
    expect(ToolOutputPath.external("outside", external("/etc/hosts"))).toEqual(external("/etc/hosts").externalDirectory)
    expect(ToolOutputPath.external("above", { type: "internal", input: ".", real: "/data", resource: "." })).toBeUndefined()
  })

  it.live("asks for another session's output inside the Location too: its folder, or the folder itself", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const folder = path.join(root, "tool-output", "prj_a", "key")
      yield* Effect.promise(() => mkdir(folder, { recursive: true }))
      const inside = (real: string): LocationMutation.Target => ({ type: "internal", input: real, real, resource: path.relative(root, real) })
      expect(ToolOutputPath.external("other", inside(path.join(folder, "tool_1")))).toEqual({ directory: folder, resource: `${folder}/*`, save: `${folder}/*` })
      expect(ToolOutputPath.external("other", inside(folder))).toEqual({ directory: folder, resource: `${folder}/*`, save: `${folder}/*` })
    }))

  it("lists below a root above tool-output everything but other sessions' output, unless its folder is allowed", () => {
    const placeOf = (file: string) => ToolOutputPath.place(ROOT, OWN, file)
    const none = ToolOutputPath.listable(placeOf, () => false)
    expect(none(path.join(OWN, "tool_1"))).toBe(true)
    expect(none("/data/toolgate.db")).toBe(true)
    expect(none(path.join(OTHER, "tool_1"))).toBe(false)
    expect(none(path.join(ROOT, "tool_1"))).toBe(false)
    const allowed = ToolOutputPath.listable(placeOf, (resource) => resource === `${OTHER}/*`)
    expect(allowed(path.join(OTHER, "tool_1"))).toBe(true)
    expect(allowed(path.join(ROOT, "tool_1"))).toBe(false)
  })

  it("names the path it refuses to write", () => {
    expect(ToolOutputPath.Messages.readOnly("/data/tool-output/x")).toBe(
      "Cannot write /data/tool-output/x: saved tool output is read-only (write a copy inside the working directory instead)",
    )
  })

  it.live("finds the real form of a folder that does not exist yet, through a link above it", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* Effect.promise(async () => {
        await mkdir(path.join(root, "real"))
        await symlink(path.join(root, "real"), path.join(root, "link"))
      })
      expect(ToolOutputPath.realForm(path.join(root, "link", "data", "tool-output"))).toBe(path.join(root, "real", "data", "tool-output"))
    }))

  it.live("creates a file exclusively with the mode asked, making its folders private", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const file = path.join(root, "tool-output", "prj_a", "key", "tool_1")
      const handle = yield* Effect.promise(() => ToolOutputPath.create(file, 0o600))
      yield* Effect.promise(() => handle.close())
      expect((yield* Effect.promise(() => stat(file))).mode & 0o777).toBe(0o600)
      for (const folder of [path.dirname(file), path.join(root, "tool-output")]) expect((yield* Effect.promise(() => stat(folder))).mode & 0o777).toBe(ToolOutputPath.FOLDER_MODE)
      const exists = yield* Effect.promise(() => ToolOutputPath.create(file, 0o600).then(() => "created", (error: NodeJS.ErrnoException) => error.code))
      expect(exists).toBe("EEXIST")
    }))
})
