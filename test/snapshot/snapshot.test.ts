import { execFileSync, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createHash } from "node:crypto"
import { mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { TreeEntry } from "../../src/snapshot/tree-entry.js"
import { tmpdir } from "../lib/tmp.js"

const setup = (options: { git?: string } = {}) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const location = path.join(root, "project")
    yield* Effect.promise(() => mkdir(location))
    const layer = Snapshot.layer({ dataDir: path.join(root, "data"), projectID: "prj_test", location, ...options })
    const snapshot = yield* Effect.provide(Snapshot.Service, layer)
    const write = (file: string, content: string | Buffer) =>
      Effect.promise(async () => {
        await mkdir(path.dirname(path.join(location, file)), { recursive: true })
        await writeFile(path.join(location, file), content)
      })
    const read = (file: string) => Effect.promise(() => readFile(path.join(location, file), "utf8"))
    const exists = (file: string) => Effect.promise(() => stat(path.join(location, file)).then(() => true, () => false))
    const files = (tree: string) =>
      execFileSync("git", ["--git-dir", snapshot.directory, "ls-tree", "-r", "--name-only", tree], { encoding: "utf8" }).split("\n").filter(Boolean)
    return { root, location, snapshot, write, read, exists, files }
  })

/** Every file under `dir` with the hash of its content, for before/after comparison. */
const fingerprint = async (dir: string): Promise<Array<string>> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)).sort()
  return Promise.all(files.map(async (file) => `${path.relative(dir, file)} ${createHash("sha1").update(await readFile(file)).digest("hex")}`))
}

/** A process that names `directory` in its arguments, as every git toolgate runs does; killed when the test ends. */
const holding = (directory: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", "--", "--git-dir", directory], { stdio: "ignore" })
      await new Promise((resolve) => child.once("spawn", resolve))
      return child
    }),
    (child) => Effect.sync(() => child.kill("SIGKILL")),
  )

/**
 * A snapshot holding `a.txt`, an `index.lock` left in its repository, `b.txt` written since, and
 * a process naming the repository in its arguments, as every git toolgate runs does: the lock may be its.
 */
const locked = Effect.gen(function* () {
  const { snapshot, write, files } = yield* setup()
  yield* write("a.txt", "a\n")
  yield* snapshot.track
  const lockFile = path.join(snapshot.directory, "index.lock")
  yield* Effect.promise(() => writeFile(lockFile, ""))
  yield* write("b.txt", "b\n")
  const holder = yield* holding(snapshot.directory)
  return { snapshot, files, lockFile, holder }
})

describe("Snapshot", () => {
  it.live("tracks a folder that is not a git repository", () =>
    Effect.gen(function* () {
      const { snapshot, write, files } = yield* setup()
      yield* write("a.txt", "a\n")
      yield* write("dir/b.txt", "b\n")
      const tree = yield* snapshot.track
      expect(tree).toMatch(/^[0-9a-f]{40}$/)
      expect(files(tree as string)).toEqual(["a.txt", "dir/b.txt"])
    }))

  it.live("leaves the project's own .git untouched and does not snapshot it", () =>
    Effect.gen(function* () {
      const { location, snapshot, write, files } = yield* setup()
      yield* write("a.txt", "a\n")
      execFileSync("git", ["init", "-q"], { cwd: location })
      execFileSync("git", ["add", "a.txt"], { cwd: location })
      const before = yield* Effect.promise(() => fingerprint(path.join(location, ".git")))
      yield* write("a.txt", "changed\n")
      yield* write("new.txt", "new\n")
      const tree = yield* snapshot.track
      expect(files(tree as string)).toEqual(["a.txt", "new.txt"])
      expect(yield* Effect.promise(() => fingerprint(path.join(location, ".git")))).toEqual(before)
    }))

  it.live("respects .gitignore files and holds untracked files over the size limit by size only", () =>
    Effect.gen(function* () {
      const { snapshot, write, files } = yield* setup()
      yield* write(".gitignore", "*.log\nbuild/\n")
      yield* write("keep.txt", "k\n")
      yield* write("debug.log", "x\n")
      yield* write("build/out.js", "x\n")
      yield* write("sub/.gitignore", "secret\n")
      yield* write("sub/secret", "s\n")
      yield* write("big.bin", Buffer.alloc(3 * 1024 * 1024, 1))
      yield* write("limit.bin", Buffer.alloc(Snapshot.MAX_UNTRACKED_BYTES, 1))
      const tree = yield* snapshot.track
      expect(files(tree as string)).toEqual([".gitignore", "big.bin", "keep.txt", "limit.bin", "sub/.gitignore"])
      const held = yield* snapshot.entries(tree as string, ["big.bin", "limit.bin"])
      expect([held.get("big.bin")?.mode, held.get("limit.bin")?.mode]).toEqual([TreeEntry.SIZE_ONLY, "100644"])
    }))

  it.live("reports added, modified, deleted and binary files with counts and patches", () =>
    Effect.gen(function* () {
      const { snapshot, write, location } = yield* setup()
      yield* write("mod.txt", "one\ntwo\nthree\n")
      yield* write("gone.txt", "bye\n")
      yield* write("image.bin", Buffer.from([0, 1, 2, 3, 0]))
      const from = (yield* snapshot.track) as string
      yield* write("mod.txt", "one\n2\nthree\n")
      yield* Effect.promise(() => import("node:fs/promises").then((fs) => fs.unlink(path.join(location, "gone.txt"))))
      yield* write("new.txt", "hello\nworld\n")
      yield* write("image.bin", Buffer.from([0, 9, 9, 9, 0]))
      const changes = yield* snapshot.diff(from)
      expect(changes.map(({ patch: _, ...rest }) => rest)).toEqual([
        { path: "gone.txt", status: "deleted", additions: 0, deletions: 1 },
        { path: "image.bin", status: "modified", additions: 0, deletions: 0 },
        { path: "mod.txt", status: "modified", additions: 1, deletions: 1 },
        { path: "new.txt", status: "added", additions: 2, deletions: 0 },
      ])
      const mod = changes.find((change) => change.path === "mod.txt")
      expect(mod?.patch.split("\n").slice(2)).toEqual(["--- a/mod.txt", "+++ b/mod.txt", "@@ -1,3 +1,3 @@", " one", "-two", "+2", " three", ""])
      expect(changes.find((change) => change.path === "image.bin")?.patch).toBe("")
      const to = (yield* snapshot.track) as string
      expect((yield* snapshot.diff(from, to)).map((change) => change.path)).toEqual(changes.map((change) => change.path))
    }))

  it.live("restores modified and deleted files and deletes files absent from the tree", () =>
    Effect.gen(function* () {
      const { snapshot, write, read, exists, location } = yield* setup()
      yield* write("mod.txt", "original\n")
      yield* write("dir/gone.txt", "keep me\n")
      const tree = (yield* snapshot.track) as string
      yield* write("mod.txt", "changed\n")
      yield* Effect.promise(() => import("node:fs/promises").then((fs) => fs.rm(path.join(location, "dir"), { recursive: true })))
      yield* write("extra.txt", "new\n")
      yield* snapshot.track
      yield* snapshot.restore(tree, ["mod.txt", path.join(location, "dir/gone.txt"), "extra.txt"])
      expect(yield* read("mod.txt")).toBe("original\n")
      expect(yield* read("dir/gone.txt")).toBe("keep me\n")
      expect(yield* exists("extra.txt")).toBe(false)
      expect(yield* snapshot.track).toBe(tree)
    }))

  it.live("refuses paths that escape the project", () =>
    Effect.gen(function* () {
      const { snapshot, write, root } = yield* setup()
      yield* write("a.txt", "a\n")
      const tree = (yield* snapshot.track) as string
      const outside = path.join(root, "outside.txt")
      for (const file of ["../x", outside, "dir/../../x"]) {
        const error = yield* snapshot.restore(tree, [file]).pipe(Effect.flip)
        expect(error).toBeInstanceOf(Snapshot.PathError)
        expect(error.message).toBe(Snapshot.Messages.escapes(file))
        expect(error.message).toBe(`Path escapes the project: ${file}`)
      }
    }))

  it.live("serialises concurrent tracks, which give the same tree", () =>
    Effect.gen(function* () {
      const { snapshot, write } = yield* setup()
      for (const index of Array.from({ length: 50 }, (_, i) => i)) yield* write(`d${index % 5}/f${index}.txt`, `${index}\n`)
      const [first, second] = yield* Effect.all([snapshot.track, snapshot.track], { concurrency: 2 })
      expect(first).toMatch(/^[0-9a-f]{40}$/)
      expect(second).toBe(first)
    }))

  it.live("clears an index.lock once no process works in the repository, never one a running process may hold", () =>
    Effect.gen(function* () {
      const { snapshot, files, lockFile, holder } = yield* locked
      const refused = yield* Effect.flip(snapshot.track)
      expect(refused.stderr).toContain("index.lock")
      // Gone (killed, as a crash kills git): the lock is abandoned at once.
      holder.kill("SIGKILL")
      yield* Effect.promise(() => new Promise((resolve) => holder.once("exit", resolve)))
      const tree = yield* snapshot.track
      expect(files(tree as string)).toEqual(["a.txt", "b.txt"])
      expect(existsSync(lockFile)).toBe(false)
    }))

  it.live("clears an index.lock older than the stale age, whoever names the repository", () =>
    Effect.gen(function* () {
      const { snapshot, files, lockFile } = yield* locked
      const old = new Date(Date.now() - Snapshot.STALE_LOCK_MS - 1_000)
      yield* Effect.promise(() => utimes(lockFile, old, old))
      const tree = yield* snapshot.track
      expect(files(tree as string)).toEqual(["a.txt", "b.txt"])
    }))

  it.live("yields undefined instead of failing when git is missing", () =>
    Effect.gen(function* () {
      const { snapshot, write } = yield* setup({ git: "toolgate-no-such-git" })
      yield* write("a.txt", "a\n")
      expect(yield* snapshot.track).toBeUndefined()
      expect(yield* snapshot.track).toBeUndefined()
      expect(Snapshot.Messages.gitMissing).toBe("Snapshots need git on PATH")
    }))
})

describe("Snapshot.restore through links", () => {
  it.live("refuses a path that a link leads outside, and deletes nothing there", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const location = path.join(root, "work")
      const outside = path.join(root, "outside")
      yield* Effect.promise(async () => {
        await mkdir(location, { recursive: true })
        await mkdir(outside, { recursive: true })
        await writeFile(path.join(outside, "keep.txt"), "keep")
        await symlink(outside, path.join(location, "out"))
      })
      const snapshot = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ dataDir: path.join(root, "data"), projectID: "prj_links", location }))
      const tree = yield* snapshot.track
      const error = yield* snapshot.restore(tree as string, ["out/keep.txt"]).pipe(Effect.flip)
      expect(error.message).toBe(Snapshot.Messages.escapes("out/keep.txt"))
      expect(yield* Effect.promise(() => readFile(path.join(outside, "keep.txt"), "utf8"))).toBe("keep")
    }))
})

describe("Snapshot exclusions", () => {
  it.live("respects the project's .git/info/exclude", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const location = path.join(root, "work")
      yield* Effect.promise(async () => {
        await mkdir(path.join(location, ".git", "info"), { recursive: true })
        await writeFile(path.join(location, ".git", "info", "exclude"), "*.local\n")
        await writeFile(path.join(location, "kept.txt"), "k")
        await writeFile(path.join(location, "secret.local"), "s")
      })
      const snapshot = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ dataDir: path.join(root, "data"), projectID: "prj_exclude", location }))
      const tree = yield* snapshot.track
      const listed = execFileSync("git", ["--git-dir", snapshot.directory, "ls-tree", "-r", "--name-only", tree as string], { encoding: "utf8" })
      expect(listed).toBe("kept.txt\n")
    }))

  it.live("leaves nested repositories out of the first and later snapshots", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const location = path.join(root, "work")
      yield* Effect.promise(async () => {
        await mkdir(path.join(location, "vendor", "lib"), { recursive: true })
        await writeFile(path.join(location, "main.txt"), "m")
        await writeFile(path.join(location, "vendor", "lib", "x.txt"), "x")
      })
      execFileSync("git", ["init", "-q", path.join(location, "vendor", "lib")])
      execFileSync("git", ["-C", path.join(location, "vendor", "lib"), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "x"])
      const snapshot = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ dataDir: path.join(root, "data"), projectID: "prj_nested", location }))
      const list = (tree: string | undefined) => execFileSync("git", ["--git-dir", snapshot.directory, "ls-tree", "-r", "--name-only", tree as string], { encoding: "utf8" })
      expect(list(yield* snapshot.track)).toBe("main.txt\n")
      yield* Effect.promise(() => writeFile(path.join(location, "second.txt"), "s"))
      expect(list(yield* snapshot.track)).toBe("main.txt\nsecond.txt\n")
    }))
})
