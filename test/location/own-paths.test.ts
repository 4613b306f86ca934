import { mkdir, mkdtemp, symlink } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { OwnPaths } from "../../src/location/own-paths.js"

describe("OwnPaths", () => {
  const sqlite = { dialect: "sqlite" as const, location: "/elsewhere/db/toolgate.db" }
  const sources = [
    { file: "/home/u/.config/toolgate/toolgate.json", scope: "global" as const, state: "found" as const },
    { file: "/home/u/work/toolgate.json", scope: "project" as const, state: "found" as const },
    { file: "/etc/team.json", scope: "explicit" as const, state: "found" as const },
  ]

  it("lists the data folder, the SQLite file's folder, the global config folder and an explicit file, not a project's file", () => {
    expect(OwnPaths.list({ data: "/home/u/.local/share/toolgate", storage: sqlite, sources })).toEqual([
      "/home/u/.local/share/toolgate",
      "/elsewhere/db",
      "/home/u/.config/toolgate",
      "/etc/team.json",
    ])
    expect(OwnPaths.list({ data: "/d", storage: { dialect: "postgres", location: "postgres://db/x" }, sources: [] })).toEqual(["/d"])
  })

  it("holds what is in them in real form, in any case, and nothing beside them", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "own-"))
    await mkdir(path.join(root, "data"))
    await symlink(path.join(root, "data"), path.join(root, "link"))
    const owned = OwnPaths.realForms({ data: path.join(root, "link"), storage: sqlite, sources: [] })
    expect(OwnPaths.holds(owned, path.join(root, "data", "snapshot", "config"))).toBe(true)
    expect(OwnPaths.holds(owned, path.join(root, "DATA", "toolgate.db"))).toBe(true)
    expect(OwnPaths.holds(owned, path.join(root, "data-other", "x"))).toBe(false)
    expect(OwnPaths.holds(owned, path.join(root, "notes.txt"))).toBe(false)
  })

  it("holds the folder of the running code too (here, from source, the repository's src), but does not hide it from a sandbox", () => {
    const src = path.resolve(import.meta.dirname, "..", "..", "src")
    expect(OwnPaths.code()).toBe(src)
    const owned = OwnPaths.realForms({ data: "/nowhere/data", storage: sqlite, sources: [] })
    expect(OwnPaths.holds(owned, path.join(src, "location", "own-paths.ts"))).toBe(true)
    expect(OwnPaths.holds(owned, path.join(path.dirname(src), "test", "x.ts"))).toBe(false)
    expect(OwnPaths.list({ data: "/nowhere/data", storage: sqlite, sources: [] })).toEqual(["/nowhere/data", "/elsewhere/db"])
  })

  it("knows the folders above them, in any case: not the folders themselves, not their neighbours", () => {
    const owned = ["/home/u/.config/toolgate", "/home/u/.local/share/toolgate"]
    for (const above of ["/home/u/.config", "/home/u/.CONFIG", "/home/u", "/home", "/", "/home/u/.local/share"]) expect([above, OwnPaths.above(owned, above)]).toEqual([above, true])
    for (const other of ["/home/u/.config/toolgate", "/home/u/.config/toolgate/toolgate.json", "/home/u/.config/git", "/home/u/.cache", "/home/u/.config-old"]) expect([other, OwnPaths.above(owned, other)]).toEqual([other, false])
  })
})
