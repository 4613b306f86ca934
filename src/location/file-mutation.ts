/**
 * Safe writes. `withLock` serialises mutations of the same real paths within one process (two
 * concurrent edits of one file both apply, in some order); locks are taken in sorted order, so
 * two calls locking overlapping sets cannot deadlock, and are released on interruption.
 * `writeAtomic` never leaves a half-written target: it writes a temp file in the target's real
 * folder (created exclusively, so a planted symlink cannot redirect it), fsyncs it, keeps the old
 * file's mode, owner and group (a new file gets 0666 less the umask; a file this user may not
 * write, or whose owner it cannot keep, is refused: replaced-file.ts), and renames it over the
 * target; a crash leaves the old or the new content. Names are reached through a descriptor of the verified
 * folder (`openFolder`, `entry`), never its path again, so a folder swapped for a link meanwhile
 * cannot redirect them; a folder moved away during the write is caught after the rename and the
 * write undone (`inPlace`). Gotcha: the descriptor paths are Linux's /proc/self/fd; elsewhere
 * names are joined to the folder's path and the recheck before the write is the only guard.
 */
export * as FileMutation from "./file-mutation.js"

import { randomBytes } from "node:crypto"
import { closeSync, constants, existsSync, fsync as fsyncCallback, mkdirSync, openSync, readlinkSync, rmdirSync } from "node:fs"
import { link, lstat, open, rename, unlink } from "node:fs/promises"
import path from "node:path"
import { promisify } from "node:util"
import { Context, Effect, Layer, Schema, Semaphore } from "effect"
import { BytePath } from "./byte-path.js"
import { ReplacedFile } from "./replaced-file.js"

export const TEMP_PREFIX = ".toolgate-"
export const NEW_FILE_MODE = 0o666

/** Why a write failed when its folder did not stay where it was verified (the write was undone). */
export const FOLDER_MOVED = "its folder was moved or replaced during the write, so nothing was written"
/** Why a write failed when its folder moved away and undoing the write failed too. */
export const FOLDER_MOVED_UNDONE_FAILED = "its folder was moved or replaced during the write, and undoing the write failed"

export const Messages = {
  write: (file: string, detail: string) => `Could not write ${file}: ${detail}`,
} as const

export class WriteError extends Schema.TaggedError<WriteError>()("FileMutation.WriteError", { path: Schema.String, detail: Schema.String }) {
  override get message() {
    return Messages.write(this.path, this.detail)
  }
}

export interface Interface {
  readonly withLock: <A, E, R>(paths: ReadonlyArray<string>, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/FileMutation") {}

/** A folder held open by descriptor, verified to be at `real` when opened. */
export interface Folder {
  readonly real: string
  readonly fd: number
  /** Folders made to reach it, outermost first, as descriptor paths (valid while it is open). */
  readonly created: ReadonlyArray<string>
  /** Descriptors of parents kept open for `created`; closed with the folder. */
  readonly held: ReadonlyArray<number>
}

/** Options of `writeAtomic`. */
export interface WriteOptions {
  /** The new file's mode; default the old file's (a new file: 0666 less the umask). */
  readonly mode?: number | undefined
  /** Create missing parent folders (through descriptors, like the file). */
  readonly parents?: boolean | undefined
}

export const layer = Layer.sync(Service, () => {
  const locks = new Map<string, Semaphore.Semaphore>()
  const lockOf = (file: string) => {
    const existing = locks.get(file)
    if (existing !== undefined) return existing
    const made = Semaphore.makeUnsafe(1)
    locks.set(file, made)
    return made
  }
  const withLock = <A, E, R>(paths: ReadonlyArray<string>, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    [...new Set(paths)].sort().reduceRight((inner, file) => Semaphore.withPermits(lockOf(file), 1)(inner), effect)
  return Service.of({ withLock })
})

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

/** Whether a folder's names can be reached through its descriptor (Linux /proc). */
const THROUGH_DESCRIPTOR = existsSync("/proc/self/fd")

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

/**
 * A failure carrying `detail` as its code, like the file system's own errors. Thrown (inside
 * promise code only) so callers report it exactly as they report an errno.
 */
export const failure = (detail: string): NodeJS.ErrnoException => Object.assign(new globalThis.Error(detail), { code: detail })

/**
 * A short temp name: the target's own name may already be near the file system's limit.
 * @example FileMutation.tempName() // ".toolgate-3f2a9c0d1e4b5a67.tmp"
 */
export const tempName = (): string => `${TEMP_PREFIX}${randomBytes(8).toString("hex")}.tmp`

/**
 * The path of `name` inside `folder`, reached through its descriptor.
 * @example await rename(FileMutation.entry(folder, temp), FileMutation.entry(folder, "a.txt"))
 */
export const entry = (folder: Folder, name: string): string => (THROUGH_DESCRIPTOR ? `/proc/self/fd/${folder.fd}/${name}` : path.join(folder.real, name))

const descriptorPath = (fd: number) => {
  try {
    // As bytes: a folder whose name is not UTF-8 is still where it was (byte-path.ts).
    return BytePath.decode(readlinkSync(`/proc/self/fd/${fd}`, { encoding: "buffer" }))
  } catch {
    return undefined
  }
}

/** Whether `folder` is still at its verified real path (where that cannot be known: true). */
export const inPlace = (folder: Folder): boolean => !THROUGH_DESCRIPTOR || descriptorPath(folder.fd) === folder.real

/** Closes the folder and the parents it holds. */
export const closeFolder = (folder: Folder): void => {
  for (const fd of [folder.fd, ...folder.held]) closeSync(fd)
}

/** Removes the folders `folder` made, deepest first; one no longer empty stays. */
export const removeCreated = (folder: Folder): void => {
  for (const made of folder.created.toReversed()) {
    try {
      rmdirSync(BytePath.fs(made))
    } catch {
      // Not empty (something else was put there) or already gone: it stays as it is.
    }
  }
}

/** The descriptor of the folder at `at`, not following a link there; a link in its place is a moved folder. */
const openDirectory = (at: string) => {
  try {
    return openSync(BytePath.fs(at), DIRECTORY_FLAGS)
  } catch (error) {
    if (code(error) === "ELOOP") throw failure(FOLDER_MOVED)
    throw error
  }
}

/** The descriptor of the folder at `real`, or undefined when it is missing and may be made. */
const openExisting = (real: string, create: boolean) => {
  try {
    return openDirectory(real)
  } catch (error) {
    if (create && code(error) === "ENOENT" && path.dirname(real) !== real) return undefined
    throw error
  }
}

/** Makes the folder at `at`; false when it appeared meanwhile (it is then not ours to remove). */
const makeFolder = (at: string) => {
  try {
    mkdirSync(BytePath.fs(at))
    return true
  } catch (error) {
    if (code(error) === "EEXIST") return false
    throw error
  }
}

/** `work()`, or on failure `folder` closed and what it made removed before the error goes on. */
const orRelease = <A>(folder: Folder, work: () => A): A => {
  try {
    return work()
  } catch (error) {
    removeCreated(folder)
    closeFolder(folder)
    throw error
  }
}

/** `folder` if it is where it should be; else it is released and FOLDER_MOVED thrown. */
const verified = (folder: Folder): Folder =>
  orRelease(folder, () => {
    if (!inPlace(folder)) throw failure(FOLDER_MOVED)
    return folder
  })

/**
 * Opens the folder at `real` (a real path, verified again through the descriptor), making it and
 * its missing ancestors when `create`, each inside its parent's descriptor. Synchronous on
 * purpose: a few metadata calls, cheaper than thread-pool round trips (apply_patch opens one per
 * folder). Throws the file system's error, or FOLDER_MOVED when a link or another folder took
 * its place; nothing made stays behind then.
 * @example const folder = FileMutation.openFolder("/work/app/src", true); try { … } finally { FileMutation.closeFolder(folder) }
 */
export const openFolder = (real: string, create: boolean): Folder => {
  const opened = openExisting(real, create)
  if (opened !== undefined) return verified({ real, fd: opened, created: [], held: [] })
  const parent = openFolder(path.dirname(real), true)
  const at = entry(parent, path.basename(real))
  const created = orRelease(parent, () => (makeFolder(at) ? [...parent.created, at] : parent.created))
  const child = orRelease({ ...parent, created }, () => openDirectory(at))
  // The parent stays open only while a folder made in it may have to be removed.
  if (created.length === 0) closeFolder(parent)
  return verified({ real, fd: child, created, held: created.length === 0 ? [] : [...parent.held, parent.fd] })
}

const fsync = promisify(fsyncCallback)

/** Makes renames and unlinks in `folder` durable (best effort: some file systems refuse). */
export const syncFolder = (folder: Folder): Promise<void> => fsync(folder.fd).catch(() => undefined)

/** A second name for `name`'s file, to put it back with; undefined where hard links are refused. */
const keepAside = async (folder: Folder, name: string) => {
  const aside = entry(folder, tempName())
  return link(entry(folder, name), aside).then(
    () => aside,
    () => undefined,
  )
}

/** Writes `data` to a temp file in `folder` and renames it to `name`; see the module docblock. */
const replace = async (folder: Folder, name: string, data: string | Uint8Array, mode: number | undefined) => {
  const target = entry(folder, name)
  const previous = await lstat(target).catch(() => undefined)
  // A file this user may not write is not replaced, though the folder would let a rename do it.
  if (previous?.isFile() === true) await ReplacedFile.assertWritable(target)
  const temp = entry(folder, tempName())
  // A new file gets NEW_FILE_MODE less the umask, like any file the person creates.
  const handle = await open(temp, "wx", NEW_FILE_MODE)
  try {
    await handle.writeFile(data)
    const kept = mode ?? (previous?.isFile() === true ? previous.mode : undefined)
    // Owner first: a change of owner clears set-user-ID, which the mode then puts back.
    if (previous?.isFile() === true) await ReplacedFile.keepOwner(handle.fd, previous, kept)
    if (kept !== undefined) await handle.chmod(kept & 0o7777)
    await handle.sync()
    await handle.close()
    if (!inPlace(folder)) throw failure(FOLDER_MOVED)
  } catch (error) {
    await handle.close().catch(() => undefined)
    await unlink(temp).catch(() => undefined)
    throw error
  }
  const aside = previous?.isFile() === true ? await keepAside(folder, name) : undefined
  await rename(temp, target).catch(async (error: unknown) => {
    await unlink(temp).catch(() => undefined)
    if (aside !== undefined) await unlink(aside).catch(() => undefined)
    throw error
  })
  if (!inPlace(folder)) {
    // The folder went elsewhere (maybe outside) between the checks: put back what was there.
    const undone = await (aside === undefined ? unlink(target) : rename(aside, target)).then(
      () => true,
      () => false,
    )
    throw failure(undone ? FOLDER_MOVED : FOLDER_MOVED_UNDONE_FAILED)
  }
  if (aside !== undefined) await unlink(aside).catch(() => undefined)
  await syncFolder(folder)
}

/**
 * Writes `data` to `file` atomically (see the module docblock), in the folder at `file`'s real
 * parent path; nothing is written when that folder is not where it was resolved.
 * @example yield* FileMutation.writeAtomic(target.real, "text\n", { parents: true })
 */
export const writeAtomic = (file: string, data: string | Uint8Array, options: WriteOptions = {}): Effect.Effect<void, WriteError> =>
  Effect.tryPromise({
    try: async () => {
      const folder = openFolder(path.dirname(file), options.parents === true)
      try {
        await replace(folder, path.basename(file), data, options.mode)
      } catch (error) {
        removeCreated(folder)
        throw error
      } finally {
        closeFolder(folder)
      }
    },
    catch: (error) => new WriteError({ path: file, detail: code(error) }),
  })
