/**
 * Snapshots of a Location in a shadow git repository at `<data dir>/snapshot/<project id>/`,
 * with the Location as its work tree. The project's own `.git` is never read or written (git
 * skips `.git` while walking), so this works in directories that are not repositories too.
 * Invariants: `track` stages only what `diff-files` and `ls-files --others` report, so the
 * shadow index keeps its stat cache and a one-file change costs one small `update-index`;
 * everything that writes the shadow index runs under one lock. `stage` records named paths even
 * when ignored or large (a file tool's own targets); once in the index, `track` follows them.
 * An untracked file over MAX_UNTRACKED_BYTES is held as a stand-in of its size and times
 * (size-only.ts), so a snapshot never calls a file absent that was there; it cannot be restored.
 * A missing git disables snapshots (`track` yields undefined, logged once) instead of failing
 * tool calls.
 */
export * as Snapshot from "./snapshot.js"

import { createHash, randomUUID } from "node:crypto"
import { appendFile, mkdir, readFile, realpath, rm, stat, unlink, writeFile } from "node:fs/promises"
import { realpathSync } from "node:fs"
import path from "node:path"
import { Context, Effect, Layer, Schema, Semaphore } from "effect"
import { BytePath } from "../location/byte-path.js"
import { LocationMutation } from "../location/mutation.js"
import { Git } from "./git.js"
import { LockHolder } from "./lock-holder.js"
import { RestoredMode } from "./restored-mode.js"
import { SizeOnly } from "./size-only.js"
import { TreeEntry } from "./tree-entry.js"
import { WorkTree } from "./work-tree.js"
import { Tracing } from "../tracing.js"

/** Untracked files larger than this are snapshotted by their size and times only (size-only.ts), not their content. */
export const MAX_UNTRACKED_BYTES = 2 * 1024 * 1024
export const DIRECTORY = "snapshot"
/** Written once into the shadow repository's config when it is created. */
export const CONFIG = "[core]\n\tautocrlf = false\n\tquotepath = false\n\tsymlinks = true\n\tuntrackedCache = true\n[gc]\n\tauto = 0\n"

/** At most this many gitignored files a shell snapshot adopts unnamed (`ignored`), the shallowest first. */
export const MAX_IGNORED_FILES = 1000

/**
 * The shadow repository's own attributes (`info/attributes`, which outrank every `.gitattributes`
 * of the work tree): a snapshot holds a file's bytes as they are, and a revert writes them back so.
 * A project's `* text=auto`, `eol=crlf`, `filter=lfs`, `ident` or `working-tree-encoding` made
 * git convert on the way in and out: a person's LF file came back from a revert with CRLF endings.
 */
export const ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding\n"

/**
 * How large a file a shell command names (`rm data.bin`, `mv data.bin x`, `> data.bin`) may be
 * and still be kept by its content before the command runs, though untracked files over
 * MAX_UNTRACKED_BYTES are otherwise held by size only: a named file is what the command is about
 * to delete or overwrite, and only a copy can be put back. Hashing it costs about a second per
 * 100 MiB, once per command that names it while it changed.
 */
export const MAX_NAMED_BYTES = 64 * 1024 * 1024

/** How much, in all, of the large files below a folder a command names is kept by content before it runs (smallest first). */
export const MAX_NAMED_TOTAL_BYTES = 256 * 1024 * 1024

/**
 * How git tells a file changed, pinned over the person's own git config: `core.trustctime=false`,
 * `core.checkStat=minimal` (advised for some network and synced folders) or `core.ignoreStat`
 * made a same-size write that kept the mtime (`cp -p`, `tar x`, `rsync -a`) invisible, so the
 * person's version it replaced was out of every revert.
 */
export const STAT_CHECK = ["-c", "core.trustctime=true", "-c", "core.checkStat=default", "-c", "core.ignoreStat=false"] as const

/** How old a leftover `index.lock` in the shadow repository must be to count as abandoned. */
export const STALE_LOCK_MS = 60_000

export const Messages = {
  gitMissing: "Snapshots need git on PATH",
  escapes: (file: string) => `Path escapes the project: ${file}`,
  inTheWay: (file: string) => `Cannot revert: ${file} is in the way (reverting would remove it, and the session did not write it). Move it away and try again.`,
} as const

export const GitError = Git.GitError
export type GitError = Git.GitError

export class PathError extends Schema.TaggedError<PathError>()("Snapshot.PathError", {
  path: Schema.String,
}) {
  override get message() {
    return Messages.escapes(this.path)
  }
}

/** A restore would remove something it was not asked to: a folder's content, a file or link where a folder goes. */
export class InTheWayError extends Schema.TaggedError<InTheWayError>()("Snapshot.InTheWayError", {
  path: Schema.String,
}) {
  override get message() {
    return Messages.inTheWay(this.path)
  }
}

export type Error = GitError | PathError | InTheWayError

export type Status = "added" | "deleted" | "modified"

export interface FileDiff {
  readonly path: string
  readonly status: Status
  readonly additions: number
  readonly deletions: number
  /** Unified diff with 3 lines of context; empty for binary files. */
  readonly patch: string
}

export interface Options {
  readonly dataDir: string
  readonly projectID: string
  /** The Location (work tree), absolute. */
  readonly location: string
  /** The git executable; `"git"` (from PATH) by default. */
  readonly git?: string
  /**
   * The project's worktree root, absolute. A Location elsewhere in it (a subfolder) stages into
   * its own index (`indexFile`): its paths name other files than the root's.
   */
  readonly worktree?: string
}

export interface Interface {
  /** The shadow repository (its git dir). */
  readonly directory: string
  /** The Location (work tree), absolute. */
  readonly location: string
  /** Stages what changed and returns the tree id; undefined when git is missing. */
  readonly track: Effect.Effect<string | undefined, GitError>
  /**
   * Stages exactly these paths as they are now, even when ignored or over the size limit (a
   * missing one is removed), and returns the tree; paths outside the Location or in a `.git` are skipped.
   */
  readonly stage: (paths: ReadonlyArray<string>) => Effect.Effect<string | undefined, GitError>
  /** As `stage`, except that a file held by its size and times (over the limit, untracked) stays so. */
  readonly follow: (paths: ReadonlyArray<string>) => Effect.Effect<string | undefined, GitError>
  /**
   * As `follow`, except that a path the snapshot does not hold yet is held as `track` holds an
   * untracked file (over the limit, by its size and times): what a shell command names, gitignored or not.
   */
  readonly adopt: (paths: ReadonlyArray<string>) => Effect.Effect<string | undefined, GitError>
  /**
   * What a shell command names, before it runs: as `adopt`, except that a regular file up to
   * MAX_NAMED_BYTES is held by its content, even one held so far by its size, so that a revert
   * can put it back after the command deleted or overwrote it. For a named folder, so are the
   * files below it held by size, up to MAX_NAMED_TOTAL_BYTES in all.
   */
  readonly keep: (paths: ReadonlyArray<string>) => Effect.Effect<string | undefined, GitError>
  /**
   * The gitignored files the snapshot does not hold yet, outside folders ignored as a whole
   * (`node_modules/`, `build/`): `.env`, `*.local`, a stray log. Shallowest first, at most
   * MAX_IGNORED_FILES. What a shell command adopts before and after it runs, named or not.
   */
  readonly ignored: Effect.Effect<ReadonlyArray<string>, GitError>
  /** The state of each of these Location-relative paths in `tree`; absent ones are not in the map. */
  readonly entries: (tree: string, paths: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, TreeEntry.Entry>, GitError>
  /** Every path whose state differs from `from` to `to` (only among `paths` when given). */
  readonly changes: (from: string, to: string, paths?: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TreeEntry.Change>, GitError>
  /** The tree `base` with these paths set to these states (an absent state removes the path). */
  readonly compose: (base: string, states: ReadonlyArray<{ readonly path: string; readonly state?: TreeEntry.Entry }>) => Effect.Effect<string, GitError>
  /** Per-file changes from `from` to `to` (or to the current work tree). */
  readonly diff: (from: string, to?: string) => Effect.Effect<ReadonlyArray<FileDiff>, GitError>
  /**
   * Puts the given Location-relative paths back as they are in `tree`; absent ones are deleted
   * (first, never through a link). Nothing else is removed: what stands in the way fails it.
   */
  readonly restore: (tree: string, paths: ReadonlyArray<string>) => Effect.Effect<void, Error>
  /** Fails as `restore` would before writing anything (`restore` checks again); writes nothing. */
  readonly restorable: (tree: string, paths: ReadonlyArray<string>) => Effect.Effect<void, Error>
  /** The content of a file's object (an `Entry`'s `object`). */
  readonly blob: (object: string) => Effect.Effect<Buffer, GitError>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Snapshot") {}

/** The Location-relative form of `file`, or undefined when it lies outside the Location. */
export const relative = (location: string, file: string): string | undefined => {
  const rel = path.relative(location, path.resolve(location, file))
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined
  return rel === "" ? "." : rel.split(path.sep).join("/")
}

const STATUS: Record<string, Status> = { A: "added", D: "deleted", M: "modified", T: "modified" }

/** Zips `--name-status -z`, `--numstat -z` and the patch text, which git emits in one order. */
export const parseDiff = (names: ReadonlyArray<string>, numstat: ReadonlyArray<string>, patch: string): Array<FileDiff> => {
  const chunks = patch === "" ? [] : patch.split(/^(?=diff --git )/m)
  return Array.from({ length: names.length / 2 }, (_, index) => {
    const [added, deleted] = (numstat[index] ?? "").split("\t")
    const binary = added === "-"
    return {
      path: names[index * 2 + 1] as string,
      status: STATUS[(names[index * 2] as string).charAt(0)] ?? "modified",
      additions: binary ? 0 : Number(added ?? 0),
      deletions: binary ? 0 : Number(deleted ?? 0),
      patch: binary ? "" : (chunks[index] ?? ""),
    }
  })
}

/** A change to a file known by its size only: listed, with no lines to count or show. */
export const sizedDiff = (change: TreeEntry.Change): FileDiff => ({
  path: change.path,
  status: change.before === undefined ? "added" : change.after === undefined ? "deleted" : "modified",
  additions: 0,
  deletions: 0,
  patch: "",
})

/**
 * `realInside` for a name that is not UTF-8, which the path resolver cannot pass to the file
 * system: the nearest folder of `rel` that exists, resolved as bytes through every link, lies
 * inside `realRoot` (the folders below it are made by the restore, so none is a link).
 */
const realFolderInside = (realRoot: string, rel: string): boolean => {
  const folders = rel.split("/").slice(0, -1)
  for (let depth = folders.length; depth >= 0; depth--) {
    const folder = path.join(realRoot, ...folders.slice(0, depth))
    try {
      return LocationMutation.contains(realRoot, BytePath.decode(realpathSync(BytePath.fs(folder), { encoding: "buffer" })))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return false
    }
  }
  return false
}

/** Whether git can hold `rel`: not the Location itself, and no `.git` segment (git refuses those). */
const holdable = (rel: string | undefined): rel is string => rel !== undefined && rel !== "." && !rel.split("/").some((part) => part.toLowerCase() === ".git")

/** The Location-relative forms of the files a snapshot can hold, once each: none outside the Location or in a `.git`. */
export const recordable = (location: string, files: ReadonlyArray<string>): Array<string> => [...new Set(files.map((file) => relative(location, file)).filter(holdable))]

/**
 * The shadow index a Location stages into: `index` for the project's worktree root (or when it is
 * not known), `index-<hash of the Location>` for any other Location of the project. The objects
 * are shared, the index is not: an index entry `a.txt` means `<Location>/a.txt`, and two Locations
 * staging into one index (a session in `sub/` while another runs at the root) made each one's
 * trees hold the other's files: a revert in `sub/` recreated the root's files there.
 * @example Snapshot.indexFile("/data/snapshot/prj_1", "/repo/sub", "/repo") // "/data/snapshot/prj_1/index-3f2a…"
 */
export const indexFile = (directory: string, location: string, worktree?: string): string =>
  worktree === undefined || path.resolve(worktree) === path.resolve(location)
    ? path.join(directory, "index")
    : path.join(directory, `index-${createHash("sha256").update(path.resolve(location)).digest("hex").slice(0, 24)}`)

const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))

export const layer = (options: Options) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const location = path.resolve(options.location)
      const directory = path.join(options.dataDir, DIRECTORY, options.projectID)
      const git = options.git ?? "git"
      const lock = Semaphore.makeUnsafe(1)
      const state = { ready: false, missing: false }
      const index = indexFile(directory, location, options.worktree)
      const base = ["--git-dir", directory, "--work-tree", location, "-c", "core.autocrlf=false", "-c", "core.quotepath=false", ...STAT_CHECK]
      // `env` may name a throwaway index of its own (compose).
      const run = (args: ReadonlyArray<string>, input?: string, env?: Record<string, string>) =>
        Git.run([...base, ...args], { git, cwd: location, env: { GIT_INDEX_FILE: index, ...env }, ...(input === undefined ? {} : { input }) })
      const nul = (paths: ReadonlyArray<string>) => paths.map((file) => `${file}\0`).join("")

      /** Every file the index holds by content, staged again by its bytes. A file it cannot read stays as it was. */
      const renormalized = Effect.gen(function* () {
        const files = Git.indexEntries(yield* run(["ls-files", "-s", "-z", "--debug"])).flatMap((entry) => (entry.mode === "100644" || entry.mode === "100755" ? [entry.path] : []))
        if (files.length === 0) return
        yield* run(["--literal-pathspecs", "add", "--renormalize", "--force", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"], nul(files)).pipe(
          Effect.catchTag("Snapshot.GitError", (error) => (error.stderr.includes(".lock") ? Effect.fail(error) : Effect.void)),
        )
      })

      const init = Effect.fnUntraced(function* () {
        if (state.ready) return
        if (!(yield* exists(path.join(directory, "HEAD")))) {
          yield* Effect.promise(() => mkdir(directory, { recursive: true }))
          yield* Git.run(["init", "--bare", "--quiet", directory], { git, cwd: location })
          yield* Effect.promise(() => appendFile(path.join(directory, "config"), CONFIG))
        }
        const written = yield* Effect.promise(async () => {
          const file = path.join(directory, "info", "attributes")
          if ((await readFile(file, "utf8").catch(() => undefined)) === ATTRIBUTES) return false
          await mkdir(path.dirname(file), { recursive: true })
          await writeFile(file, ATTRIBUTES)
          return true
        })
        // A repository made before the file holds its files as the project's attributes converted
        // them (`eol=crlf` stored LF): they are hashed again once, as they are.
        if (written && (yield* exists(index))) yield* renormalized
        state.ready = true
      })

      /** The project's own `.git/info/exclude` applies to snapshots too, as the shadow's exclude file. */
      const syncExclude = Effect.promise(async () => {
        const rules = await readFile(path.join(location, ".git", "info", "exclude"), "utf8").catch(() => undefined)
        if (rules === undefined) return
        const target = path.join(directory, "info", "exclude")
        if ((await readFile(target, "utf8").catch(() => undefined)) === rules) return
        await mkdir(path.dirname(target), { recursive: true })
        await writeFile(target, rules)
      })

      /**
       * Writes what `SizeOnly.place` decided into the shadow index. `--replace`: a file below a
       * stand-in's path (a folder now stands there, which git takes for the stand-in's repository)
       * takes the stand-in's place instead of failing the whole stage.
       */
      const apply = Effect.fnUntraced(function* (placed: SizeOnly.Placed, staged: ReadonlyArray<string> = []) {
        const paths = [...staged, ...placed.staged]
        if (paths.length > 0) yield* run(["update-index", "--add", "--remove", "--replace", "-z", "--stdin"], nul(paths))
        if (placed.folders.length > 0) yield* run(["update-index", "--force-remove", "-z", "--stdin"], nul(placed.folders))
        if (placed.large.length > 0) yield* run(["update-index", "-z", "--index-info"], placed.large.map((entry) => TreeEntry.indexInfo(entry.path, entry.state)).join(""))
      })

      /**
       * The first track has no stat cache to reuse: one `add --all` walks and hashes like plain git
       * (one walk, not two); then any file over the untracked limit is put back as its stand-in.
       */
      const firstStage = Effect.fnUntraced(function* () {
        // `--ignore-errors`: a file git may not read is left out, not the whole snapshot (below).
        const whole = yield* run(["add", "--all", "--ignore-errors", "--", "."]).pipe(
          Effect.as(true),
          Effect.catchTag("Snapshot.GitError", (error) => (error.stderr.includes(".lock") ? Effect.fail(error) : Effect.succeed(false))),
        )
        // The index's own stat data names each entry's size and mode: no object is read again.
        const entries = Git.indexEntries(yield* run(["ls-files", "-s", "-z", "--debug"]))
        // Nested repositories (added as links to their commits) are not ours to snapshot.
        const nested = entries.flatMap((entry) => (entry.mode === TreeEntry.SIZE_ONLY ? [entry.path] : []))
        if (nested.length > 0) yield* run(["update-index", "--force-remove", "-z", "--stdin"], nul(nested))
        // What the walk left out (a file git may not read): held by a stand-in. A second walk, only then.
        const left = whole ? [] : Git.splitZ(yield* run(["ls-files", "--others", "--exclude-standard", "-z"])).filter((file) => !file.endsWith("/"))
        if (left.length > 0) yield* apply(SizeOnly.place(location, left, MAX_UNTRACKED_BYTES))
        const large = entries.flatMap((entry) => (entry.size > MAX_UNTRACKED_BYTES && entry.mode !== TreeEntry.SIZE_ONLY ? [entry.path] : []))
        yield* apply(SizeOnly.place(location, large, MAX_UNTRACKED_BYTES))
        return (yield* run(["write-tree"])).toString("utf8").trim()
      })

      const stage = Effect.fnUntraced(function* () {
        yield* init()
        yield* syncExclude
        if (!(yield* exists(index))) return yield* firstStage()
        const [changed, others] = yield* Effect.all([run(["diff-files", "-z"]), run(["ls-files", "--others", "--exclude-standard", "-z"])], { concurrency: 2 })
        // diff-files names every stand-in (a gitlink where a file is): each is looked at again by size.
        const files = TreeEntry.parseRaw(changed)
        const held = files.flatMap((file) => (TreeEntry.sizeOnly(file.before) ? [] : [file.path]))
        const before = new Map(files.flatMap((file) => (TreeEntry.sizeOnly(file.before) ? [[file.path, file.before?.object] as const] : [])))
        // Nested repositories show up as `dir/`; they are not ours to snapshot.
        const untracked = Git.splitZ(others).filter((file) => !file.endsWith("/"))
        const placed = SizeOnly.place(location, [...before.keys(), ...untracked], MAX_UNTRACKED_BYTES)
        // A held file whose folder became a link is gone: git refuses to stage it, and the whole stage with it.
        const beyond = held.filter((rel) => rel.includes("/") && SizeOnly.beyondFolder(location, rel))
        const gone = new Set(beyond)
        const present = gone.size === 0 ? held : held.filter((rel) => !gone.has(rel))
        // A held file toolgate may no longer read (made mode 000, or 600 by another user) becomes a stand-in.
        const locked = SizeOnly.unreadable(location, present)
        const shut = new Set(locked.map((entry) => entry.path))
        const kept = shut.size === 0 ? present : present.filter((rel) => !shut.has(rel))
        const large = [...placed.large.filter((entry) => before.get(entry.path) !== entry.state.object), ...locked]
        yield* apply({ ...placed, folders: [...placed.folders, ...beyond], large }, kept)
        return (yield* run(["write-tree"])).toString("utf8").trim()
      })

      /**
       * A git killed while it staged or checked out (with the process that ran it, or alone)
       * leaves `index.lock` behind, and every later track would fail on it. It is abandoned when
       * no running process names the repository (lock-holder.ts), or, where that cannot be told,
       * once it is older than STALE_LOCK_MS (ours are serialised by `lock`; another process's take
       * seconds); then it is removed and staging retried.
       */
      const staleLockCleared = Effect.promise(async () => {
        const file = `${index}.lock`
        const info = await stat(file).catch(() => undefined)
        if (info === undefined) return false
        const abandoned = Date.now() - info.mtimeMs >= STALE_LOCK_MS || LockHolder.running(directory) === false
        return abandoned && unlink(file).then(() => true, () => false)
      })

      /**
       * Puts `paths` into the index as they are on disk: a directory where a file was counts as
       * absent. `exact`: every file by its content (a file tool's own targets). `follow`: one held
       * by a stand-in stays so while it is over the limit. `adopt`: also one not held yet is held
       * as an untracked file is (a shell command's named paths). `named`: a file up to
       * MAX_NAMED_BYTES by its content, a larger one by its size (before a command that names it).
       */
      const forced = Effect.fnUntraced(function* (paths: ReadonlyArray<string>, mode: "exact" | "follow" | "adopt" | "named") {
        yield* init()
        if (!(yield* exists(index))) yield* firstStage()
        const rels = recordable(location, paths)
        if (rels.length === 0) return (yield* run(["write-tree"])).toString("utf8").trim()
        if (mode === "named") {
          // A named folder (`rm -rf data`): the large files held by size below it are kept too.
          const folders = rels.filter((rel) => SizeOnly.isFolder(path.join(location, ...rel.split("/"))))
          const below = folders.length === 0 ? [] : SizeOnly.held(yield* run(["ls-files", "-s", "-z", "--", ...BytePath.pathspecs(folders)]))
          const large = below.flatMap((entry) => (entry.standIn && BytePath.within(folders)(entry.path) ? [entry.path] : []))
          yield* apply(SizeOnly.place(location, [...rels, ...SizeOnly.budget(location, large, MAX_NAMED_TOTAL_BYTES)], MAX_NAMED_BYTES))
          return (yield* run(["write-tree"])).toString("utf8").trim()
        }
        const held = mode === "exact" ? [] : SizeOnly.held(yield* run(["ls-files", "-s", "-z", "--", ...BytePath.pathspecs(rels)])).filter((entry) => BytePath.within(rels)(entry.path))
        const stood = new Set(held.flatMap((entry) => (entry.standIn ? [entry.path] : [])))
        const known = new Set(held.map((entry) => entry.path))
        const bySize = (rel: string) => stood.has(rel) || (mode === "adopt" && !known.has(rel))
        const exact = SizeOnly.place(location, rels.filter((rel) => !bySize(rel)), Number.MAX_SAFE_INTEGER)
        const sized = SizeOnly.place(location, rels.filter(bySize), MAX_UNTRACKED_BYTES)
        yield* apply({ staged: [...exact.staged, ...sized.staged], folders: [...exact.folders, ...sized.folders], large: sized.large })
        return (yield* run(["write-tree"])).toString("utf8").trim()
      })

      const retried = <A>(effect: Effect.Effect<A, GitError | Git.MissingError>) =>
        effect.pipe(
          Effect.catchTag("Snapshot.GitError", (error) =>
            error.stderr.includes(`${path.basename(index)}.lock`) ? Effect.flatMap(staleLockCleared, (cleared) => (cleared ? effect : Effect.fail(error))) : Effect.fail(error),
          ),
        )

      /** Under the lock; undefined (logged once) when git is missing. */
      const guarded = (name: string, effect: Effect.Effect<string, GitError | Git.MissingError>) =>
        Effect.gen(function* () {
          if (state.missing) return undefined
          return yield* lock.withPermits(1)(retried(effect)).pipe(
            Effect.catchTag("Snapshot.GitMissingError", () =>
              Effect.gen(function* () {
                if (!state.missing) yield* Effect.logWarning(Messages.gitMissing)
                state.missing = true
                return undefined
              }),
            ),
          )
        }).pipe(Effect.withSpan(name))

      const track = guarded("Snapshot.track", stage())
      const stagePaths = (paths: ReadonlyArray<string>) => guarded("Snapshot.stage", forced(paths, "exact"))
      const follow = (paths: ReadonlyArray<string>) => guarded("Snapshot.follow", forced(paths, "follow"))
      const adopt = (paths: ReadonlyArray<string>) => guarded("Snapshot.adopt", forced(paths, "adopt"))
      const keep = (paths: ReadonlyArray<string>) => guarded("Snapshot.keep", forced(paths, "named"))

      const gitError = (error: Git.MissingError) => new Git.GitError({ args: [], stderr: error.message })
      /** Reads never disable snapshots: a git gone missing since is a plain failure. */
      const read = (args: ReadonlyArray<string>, input?: string, env?: Record<string, string>) =>
        run(args, input, env).pipe(Effect.catchTag("Snapshot.GitMissingError", (error) => Effect.fail(gitError(error))))

      const ignored = Effect.gen(function* () {
        if (state.missing || !(yield* exists(path.join(directory, "HEAD")))) return []
        // `--directory`: a folder ignored as a whole is one `dir/` entry, never walked.
        const listed = Git.splitZ(yield* read(["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"]))
        const files = listed.filter((file) => !file.endsWith("/") && holdable(file))
        const depth = (file: string) => file.split("/").length
        return files.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_IGNORED_FILES)
      }).pipe(Effect.withSpan("Snapshot.ignored"))

      const entries = Tracing.fn("Snapshot.entries")(function* (tree: string, paths: ReadonlyArray<string>) {
        if (paths.length === 0) return new Map<string, TreeEntry.Entry>()
        const wanted = BytePath.within(paths)
        return new Map([...TreeEntry.parseTree(yield* read(["ls-tree", "-r", "-z", "--full-tree", tree, "--", ...BytePath.pathspecs(paths)]))].filter(([name]) => wanted(name)))
      })

      const changes = Tracing.fn("Snapshot.changes")(function* (from: string, to: string, paths?: ReadonlyArray<string>) {
        if (paths?.length === 0) return []
        const listed = TreeEntry.parseRaw(yield* read(["diff-tree", "-r", "-z", "--no-abbrev", "--no-renames", from, to, "--", ...BytePath.pathspecs(paths ?? [])]))
        if (paths === undefined) return listed
        const wanted = BytePath.within(paths)
        return listed.filter((change) => wanted(change.path))
      })

      /** In a throwaway index, so the shadow index and its stat cache stay as they are. */
      const compose = Tracing.fn("Snapshot.compose")(function* (tree: string, states: ReadonlyArray<{ readonly path: string; readonly state?: TreeEntry.Entry }>) {
        const env = { GIT_INDEX_FILE: path.join(directory, `index-compose-${randomUUID()}`) }
        return yield* Effect.gen(function* () {
          yield* read(["read-tree", tree], undefined, env)
          if (states.length > 0) yield* read(["update-index", "-z", "--index-info"], states.map((entry) => TreeEntry.indexInfo(entry.path, entry.state)).join(""), env)
          return (yield* read(["write-tree"], undefined, env)).toString("utf8").trim()
        }).pipe(Effect.ensuring(Effect.promise(() => rm(env.GIT_INDEX_FILE, { force: true }))))
      })

      const textDiff = Effect.fnUntraced(function* (range: ReadonlyArray<string>) {
        const common = ["--literal-pathspecs", "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U3"]
        const [names, numstat, patch] = yield* Effect.all(
          [read([...common, "--name-status", "-z", ...range]), read([...common, "--numstat", "-z", ...range]), read([...common, ...range])],
          { concurrency: 3 },
        )
        return parseDiff(Git.splitZ(names), Git.splitZ(numstat), patch.toString("utf8"))
      })

      /** A stand-in has no content to compare: its path is listed without lines, and git compares the rest. */
      const diff = Tracing.fn("Snapshot.diff")(function* (from: string, to?: string) {
        const target = to ?? (yield* track)
        if (target === undefined) return yield* textDiff([from])
        const sized = (yield* changes(from, target)).filter((change) => TreeEntry.sizeOnly(change.before) || TreeEntry.sizeOnly(change.after))
        if (sized.length === 0) return yield* textDiff([from, target])
        const base = yield* compose(from, sized.map((change) => (change.after === undefined ? { path: change.path } : { path: change.path, state: change.after })))
        return [...(yield* textDiff([base, target])), ...sized.map(sizedDiff)].sort((a, b) => (a.path < b.path ? -1 : 1))
      })

      /**
       * Whether the entry `rel` lies inside the Location through every link of its folders. Its own
       * last component is not followed: a checkout replaces a link there and a delete removes the
       * link, neither writes through it (so a link the session made to outside can be reverted).
       */
      const realInside = async (root: string, rel: string) => {
        const realRoot = await realpath(root)
        if (BytePath.hasEscapes(rel)) return realFolderInside(realRoot, rel)
        const target = await Effect.runPromise(Effect.result(LocationMutation.resolve({ directory: realRoot, caseInsensitive: false }, rel, { kind: "entry", home: realRoot })))
        return target._tag === "Success" && target.success.type === "internal"
      }

      /** The Location-relative form of each path, or the PathError of the first a restore may not touch. */
      const checked = Effect.fnUntraced(function* (paths: ReadonlyArray<string>, replaced: ReadonlySet<string> = new Set()) {
        const relatives: Array<string> = []
        for (const file of paths) {
          const rel = relative(location, file)
          if (rel === undefined) return yield* new PathError({ path: file })
          // Lexically inside is not enough: a folder swapped for a link must not lead a delete or a
          // checkout outside. The real path of its folder has to be inside the Location too. A
          // folder on the way that the restore itself replaces (a link the session put where a
          // folder was) is checked instead, unfollowed: the delete of the link runs first, and what
          // lies below it is then made by the checkout.
          const own = rel.split("/").slice(0, -1).map((_, index, parts) => parts.slice(0, index + 1).join("/")).find((folder) => replaced.has(folder))
          const real = yield* Effect.promise(() => realInside(location, own ?? rel))
          if (!real) return yield* new PathError({ path: file })
          relatives.push(rel)
        }
        return relatives
      })

      /** The paths checked, split into those `tree` holds (checked out) and those it does not (deleted). */
      const split = Effect.fnUntraced(function* (tree: string, paths: ReadonlyArray<string>) {
        const lexical = paths.flatMap((file) => relative(location, file) ?? [])
        const wanted = BytePath.within(lexical)
        const listed = lexical.length === 0 ? new Map<string, TreeEntry.Entry>() : new Map([...TreeEntry.parseTree(yield* read(["ls-tree", "-r", "-z", tree, "--", ...BytePath.pathspecs(lexical)]))].filter(([name]) => wanted(name)))
        // The named paths the tree does not hold are deleted first: below one of them, the checkout makes every folder.
        const relatives = yield* checked(paths, new Set(lexical.filter((rel) => !listed.has(rel))))
        if (relatives.length === 0) return { present: [], absent: [] }
        // A checkout of a stand-in would put an empty folder where the file was: no plan asks for one.
        const standIn = [...listed].find(([, entry]) => TreeEntry.sizeOnly(entry))
        if (standIn !== undefined) return yield* Effect.die(new Error(`A stand-in cannot be restored: ${standIn[0]}`))
        // A path is checked out only when the tree holds that very path: a plan names files, and
        // `d` deleted to make room for `d/one` (a file that had replaced a folder) is absent even
        // though the tree holds names below it.
        const present = relatives.filter((rel) => rel === "." || listed.has(rel))
        const absent = relatives.filter((rel) => !present.includes(rel))
        const blocked = yield* Effect.sync(() => WorkTree.inTheWay(location, present, absent))
        if (blocked !== undefined) return yield* new InTheWayError({ path: blocked })
        return { present, absent }
      })

      const restorable = (tree: string, paths: ReadonlyArray<string>) => Effect.asVoid(split(tree, paths))

      const removeAll = (absent: ReadonlyArray<string>) =>
        Effect.forEach(WorkTree.deepestFirst(absent), (rel) =>
          Effect.try({ try: () => WorkTree.remove(location, rel), catch: () => new PathError({ path: rel }) }),
        )

      const restore = Tracing.fn("Snapshot.restore")(function* (tree: string, paths: ReadonlyArray<string>) {
        yield* lock.withPermits(1)(
          Effect.gen(function* () {
            yield* init()
            const { present, absent } = yield* split(tree, paths)
            // Deletes first: a checkout may turn a folder on a deleted path's way back into a link.
            yield* removeAll(absent)
            // The names on stdin, byte for byte: a glob through argv could check out more than asked.
            if (present.length === 0) return
            // git writes a new file of its own mode and owner: the person's are given back after.
            const kept = RestoredMode.take(location, present)
            yield* run(["--literal-pathspecs", "checkout", tree, "--pathspec-from-file=-", "--pathspec-file-nul"], nul(present))
            RestoredMode.give(location, kept)
          }),
        ).pipe(Effect.catchTag("Snapshot.GitMissingError", (error) => Effect.fail(gitError(error))))
      })

      const blob = (object: string) => read(["cat-file", "blob", object])

      return Service.of({ directory, location, track, stage: stagePaths, follow, adopt, keep, ignored, entries, changes, compose, diff, restore, restorable, blob })
    }),
  )
