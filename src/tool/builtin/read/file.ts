/**
 * Opening an approved `read` target and reading its bytes. The target is opened once, without
 * following a symbolic link swapped in after resolution (O_NOFOLLOW: the change is reported, not
 * followed) and without blocking on a FIFO (O_NONBLOCK), then classified by `fstat` on that same
 * handle, so what is read is exactly what was classified. A missing path is an answer, not an error.
 */
export * as ReadFile from "./file.js"

import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from "node:fs"
import { type FileHandle, open as openFile, readlink } from "node:fs/promises"
import type { ReplacedFile } from "../../../location/replaced-file.js"

/** Files up to this size may be read whole and synchronously (`readSmall`). */
export const SMALL_FILE_BYTES = 1024 * 1024

export type Opened =
  | { readonly type: "file"; readonly handle: FileHandle; readonly size: number; readonly links: number }
  | { readonly type: "moved" }
  | { readonly type: "directory" }
  | { readonly type: "other" }
  | { readonly type: "missing" }

/** Never follow a link swapped in after resolution; never block on a FIFO. */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0)

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code

/**
 * Whether the open handle is the file at `real`. O_NOFOLLOW guards only the last component; a
 * parent folder swapped for a link between resolution and open is caught here, where the system
 * says which file the descriptor really is (Linux /proc; elsewhere the recheck before is the guard).
 */
const opensAt = async (handle: FileHandle, real: string): Promise<boolean> => {
  const actual = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
  return actual === undefined || actual === real
}

/**
 * Opens a resolved target and classifies it by `fstat` on the open handle.
 * @example const opened = await ReadFile.open(target.real); if (opened.type === "file") await opened.handle.close()
 */
export const open = async (real: string): Promise<Opened> => {
  try {
    const handle = await openFile(real, OPEN_FLAGS)
    const stats = await handle.stat().catch(async (error: unknown) => {
      await handle.close()
      throw error
    })
    if (stats.isFile() && !(await opensAt(handle, real))) {
      await handle.close()
      return { type: "moved" }
    }
    if (stats.isFile()) return { type: "file", handle, size: stats.size, links: stats.nlink }
    await handle.close()
    return stats.isDirectory() ? { type: "directory" } : { type: "other" }
  } catch (error) {
    // open(2) reports these only by failing; they are answers, not errors.
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return { type: "missing" }
    if (codeOf(error) === "EISDIR") return { type: "directory" }
    // A socket cannot be opened at all (ENXIO): it is not a file.
    if (codeOf(error) === "ENXIO" || codeOf(error) === "ENODEV") return { type: "other" }
    throw error
  }
}

/** Every byte of a file of `size` bytes (a short read ends it early). */
export const readAll = async (handle: FileHandle, size: number): Promise<Buffer> => {
  const buffer = Buffer.allocUnsafe(size)
  const state = { filled: 0 }
  while (state.filled < size) {
    const { bytesRead } = await handle.read(buffer, state.filled, size - state.filled, state.filled)
    if (bytesRead === 0) break
    state.filled += bytesRead
  }
  return buffer.subarray(0, state.filled)
}


/** What `readSmall` found: like `Opened`, with a file's bytes, mode, link count and owner already read. */
export type Small =
  | { readonly type: "file"; readonly bytes: Buffer; readonly mode: number; readonly links: number; readonly owner: ReplacedFile.Owner }
  | Exclude<Opened, { readonly type: "file" }>
  | { readonly type: "large" }

/**
 * `open` + `readAll` in one synchronous pass for a file of at most `SMALL_FILE_BYTES`, with the
 * same flags and checks; a larger file is `large` (read it with `open`). For many small files,
 * where a thread-pool round trip per call costs more than the calls themselves.
 * @example const found = ReadFile.readSmall(target.real) // { type: "file", bytes, mode } | { type: "large" } | …
 */
export const readSmall = (real: string): Small => {
  const fd = openOrAnswer(real)
  if (typeof fd !== "number") return fd
  try {
    const stats = fstatSync(fd)
    if (stats.isDirectory()) return { type: "directory" }
    if (!stats.isFile()) return { type: "other" }
    if (stats.size > SMALL_FILE_BYTES) return { type: "large" }
    const actual = (() => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`)
      } catch {
        return undefined
      }
    })()
    if (actual !== undefined && actual !== real) return { type: "moved" }
    const buffer = Buffer.allocUnsafe(stats.size)
    let filled = 0
    while (filled < stats.size) {
      const read = readSync(fd, buffer, filled, stats.size - filled, filled)
      if (read === 0) break
      filled += read
    }
    return { type: "file", bytes: buffer.subarray(0, filled), mode: stats.mode, links: stats.nlink, owner: { uid: stats.uid, gid: stats.gid } }
  } finally {
    closeSync(fd)
  }
}

/** A descriptor, or the answer open(2) gave by failing. */
const openOrAnswer = (real: string): number | Exclude<Opened, { readonly type: "file" }> => {
  try {
    return openSync(real, OPEN_FLAGS)
  } catch (error) {
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return { type: "missing" }
    if (codeOf(error) === "EISDIR") return { type: "directory" }
    // A socket cannot be opened at all (ENXIO): it is not a file.
    if (codeOf(error) === "ENXIO" || codeOf(error) === "ENODEV") return { type: "other" }
    throw error
  }
}
