import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { SqliteAddon } from "../../src/storage/sqlite-addon.js"

describe("SqliteAddon.locate", () => {
  it("finds the addon npm built inside the better-sqlite3 package, once per process", () => {
    const addon = SqliteAddon.locate()
    expect(addon).toBeDefined()
    expect(existsSync(addon as string)).toBe(true)
    expect(path.basename(addon as string)).toBe("better_sqlite3.node")
    expect((addon as string).split(path.sep)).toContain("better-sqlite3")
    expect(SqliteAddon.locate()).toBe(addon)
  })
})
