/**
 * What a replacement keeps of the file it replaces. The file tools write a new file and rename it
 * over the old one (file-mutation.ts), and a rename needs only the folder's permission: before
 * this, `write` and `edit` replaced a file the user may not write (`chmod 444`, or root's file in
 * the user's folder, which the shell refused: `Permission denied`), and a toolgate running as root
 * (a container over the person's bind-mounted project) left the person's file owned by root, so
 * that a mode of 0640 locked its owner out of their own work. Now a replacement happens only where
 * writing the file in place would be allowed (`access(W_OK)`, which counts ACLs and a read-only
 * mount too), and the new file takes the old one's owner and group before its mode (a change of
 * owner clears set-user-ID, so the mode goes second); one whose owner this user cannot give it
 * (another user's group-writable file), or whose group it cannot give it where the mode grants
 * that group more than everyone else, is refused, leaving the old file as it was.
 * Left alone: extended attributes and ACL entries are not copied (Node has no API for them).
 */
export * as ReplacedFile from "./replaced-file.js"

import { access, constants, fchown, fstat } from "node:fs"
import { promisify } from "node:util"

/** Why a replacement was refused when the user may not write the file in place. */
export const NOT_WRITABLE = "its permissions do not let this user write it (it is read-only, or another user's), so nothing was written"
/** Why a replacement was refused when the new file could not take the old one's owner and group. */
export const OWNER_NOT_KEPT = "it belongs to another user or group, which a new file written by this user cannot keep, so nothing was written"

/** Who owns a file: what a replacement gives the new file. */
export interface Owner {
  readonly uid: number
  readonly gid: number
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

/** A failure carrying `detail` as its code, as file-mutation.ts reports its own. */
const failure = (detail: string): NodeJS.ErrnoException => Object.assign(new globalThis.Error(detail), { code: detail })

const accessAsync = promisify(access)
const fchownAsync = promisify(fchown)
const fstatAsync = promisify(fstat)

/** Errors of `access(W_OK)` that mean "this user may not write it". */
const DENIED = new Set(["EACCES", "EPERM", "EROFS", "ETXTBSY"])

/**
 * Throws NOT_WRITABLE unless this user may write the existing file at `at` in place; any other
 * error (the file went away) is left to the write that follows.
 * @example await ReplacedFile.assertWritable(FileMutation.entry(folder, "a.txt"))
 */
export const assertWritable = async (at: string): Promise<void> => {
  await accessAsync(at, constants.W_OK).catch((error: unknown) => {
    if (DENIED.has(code(error))) throw failure(NOT_WRITABLE)
  })
}

/** Whether a file of `mode` grants its group what it grants everyone else: then its group decides nothing. */
export const groupMatters = (mode: number): boolean => ((mode >> 3) & 0o7) !== (mode & 0o7)

/**
 * Gives the new file open at `fd` the owner and group of `previous` (the file it will replace),
 * when they differ; OWNER_NOT_KEPT when this user may not, unless only the group differs and
 * the file's `mode` gives the group nothing more than everyone else. Call it before setting the
 * mode.
 * @example await ReplacedFile.keepOwner(fd, previous, 0o640)
 */
export const keepOwner = async (fd: number, previous: Owner, mode: number | undefined): Promise<void> => {
  const made = await fstatAsync(fd)
  if (made.uid === previous.uid && made.gid === previous.gid) return
  await fchownAsync(fd, previous.uid, previous.gid).catch((error: unknown) => {
    if (code(error) !== "EPERM" && code(error) !== "EINVAL") throw error
    if (made.uid !== previous.uid || mode === undefined || groupMatters(mode)) throw failure(OWNER_NOT_KEPT)
  })
}
