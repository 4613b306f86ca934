import { mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Location } from "../../src/location/location.js"
import { tmpdir } from "../lib/tmp.js"

describe("Location", () => {
  it.live("resolves the directory to its real path through symlinks", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* Effect.promise(() => mkdir(path.join(root, "Real")))
      yield* Effect.promise(() => symlink(path.join(root, "Real"), path.join(root, "link")))
      const location = yield* Effect.provide(Location.Service, Location.layer(path.join(root, "link")))
      expect(location.directory).toBe(path.join(root, "Real"))
    }))

  it.live("refuses a missing directory and a regular file", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* Effect.promise(() => writeFile(path.join(root, "file"), ""))
      expect((yield* Location.resolve(path.join(root, "missing")).pipe(Effect.flip)).message).toBe(Location.Messages.notDirectory(path.join(root, "missing"), "ENOENT"))
      expect((yield* Location.resolve(path.join(root, "file")).pipe(Effect.flip)).message).toBe(Location.Messages.notDirectory(path.join(root, "file"), "ENOTDIR"))
    }))

  it.live("detects a case-sensitive file system by the flipped name not being the same folder", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      yield* Effect.promise(() => mkdir(path.join(root, "Work")))
      expect(yield* Location.detectCaseInsensitive(path.join(root, "Work"))).toBe(false)
      // Where the flipped name exists as another folder, it is still not the same inode.
      yield* Effect.promise(() => mkdir(path.join(root, "wORK")))
      expect(yield* Location.detectCaseInsensitive(path.join(root, "Work"))).toBe(false)
    }))
})
