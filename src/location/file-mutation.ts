/**
 * Safe writes. `withLock` serialises mutations of the same real paths within one process (two
 * concurrent edits of one file both apply, in some order); locks are taken in sorted order, so
 * two calls locking overlapping sets cannot deadlock, and are released on interruption.
 * `writeAtomic` never leaves a half-written target: it writes a temp file in the target's real
 * directory (created exclusively, so a planted symlink cannot redirect it), fsyncs it, keeps the
 * old file's mode (a new file gets 0666 less the umask), and renames it over the target; a crash
 * leaves the old or the new content.
 */
export * as FileMutation from "./file-mutation.js"

import { randomBytes } from "node:crypto"
import { chmod, open, rename, stat, unlink } from "node:fs/promises"
import path from "node:path"
import { Context, Effect, Layer, Schema, Semaphore } from "effect"

export const TEMP_PREFIX = ".toolgate-"
export const NEW_FILE_MODE = 0o666

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

/** Writes `data` to `file` atomically (see the module docblock); `mode` defaults to the old file's. */
export const writeAtomic = (file: string, data: string | Uint8Array, mode?: number): Effect.Effect<void, WriteError> =>
  Effect.tryPromise({
    try: async () => {
      const previous = await stat(file).catch(() => undefined)
      // A short temp name: the target's own name may already be near the file system's limit.
      const temp = path.join(path.dirname(file), `${TEMP_PREFIX}${randomBytes(8).toString("hex")}.tmp`)
      // A new file gets NEW_FILE_MODE less the umask, like any file the person creates.
      const handle = await open(temp, "wx", NEW_FILE_MODE)
      try {
        await handle.writeFile(data)
        await handle.sync()
        await handle.close()
        const kept = mode ?? previous?.mode
        if (kept !== undefined) await chmod(temp, kept & 0o7777)
        await rename(temp, file)
      } catch (error) {
        await handle.close().catch(() => undefined)
        await unlink(temp).catch(() => undefined)
        throw error
      }
      // Make the rename durable: fsync the folder. The content is already in place, so a folder
      // that cannot be synced (some file systems refuse) does not turn the write into a failure.
      const directory = await open(path.dirname(file), "r").catch(() => undefined)
      await directory?.sync().catch(() => undefined)
      await directory?.close()
    },
    catch: (error) => new WriteError({ path: file, detail: code(error) }),
  })
