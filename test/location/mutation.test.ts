/**
 * Attacks first: every way out of the Location must end in an error or an external target (which
 * the tool must have approved), never in an internal target whose real path is outside.
 */
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LocationMutation } from "../../src/location/mutation.js"
import { tmpdir } from "../lib/tmp.js"

/** A Location `<root>/app` beside `<root>/app-evil` and `<root>/outside`, with a repo root at `<root>/outside`. */
const setup = Effect.gen(function* () {
  const root = yield* tmpdir
  const app = path.join(root, "app")
  yield* Effect.promise(async () => {
    for (const dir of ["app/src/deep/er", "app-evil", "outside/.git", "outside/sub", "home"]) await mkdir(path.join(root, dir), { recursive: true })
    await writeFile(path.join(root, "outside", "secret.txt"), "secret")
    await writeFile(path.join(root, "app", "src", "a.ts"), "a")
    await writeFile(path.join(root, "app", "file.txt"), "f")
  })
  const location = { directory: app, caseInsensitive: false }
  const home = path.join(root, "home")
  const resolve = (input: string, kind: LocationMutation.Kind = "file") => LocationMutation.resolve(location, input, { kind, home })
  const reason = (input: string, kind: LocationMutation.Kind = "file") =>
    resolve(input, kind).pipe(
      Effect.map((target) => target.type),
      Effect.catchTag("LocationMutation.PathError", (error) => Effect.succeed(error.reason)),
    )
  const link = (target: string, at: string) => Effect.promise(() => symlink(target, path.join(app, at)))
  return { root, app, location, home, resolve, reason, link }
})

describe("LocationMutation.resolve", () => {
  it.live("resolves a path inside to its Location-relative resource", () =>
    Effect.gen(function* () {
      const { app, resolve } = yield* setup
      expect(yield* resolve("src/a.ts")).toEqual({ type: "internal", input: "src/a.ts", real: path.join(app, "src/a.ts"), resource: "src/a.ts" })
      expect((yield* resolve(".", "directory")).resource).toBe(".")
      expect((yield* resolve(path.join(app, "src", "new", "b.ts"))).resource).toBe("src/new/b.ts")
      expect((yield* resolve("src/a.ts\n\n")).resource).toBe("src/a.ts")
    }))

  it.live("refuses relative paths that leave the Location lexically", () =>
    Effect.gen(function* () {
      const { reason, resolve } = yield* setup
      for (const input of ["../x", "a/../../x", "src/../../outside/secret.txt", "..", "src/deep/../../../x"]) expect(yield* reason(input)).toBe("relative_escape")
      expect((yield* resolve("../x").pipe(Effect.flip)).message).toBe("Path escapes the working directory: ../x")
    }))

  it.live("treats a sibling sharing the Location's name as a prefix as outside", () =>
    Effect.gen(function* () {
      const { root, reason } = yield* setup
      expect(yield* reason(path.join(root, "app-evil", "x"))).toBe("external")
      expect(LocationMutation.contains(path.join(root, "app"), path.join(root, "app-evil", "x"))).toBe(false)
    }))

  it.live("makes an absolute path outside an external target with its directory and repo-root save", () =>
    Effect.gen(function* () {
      const { root, resolve } = yield* setup
      const target = yield* resolve(path.join(root, "outside", "sub", "new.txt"))
      expect(target).toEqual({
        type: "external",
        input: path.join(root, "outside", "sub", "new.txt"),
        real: path.join(root, "outside", "sub", "new.txt"),
        resource: path.join(root, "outside", "sub", "new.txt"),
        externalDirectory: { directory: path.join(root, "outside", "sub"), resource: `${path.join(root, "outside", "sub")}/*`, save: `${path.join(root, "outside")}/*` },
      })
      const directory = yield* resolve(path.join(root, "app-evil"), "directory")
      expect(directory.type === "external" && directory.externalDirectory.directory).toBe(path.join(root, "app-evil"))
      expect(directory.type === "external" && directory.externalDirectory.save).toBe(`${path.join(root, "app-evil")}/*`)
    }))

  it.live("expands ~ to the home directory, which is outside", () =>
    Effect.gen(function* () {
      const { home, resolve } = yield* setup
      const target = yield* resolve("~/x")
      expect(target.type).toBe("external")
      expect(target.real).toBe(path.join(home, "x"))
    }))

  it.live("refuses a NUL byte", () =>
    Effect.gen(function* () {
      const { resolve } = yield* setup
      expect((yield* resolve("src/a.ts\0.png").pipe(Effect.flip)).message).toBe("Invalid path: contains a NUL byte")
    }))

  it.live("refuses symlinks pointing out at depth 1 and 3, and a symlinked parent of a new file", () =>
    Effect.gen(function* () {
      const { root, reason, link } = yield* setup
      yield* link("/etc", "etc-link")
      yield* link(path.join(root, "outside"), "src/deep/er/out")
      expect(yield* reason("etc-link/passwd")).toBe("location_escape")
      expect(yield* reason("src/deep/er/out/secret.txt")).toBe("location_escape")
      expect(yield* reason("src/deep/er/out/new/dir/file.txt")).toBe("location_escape")
      expect(yield* reason("etc-link", "directory")).toBe("location_escape")
    }))

  it.live("refuses a link to a file outside and a dangling link whose target is outside", () =>
    Effect.gen(function* () {
      const { root, reason, link } = yield* setup
      yield* link(path.join(root, "outside", "secret.txt"), "secret-link")
      yield* link(path.join(root, "outside", "not-yet.txt"), "dangling")
      yield* link("../outside/chain", "chain1")
      yield* Effect.promise(() => symlink(path.join(root, "outside", "gone"), path.join(root, "outside", "chain")))
      expect(yield* reason("secret-link")).toBe("location_escape")
      expect(yield* reason("dangling")).toBe("location_escape")
      expect(yield* reason("chain1")).toBe("location_escape")
    }))

  it.live("follows an internal link to its real target, and a dangling internal link to where it would be", () =>
    Effect.gen(function* () {
      const { app, resolve, link } = yield* setup
      yield* link("src/a.ts", "alias.ts")
      yield* link("src/later.ts", "later-link")
      expect(yield* resolve("alias.ts")).toMatchObject({ type: "internal", real: path.join(app, "src", "a.ts"), resource: "src/a.ts" })
      expect(yield* resolve("later-link")).toMatchObject({ type: "internal", resource: "src/later.ts" })
    }))

  it.live("refuses a link loop and a path through a file", () =>
    Effect.gen(function* () {
      const { reason, link } = yield* setup
      yield* link("loop-b", "loop-a")
      yield* link("loop-a", "loop-b")
      expect(yield* reason("loop-a")).toBe("too_many_links")
      expect(yield* reason("file.txt/child")).toBe("non_directory_ancestor")
    }))

  it.live("handles a 5 000-character path without escaping", () =>
    Effect.gen(function* () {
      const { reason } = yield* setup
      expect(yield* reason(`${"a/".repeat(2_500)}x`)).toBe("too_long")
      expect(yield* reason(`${"a".repeat(5_000)}`)).toBe("too_long")
      expect(yield* reason(`${"../".repeat(1_700)}etc/passwd`)).toBe("relative_escape")
    }))

  it.live("refuses a target that resolves elsewhere when checked again before the write", () =>
    Effect.gen(function* () {
      const { root, app, location, home, resolve, link } = yield* setup
      const options = { kind: "file" as const, home }
      const escaped = yield* resolve("swap/file.txt")
      yield* link(path.join(root, "outside"), "swap")
      expect((yield* LocationMutation.recheck(location, escaped, options).pipe(Effect.flip)).reason).toBe("location_escape")
      const moved = yield* resolve("moved.txt")
      yield* link("src/a.ts", "moved.txt")
      const error = yield* LocationMutation.recheck(location, moved, options).pipe(Effect.flip)
      expect(error.message).toBe(LocationMutation.Messages.changed("moved.txt"))
      expect(yield* LocationMutation.recheck(location, yield* resolve("src/a.ts"), options)).toMatchObject({ real: path.join(app, "src", "a.ts") })
    }))

  it.live("never yields an internal target outside for any payload of the traversal lists", () =>
    Effect.gen(function* () {
      const { app, resolve } = yield* setup
      const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixture", "path-traversal-payloadsallthethings")
      const lists = ["deep_traversal.txt", "directory_traversal.txt", "traversals-8-deep-exotic-encoding.txt"]
      const payloads = yield* Effect.promise(async () =>
        (await Promise.all(lists.map((file) => readFile(path.join(folder, file), "latin1")))).flatMap((text) => text.split(/\r?\n/).filter((line) => line !== "")),
      )
      const decoded = (payload: string) => {
        try {
          return decodeURIComponent(payload)
        } catch {
          return payload
        }
      }
      const inputs = payloads.flatMap((payload) => [payload, decoded(payload), decoded(payload).replaceAll("\\", "/")].map((text) => text.replaceAll("{FILE}", "etc/passwd")))
      expect(inputs.length).toBeGreaterThan(5_000)
      let outcomes = 0
      for (const input of inputs) {
        const target = yield* resolve(input).pipe(Effect.catchTag("LocationMutation.PathError", () => Effect.succeed(undefined)))
        outcomes++
        if (target?.type === "internal") expect(LocationMutation.contains(app, target.real)).toBe(true)
        if (target?.type === "external") expect(LocationMutation.contains(app, target.real)).toBe(false)
      }
      expect(outcomes).toBe(inputs.length)
    }))
})
