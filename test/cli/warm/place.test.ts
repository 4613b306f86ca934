/** Where waiting processes listen (cli/warm/place.ts): a folder only the user can enter, and socket paths that fit. */
import { chmod, mkdir, stat, symlink } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WarmPlace } from "../../../src/cli/warm/place.js"
import { tmpdir } from "../../lib/tmp.js"

describe("WarmPlace", () => {
  it.live("makes the folder 0700, closes one left open to others, and refuses a link", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const made = WarmPlace.folder(root, true)
      expect(made).toBe(path.join(root, WarmPlace.FOLDER))
      expect(((yield* Effect.promise(() => stat(made ?? ""))).mode & 0o777).toString(8)).toBe("700")
      yield* Effect.promise(() => chmod(made ?? "", 0o755))
      expect(WarmPlace.folder(root, false)).toBeUndefined()
      expect(WarmPlace.folder(root, true)).toBe(made)
      expect(((yield* Effect.promise(() => stat(made ?? ""))).mode & 0o777).toString(8)).toBe("700")
      const other = path.join(root, "other")
      yield* Effect.promise(async () => {
        await mkdir(path.join(other, "elsewhere"), { recursive: true, mode: 0o700 })
        await symlink(path.join(other, "elsewhere"), path.join(other, WarmPlace.FOLDER))
      })
      expect(WarmPlace.folder(other, true)).toBeUndefined()
    }))

  it("has no socket where its path would not fit in sockaddr_un", () => {
    expect(WarmPlace.socket("/d", "0123456789abcdef")).toBe("/d/0123456789abcdef.sock")
    expect(WarmPlace.socket(`/${"x".repeat(WarmPlace.MAX_PATH)}`, "0123456789abcdef")).toBeUndefined()
  })
})
