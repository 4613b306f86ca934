/**
 * All-or-nothing apply of planned changes (06, beyond OpenCode and Codex). Every folder touched is
 * opened once by descriptor (`FileMutation.openFolder`, making missing ones) and verified to be
 * at its real path; every name is then reached through that descriptor, never the path again.
 * First every new content goes to a temp file (`FileMutation.TEMP_PREFIX`, created exclusively),
 * a moved link as a new link; then, with every folder still in place, the temps are renamed into
 * place and deletes come last; then every folder is checked again. If any step fails or a folder
 * moved, renamed files are restored from the original bytes, mode and owner held in memory (links with
 * their target text), created files and folders are removed, deleted files are written back, and
 * temps are unlinked, all through the same descriptors. The whole commit runs uninterruptibly, so
 * an interruption cannot stop it halfway.
 */
export * as ApplyPatchTransaction from "./transaction.js"

import { close, fchmod, fdatasync, open as openFd, write } from "node:fs"
import { rename, symlink, unlink } from "node:fs/promises"
import path from "node:path"
import { promisify } from "node:util"
import { Effect } from "effect"
import { FileMutation } from "../../../location/file-mutation.js"
import { ReplacedFile } from "../../../location/replaced-file.js"
import type { ApplyPatchPlan } from "./plan.js"

export const Messages = {
  failed: (path: string, detail: string) => `Could not apply the patch: changing ${path} failed (${detail}). No files were changed.`,
  unrestored: (path: string, detail: string, paths: ReadonlyArray<string>) =>
    `Could not apply the patch: changing ${path} failed (${detail}). These files could not be restored: ${paths.join(", ")}.`,
} as const

/** A failed commit, after the rollback. */
export interface Failed {
  readonly path: string
  readonly detail: string
  /** Resources the rollback could not put back; empty when nothing changed. */
  readonly unrestored: ReadonlyArray<string>
}

export const message = (failed: Failed): string =>
  failed.unrestored.length === 0 ? Messages.failed(failed.path, failed.detail) : Messages.unrestored(failed.path, failed.detail, failed.unrestored)

/**
 * How many files are written, renamed or deleted at once. Well above the thread pool's size:
 * with a deep queue the pool's threads never idle between one file's steps (open, write,
 * fdatasync, close), which halved the commit of 200 files against 16.
 */
export const CONCURRENCY = 64

type Change = ApplyPatchPlan.Change

/** What has been done so far, for the rollback. */
interface Journal {
  /** Every folder opened, by real path, in the order opened. */
  readonly folders: Map<string, FileMutation.Folder>
  /** Temp files not yet renamed, as descriptor paths. */
  readonly temps: Map<Change, string>
  readonly renamed: Change[]
  readonly deleted: Change[]
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

const fd = {
  open: promisify(openFd),
  write: promisify(write),
  fchmod: promisify(fchmod),
  fdatasync: promisify(fdatasync),
  close: promisify(close),
}

/**
 * Writes `data` to a new exclusive temp file at `temp`, synced, with `mode` when given. Plain
 * descriptors rather than FileHandle objects: a commit writes hundreds of small files, and the
 * handle's bookkeeping cost more than the writes.
 */
const writeTemp = async (temp: string, data: Uint8Array, mode: number | undefined, owner: ReplacedFile.Owner | undefined) => {
  const descriptor = await fd.open(temp, "wx", FileMutation.NEW_FILE_MODE)
  try {
    for (let written = 0; written < data.byteLength; ) written += (await fd.write(descriptor, data, written, data.byteLength - written)).bytesWritten
    // Owner first: a change of owner clears set-user-ID, which the mode then puts back.
    if (owner !== undefined) await ReplacedFile.keepOwner(descriptor, owner, mode)
    if (mode !== undefined) await fd.fchmod(descriptor, mode & 0o7777)
    await fd.fdatasync(descriptor)
  } finally {
    await fd.close(descriptor)
  }
}

/** Makes `temp` hold `content`: a link with its target text, or a file with its bytes, mode and owner. */
const makeTemp = (temp: string, bytes: Buffer, mode: number | undefined, link: boolean, owner?: ReplacedFile.Owner) =>
  link ? symlink(bytes, temp) : writeTemp(temp, bytes, mode, owner)

/** The folder a change's path is in, and the path's own name. */
const where = (journal: Journal, change: Change) => ({
  folder: journal.folders.get(path.dirname(change.place.real)) as FileMutation.Folder,
  name: path.basename(change.place.real),
})

/** Puts `original` back at the change's path by temp file and rename. */
const restore = async (journal: Journal, change: Change, original: ApplyPatchPlan.Content) => {
  const { folder, name } = where(journal, change)
  const temp = FileMutation.entry(folder, FileMutation.tempName())
  try {
    await makeTemp(temp, original.bytes, original.mode, original.link === true, original.owner)
    await rename(temp, FileMutation.entry(folder, name))
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}

/** Removes the change's path (a file, or a link itself). */
const remove = (journal: Journal, change: Change) => {
  const { folder, name } = where(journal, change)
  return unlink(FileMutation.entry(folder, name))
}

/** Undoes the journal, newest first; returns the resources that could not be put back. */
const rollback = async (journal: Journal): Promise<ReadonlyArray<string>> => {
  const failed: string[] = []
  const attempt = (change: Change, work: () => Promise<unknown>) => work().catch(() => failed.push(change.place.resource))
  for (const temp of journal.temps.values()) await unlink(temp).catch(() => undefined)
  for (const change of journal.deleted.toReversed()) {
    const original = change.original
    if (original !== undefined) await attempt(change, () => restore(journal, change, original))
  }
  for (const change of journal.renamed.toReversed()) {
    const original = change.original
    await attempt(change, () => (original === undefined ? remove(journal, change) : restore(journal, change, original)))
  }
  // Only folders this commit created, deepest first; one still in use (not empty) stays.
  for (const folder of [...journal.folders.values()].toReversed()) FileMutation.removeCreated(folder)
  return failed
}

/** Which change failed, and how. */
interface Failure {
  readonly change: Change
  readonly error: unknown
}

/**
 * Runs `work` on every change, at most `CONCURRENCY` at a time, and waits for all that started;
 * after a failure no new work starts. The first failure in change order, if any.
 */
const each = async (changes: ReadonlyArray<Change>, work: (change: Change) => Promise<unknown>): Promise<Failure | undefined> => {
  const failures: Array<Failure | undefined> = []
  const state = { next: 0, failed: false }
  const worker = async () => {
    while (state.next < changes.length && !state.failed) {
      const index = state.next++
      const change = changes[index] as Change
      await work(change).catch((error: unknown) => {
        failures[index] = { change, error }
        state.failed = true
      })
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, changes.length) }, worker))
  return failures.find((failure) => failure !== undefined)
}

/** The first change in each folder. */
const perFolder = (changes: ReadonlyArray<Change>): ReadonlyArray<Change> => {
  const seen = new Set<string>()
  return changes.filter((change) => {
    const folder = path.dirname(change.place.real)
    return seen.has(folder) ? false : Boolean(seen.add(folder))
  })
}

/**
 * Opens every folder of `changes` (making the missing ones a write needs) one at a time, so that
 * each created folder is recorded exactly once; the first that fails, if any.
 */
const openFolders = (changes: ReadonlyArray<Change>, journal: Journal): Failure | undefined => {
  for (const change of perFolder(changes)) {
    const real = path.dirname(change.place.real)
    const create = changes.some((other) => other.next !== undefined && path.dirname(other.place.real) === real)
    try {
      journal.folders.set(real, FileMutation.openFolder(real, create))
    } catch (error) {
      // A folder that cannot be opened or made fails the change that needs it, like any other step.
      return { change, error }
    }
  }
  return undefined
}

/** The first change in a folder that is no longer where it was opened, if any. */
const displaced = (changes: ReadonlyArray<Change>, journal: Journal): Failure | undefined => {
  const moved = perFolder(changes).find((change) => !FileMutation.inPlace(where(journal, change).folder))
  return moved === undefined ? undefined : { change: moved, error: FileMutation.failure(FileMutation.FOLDER_MOVED) }
}

/** Every step of the commit, in order, recorded in `journal`; the first failure, if any. */
const run = async (changes: ReadonlyArray<Change>, journal: Journal): Promise<Failure | undefined> => {
  const writes = changes.filter((change) => change.next !== undefined)
  const opened = openFolders(changes, journal)
  if (opened !== undefined) return opened
  const written = await each(writes, async (change) => {
    const { folder, name } = where(journal, change)
    // A file this user may not write in place is not replaced by a rename either.
    if (change.original !== undefined && change.original.link !== true) await ReplacedFile.assertWritable(FileMutation.entry(folder, name))
    const temp = FileMutation.entry(folder, FileMutation.tempName())
    journal.temps.set(change, temp)
    return makeTemp(temp, change.next as Buffer, change.mode, change.link === true, change.owner)
  })
  if (written !== undefined) return written
  const before = displaced(changes, journal)
  if (before !== undefined) return before
  const renamed = await each(writes, async (change) => {
    const { folder, name } = where(journal, change)
    await rename(journal.temps.get(change) as string, FileMutation.entry(folder, name))
    journal.temps.delete(change)
    journal.renamed.push(change)
  })
  if (renamed !== undefined) return renamed
  const deleted = await each(
    changes.filter((change) => change.next === undefined),
    async (change) => {
      await remove(journal, change)
      journal.deleted.push(change)
    },
  )
  if (deleted !== undefined) return deleted
  // A folder moved away (maybe outside) between the checks: undo everything in it and elsewhere.
  return displaced(changes, journal)
}

/**
 * Applies `changes` all or nothing; on failure everything done is undone first.
 * @example yield* ApplyPatchTransaction.commit(plan.changes) // undefined, or a Failed
 */
export const commit = (changes: ReadonlyArray<Change>): Effect.Effect<Failed | undefined> =>
  Effect.uninterruptible(
    Effect.promise(async (): Promise<Failed | undefined> => {
      const journal: Journal = { folders: new Map(), temps: new Map(), renamed: [], deleted: [] }
      try {
        const failure = await run(changes, journal)
        if (failure !== undefined) return { path: failure.change.place.resource, detail: code(failure.error), unrestored: await rollback(journal) }
        // Make renames and unlinks durable: fsync each touched folder (best effort).
        await Promise.all([...journal.folders.values()].map(FileMutation.syncFolder))
        return undefined
      } finally {
        for (const folder of journal.folders.values()) FileMutation.closeFolder(folder)
      }
    }),
  )
