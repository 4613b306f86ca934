/**
 * Untracked files over the snapshot's size limit, known by their size and times only. Hashing
 * them at every shell call would cost seconds and keeping them would fill the shadow repository,
 * but leaving them out made a snapshot say "absent" of a file that was there. So a snapshot holds
 * a stand-in for each: a `TreeEntry.SIZE_ONLY` entry whose id hashes the file's size, modification
 * and change times, inode and executable bits. Any of those changing is a change; a write that
 * keeps all of them is not seen (as git's own stat check would not see it). A stand-in is never
 * checked out: there is no content behind it.
 */
export * as SizeOnly from "./size-only.js"

import { createHash } from "node:crypto"
import { type BigIntStats, accessSync, constants, lstatSync } from "node:fs"
import path from "node:path"
import { BytePath } from "../location/byte-path.js"
import { TreeEntry } from "./tree-entry.js"

/** The stand-in of a large file: its metadata hashed into the entry's id. */
export const standIn = (info: BigIntStats): TreeEntry.Entry => ({
  mode: TreeEntry.SIZE_ONLY,
  object: createHash("sha1").update(`${info.size} ${info.mtimeNs} ${info.ctimeNs} ${info.ino} ${info.mode & 0o111n}`).digest("hex"),
})

/** Where each path goes in the shadow index, by what is on disk now. */
export interface Placed {
  /** Files and links to stage as they are, and missing paths (removed by `update-index --remove`). */
  readonly staged: ReadonlyArray<string>
  /** Folders where a file was: out of the index. */
  readonly folders: ReadonlyArray<string>
  /** Regular files over the limit, as stand-ins. */
  readonly large: ReadonlyArray<{ readonly path: string; readonly state: TreeEntry.Entry }>
}

/** What stands at `file`, or undefined when nothing can (missing, or below a file: ENOTDIR). */
const infoOf = (file: string) => {
  try {
    return lstatSync(BytePath.fs(file), { bigint: true, throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

/**
 * Whether a folder above `rel` is not a real folder (a link, a file, or missing): then nothing
 * stands at `rel` itself. `lstat` of `d/one` follows a link `d`, and git refuses to stage or
 * remove a path "beyond a symbolic link", which failed every later snapshot of the Location.
 */
export const beyondFolder = (location: string, rel: string): boolean => {
  const parts = rel.split("/")
  for (let depth = 1; depth < parts.length; depth++) {
    const info = infoOf(path.join(location, ...parts.slice(0, depth)))
    if (info?.isDirectory() !== true) return true
  }
  return false
}

/**
 * Whether toolgate may read the regular file at `file`. One it may not (mode 000, a file another
 * user or a container made 600) cannot be hashed: git failed the whole snapshot on it, so every
 * later call of the Location went unrecorded. It is held by a stand-in, as a large file is.
 */
export const readable = (file: string): boolean => {
  try {
    accessSync(BytePath.fs(file), constants.R_OK)
    return true
  } catch {
    return false
  }
}

/** The regular files among `rels` that toolgate may not read, each with its stand-in. */
export const unreadable = (location: string, rels: ReadonlyArray<string>): Array<Placed["large"][number]> =>
  rels.flatMap((rel) => {
    const file = path.join(location, ...rel.split("/"))
    const info = infoOf(file)
    return info?.isFile() === true && !readable(file) ? [{ path: rel, state: standIn(info) }] : []
  })

/** Whether a real folder (not a link to one) stands at `file`. */
export const isFolder = (file: string): boolean => infoOf(file)?.isDirectory() === true

/**
 * The regular files among `rels`, up to `total` bytes in all, smallest first: what can be kept
 * by content when keeping all of them would cost too much.
 */
export const budget = (location: string, rels: ReadonlyArray<string>, total: number): Array<string> => {
  const sized = rels.flatMap((rel) => {
    const info = infoOf(path.join(location, ...rel.split("/")))
    return info?.isFile() === true ? [{ rel, size: Number(info.size) }] : []
  })
  const chosen: Array<string> = []
  let used = 0
  for (const { rel, size } of sized.sort((a, b) => a.size - b.size)) {
    if (used + size > total) break
    used += size
    chosen.push(rel)
  }
  return chosen
}

/**
 * Sorts Location-relative paths by what stands at each: a regular file over `limit` bytes, or one
 * toolgate may not read, gets a stand-in, a folder leaves the index, anything else is staged as it is (a missing one removed).
 * A path below a link or a file is gone (a folder replaced by a link): out of the index, as a folder.
 * @example SizeOnly.place("/work/app", ["big.bin", "a.txt"], 2 * 1024 * 1024) // { staged: ["a.txt"], folders: [], large: [{ path: "big.bin", state: { mode: "160000", object: "…" } }] }
 */
export const place = (location: string, rels: ReadonlyArray<string>, limit: number): Placed => {
  const placed = { staged: [] as Array<string>, folders: [] as Array<string>, large: [] as Array<Placed["large"][number]> }
  for (const rel of rels) {
    const info = infoOf(path.join(location, ...rel.split("/")))
    if (info?.isDirectory() === true || (rel.includes("/") && beyondFolder(location, rel))) placed.folders.push(rel)
    else if (info?.isFile() === true && (info.size > BigInt(limit) || !readable(path.join(location, ...rel.split("/"))))) placed.large.push({ path: rel, state: standIn(info) })
    else placed.staged.push(rel)
  }
  return placed
}

/** Every path `ls-files -s -z` lists, and whether it is held by a stand-in. */
export const held = (output: Buffer): Array<{ readonly path: string; readonly standIn: boolean }> =>
  BytePath.decode(output)
    .split("\0")
    .filter((line) => line !== "")
    .map((line) => ({ path: line.slice(line.indexOf("\t") + 1), standIn: line.startsWith(`${TreeEntry.SIZE_ONLY} `) }))
