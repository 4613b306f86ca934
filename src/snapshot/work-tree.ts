/**
 * What a restore does to the work tree beyond the paths it names, decided on disk. A checkout of
 * a path removes a folder standing there with everything in it, and a file or link standing where
 * one of its folders should be; a delete of `d/x` after a checkout made `d` a link again would go
 * through the link. So `inTheWay` finds what a restore would remove without being asked (the
 * person's files in a folder that took a file's place, a file of theirs where a folder was), and
 * `remove` deletes through a descriptor of the path's own folder, verified real: a folder that is
 * a link, or not where the Location says, is refused, never followed. Deletes run before the
 * checkout, deepest first. Synchronous: a few metadata calls per path.
 */
export * as WorkTree from "./work-tree.js"

import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs"
import path from "node:path"
import { BytePath } from "../location/byte-path.js"
import { FileMutation } from "../location/file-mutation.js"

/** The Location-relative folders above `rel`, outermost first (`a/b/c` → `a`, `a/b`). */
const ancestors = (rel: string) => {
  const parts = rel.split("/").slice(0, -1)
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"))
}

/** What stands at `rel`, or undefined when nothing can: missing, or below a file (ENOTDIR, a folder the session replaced by a file). */
const infoOf = (location: string, rel: string) => {
  try {
    return lstatSync(BytePath.fs(path.join(location, ...rel.split("/"))), { throwIfNoEntry: false })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined
    throw error
  }
}

/** The first non-folder under the folder `rel` (by name, no link followed) that is not among `removed`. */
const strayUnder = (location: string, rel: string, removed: ReadonlySet<string>): string | undefined => {
  // Names as bytes: one that is not UTF-8 is named as the snapshot names it (byte-path.ts).
  const entries = readdirSync(BytePath.fs(path.join(location, ...rel.split("/"))), { withFileTypes: true, encoding: "buffer" })
    .map((entry) => ({ name: BytePath.decode(entry.name), isDirectory: entry.isDirectory() }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    const child = `${rel}/${entry.name}`
    const found = entry.isDirectory ? strayUnder(location, child, removed) : removed.has(child) ? undefined : child
    if (found !== undefined) return found
  }
  return undefined
}

/** What stands in the way of `rel`'s folders: a file or link where one should be, unless the restore removes it first. */
const blockedAbove = (location: string, rel: string, removed: ReadonlySet<string>): string | undefined => {
  for (const folder of ancestors(rel)) {
    const info = infoOf(location, folder)
    // Nothing there, or something the restore deletes first: nothing further down exists then.
    if (info === undefined || removed.has(folder)) return undefined
    if (!info.isDirectory()) return folder
  }
  return undefined
}

/** What a folder at `rel` holds that the restore does not remove itself. */
const blockedAt = (location: string, rel: string, removed: ReadonlySet<string>): string | undefined =>
  infoOf(location, rel)?.isDirectory() === true ? strayUnder(location, rel, removed) : undefined

/**
 * The first path a restore that writes `written` and deletes `removed` (Location-relative) would
 * remove though it is neither, or undefined. Checked with the paths' folders in place (call after
 * checking that they lie inside the Location).
 * @example WorkTree.inTheWay("/work/app", ["f"], ["f/a"]) // "f/mine.txt" when the folder f holds it
 */
export const inTheWay = (location: string, written: ReadonlyArray<string>, removed: ReadonlyArray<string>): string | undefined => {
  const gone = new Set(removed)
  for (const rel of [...written, ...removed].sort()) {
    const found = blockedAbove(location, rel, gone) ?? blockedAt(location, rel, gone)
    if (found !== undefined) return found
  }
  return undefined
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code

/** The folder at `real`, held by descriptor and verified; undefined when there is none (nothing to delete in it). */
const folderAt = (real: string) => {
  try {
    return FileMutation.openFolder(real, false)
  } catch (error) {
    if (code(error) === "ENOENT" || code(error) === "ENOTDIR") return undefined
    throw error
  }
}

/**
 * Deletes the Location-relative `rel` (a file, a link itself, or an emptied folder) through its
 * folder's descriptor. Throws FileMutation.FOLDER_MOVED when a folder on the way is a link.
 */
export const remove = (location: string, rel: string): void => {
  const absolute = path.join(location, ...rel.split("/"))
  const folder = folderAt(path.dirname(absolute))
  if (folder === undefined) return
  try {
    const at = FileMutation.entry(folder, path.basename(absolute))
    const info = lstatSync(BytePath.fs(at), { throwIfNoEntry: false })
    if (info === undefined) return
    if (info.isDirectory()) rmdirSync(BytePath.fs(at))
    else unlinkSync(BytePath.fs(at))
  } finally {
    FileMutation.closeFolder(folder)
  }
}

/** Paths in the order deletes run: deepest first, so a folder is emptied before it goes. */
export const deepestFirst = (rels: ReadonlyArray<string>): Array<string> => [...rels].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : 1))
