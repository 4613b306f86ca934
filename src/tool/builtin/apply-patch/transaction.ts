/**
 * All-or-nothing apply of planned changes (06, beyond OpenCode and Codex). First every new
 * content goes to a temp file (`FileMutation.TEMP_PREFIX`, created exclusively) in its target's
 * real directory, creating missing parent folders; then the temps are renamed into place; deletes
 * come last. If any step fails, renamed files are restored from the original bytes and mode held
 * in memory, created files and folders are removed, deleted files are written back, and temps
 * are unlinked. The whole commit runs uninterruptibly, so an interruption cannot stop it halfway.
 */
export * as ApplyPatchTransaction from "./transaction.js"

import { randomBytes } from "node:crypto"
import { close, fchmod, fdatasync, open as openFd, write } from "node:fs"
import { lstat, mkdir, open, rename, rmdir, unlink } from "node:fs/promises"
import path from "node:path"
import { promisify } from "node:util"
import { Effect } from "effect"
import { FileMutation } from "../../../location/file-mutation.js"
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
  readonly folders: string[]
  readonly temps: Map<Change, string>
  readonly renamed: Change[]
  readonly deleted: Change[]
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

const tempIn = (folder: string) => path.join(folder, `${FileMutation.TEMP_PREFIX}${randomBytes(8).toString("hex")}.tmp`)

/** Creates `folder` and its missing ancestors; returns the folders created, outermost first. */
const makeFolders = async (folder: string): Promise<ReadonlyArray<string>> => {
  const missing: string[] = []
  for (let at = folder; ; at = path.dirname(at)) {
    const exists = await lstat(at).then(() => true, (error: unknown) => (code(error) === "ENOENT" ? false : Promise.reject(error)))
    if (exists || path.dirname(at) === at) break
    missing.unshift(at)
  }
  if (missing.length > 0) await mkdir(folder, { recursive: true })
  return missing
}

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
const writeTemp = async (temp: string, data: Uint8Array, mode: number | undefined) => {
  const descriptor = await fd.open(temp, "wx", FileMutation.NEW_FILE_MODE)
  try {
    for (let written = 0; written < data.byteLength; ) written += (await fd.write(descriptor, data, written, data.byteLength - written)).bytesWritten
    if (mode !== undefined) await fd.fchmod(descriptor, mode & 0o7777)
    await fd.fdatasync(descriptor)
  } finally {
    await fd.close(descriptor)
  }
}

/** Puts `bytes` back at `file` by temp file and rename. */
const restore = async (file: string, bytes: Uint8Array, mode: number) => {
  const temp = tempIn(path.dirname(file))
  try {
    await writeTemp(temp, bytes, mode)
    await rename(temp, file)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}

/** Undoes the journal, newest first; returns the resources that could not be put back. */
const rollback = async (journal: Journal): Promise<ReadonlyArray<string>> => {
  const failed: string[] = []
  const attempt = (change: Change, work: () => Promise<unknown>) => work().catch(() => failed.push(change.place.resource))
  for (const temp of journal.temps.values()) await unlink(temp).catch(() => undefined)
  for (const change of journal.deleted.toReversed()) {
    const original = change.original
    if (original !== undefined) await attempt(change, () => restore(change.place.real, original.bytes, original.mode))
  }
  for (const change of journal.renamed.toReversed()) {
    const original = change.original
    await attempt(change, () => (original === undefined ? unlink(change.place.real) : restore(change.place.real, original.bytes, original.mode)))
  }
  // Only folders this commit created, deepest first; one still in use (not empty) stays.
  for (const folder of journal.folders.toReversed()) await rmdir(folder).catch(() => undefined)
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

/** Makes renames and unlinks durable: fsync each touched folder (best effort). */
const syncFolders = (changes: ReadonlyArray<Change>) =>
  each(perFolder(changes), async (change) => {
      const handle = await open(path.dirname(change.place.real), "r").catch(() => undefined)
      await handle?.sync().catch(() => undefined)
      await handle?.close()
  })

/** Every step of the commit, in order, recorded in `journal`; the first failure, if any. */
const run = async (changes: ReadonlyArray<Change>, journal: Journal): Promise<Failure | undefined> => {
  const writes = changes.filter((change) => change.next !== undefined)
  // Folders one at a time, so that each created folder is recorded exactly once.
  for (const change of perFolder(writes)) {
    try {
      journal.folders.push(...(await makeFolders(path.dirname(change.place.real))))
    } catch (error) {
      // A folder that cannot be made fails the change that needs it, like any other step.
      return { change, error }
    }
  }
  const written = await each(writes, (change) => {
    const temp = tempIn(path.dirname(change.place.real))
    journal.temps.set(change, temp)
    return writeTemp(temp, change.next as Buffer, change.mode)
  })
  if (written !== undefined) return written
  const renamed = await each(writes, async (change) => {
    await rename(journal.temps.get(change) as string, change.place.real)
    journal.temps.delete(change)
    journal.renamed.push(change)
  })
  if (renamed !== undefined) return renamed
  return each(
    changes.filter((change) => change.next === undefined),
    async (change) => {
      await unlink(change.place.real)
      journal.deleted.push(change)
    },
  )
}

/**
 * Applies `changes` all or nothing; on failure everything done is undone first.
 * @example yield* ApplyPatchTransaction.commit(plan.changes) // undefined, or a Failed
 */
export const commit = (changes: ReadonlyArray<Change>): Effect.Effect<Failed | undefined> =>
  Effect.uninterruptible(
    Effect.promise(async (): Promise<Failed | undefined> => {
      const journal: Journal = { folders: [], temps: new Map(), renamed: [], deleted: [] }
      const failure = await run(changes, journal)
      if (failure !== undefined) return { path: failure.change.place.resource, detail: code(failure.error), unrestored: await rollback(journal) }
      await syncFolders(changes)
      return undefined
    }),
  )
