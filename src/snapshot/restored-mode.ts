/**
 * What a revert keeps of a file it writes back over. git's checkout replaces a file with a new one
 * of mode 0666 or 0777 less the umask, owned by whoever runs it: a revert of the person's `0600`
 * file left it `0644`, readable by every user of the machine, and a toolgate running as root left
 * it root's, so its owner could not even read their own work back. Now the owner, the group and
 * the permission bits of each regular file standing at a restored path are taken before the
 * checkout and given back to what the checkout wrote there; only the executable bits follow the
 * snapshot (git holds those), set where the file may be read. A path that held no file before (a
 * file the revert recreates) gets what git gives it: its old mode was not recorded.
 */
export * as RestoredMode from "./restored-mode.js"

import { closeSync, constants, fchmodSync, fchownSync, fstatSync, lstatSync, openSync } from "node:fs"
import path from "node:path"
import { BytePath } from "../location/byte-path.js"

/** A file's owner, group and permission bits (with set-user-ID, set-group-ID and sticky). */
export interface Kept {
  readonly uid: number
  readonly gid: number
  readonly mode: number
}

const at = (location: string, rel: string) => BytePath.fs(path.join(location, ...rel.split("/")))

/** What stands at `rel` when it is a regular file; undefined for anything else, or nothing. */
const fileAt = (location: string, rel: string) => {
  try {
    const info = lstatSync(at(location, rel), { throwIfNoEntry: false })
    return info?.isFile() === true ? info : undefined
  } catch {
    return undefined
  }
}

/**
 * The mode of a file that had `kept` and now has `written` from a checkout: `kept`'s bits, with
 * the executable ones as `written` says (git's): on, each where the file may be read; off, none.
 * @example RestoredMode.merge(0o600, 0o755) // 0o700
 */
export const merge = (kept: number, written: number): number => {
  const bits = kept & 0o7777
  if ((written & 0o111) === 0) return bits & ~0o111
  return bits | ((bits & 0o444) >> 2)
}

/**
 * The owner, group and mode of each path of `rels` that holds a regular file now, before a
 * checkout writes over them.
 * @example const kept = RestoredMode.take(location, ["a.txt"])
 */
export const take = (location: string, rels: ReadonlyArray<string>): ReadonlyMap<string, Kept> =>
  new Map(
    rels.flatMap((rel) => {
      const info = fileAt(location, rel)
      return info === undefined ? [] : [[rel, { uid: info.uid, gid: info.gid, mode: info.mode & 0o7777 }] as const]
    }),
  )

/** Never follow a link put there since, never wait on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/** Gives the regular file open at `fd` the owner, group and mode `before` had; best effort. */
const giveTo = (fd: number, before: Kept) => {
  const now = fstatSync(fd)
  if (!now.isFile()) return
  try {
    if (now.uid !== before.uid || now.gid !== before.gid) fchownSync(fd, before.uid, before.gid)
  } catch {
    // Not this user's to give away: the file stays the checkout's, with the mode below.
  }
  fchmodSync(fd, merge(before.mode, now.mode))
}

/**
 * Gives each file a checkout wrote back what `take` found at its path, through a descriptor opened
 * without following a link: the owner and group first (a change of owner clears set-user-ID),
 * then the mode. Best effort: what this user may not set stays as the checkout left it, and a path
 * that is no longer a regular file is left alone.
 */
export const give = (location: string, kept: ReadonlyMap<string, Kept>): void => {
  for (const [rel, before] of kept) {
    try {
      const fd = openSync(at(location, rel), OPEN_FLAGS)
      try {
        giveTo(fd, before)
      } finally {
        closeSync(fd)
      }
    } catch {
      // Gone, a link now, or not ours to change: left as the checkout wrote it.
    }
  }
}
