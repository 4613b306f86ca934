/**
 * Opening an approved `read` target and reading its bytes. The target is opened once, without
 * following a symbolic link swapped in after resolution (O_NOFOLLOW: the change is reported, not
 * followed) and without blocking on a FIFO (O_NONBLOCK), then classified by `fstat` on that same
 * handle, so what is read is exactly what was classified. A missing path is an answer, not an error.
 */
export * as ReadFile from "./file.js"

import { constants } from "node:fs"
import { type FileHandle, open as openFile, readlink } from "node:fs/promises"

export type Opened =
  | { readonly type: "file"; readonly handle: FileHandle; readonly size: number }
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
    if (stats.isFile()) return { type: "file", handle, size: stats.size }
    await handle.close()
    return stats.isDirectory() ? { type: "directory" } : { type: "other" }
  } catch (error) {
    // open(2) reports these only by failing; they are answers, not errors.
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return { type: "missing" }
    if (codeOf(error) === "EISDIR") return { type: "directory" }
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

