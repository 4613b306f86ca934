/**
 * A revert or unrevert whose process died mid-restore (SIGKILL, a crash, a power cut) leaves its
 * change-log entry open, some of its files restored and the rest not, and git may have been
 * cut off inside one file: replaced by nothing yet, or by the start of its content. An open
 * entry counts for nothing, so without this the files it did restore were toolgate's writes no
 * log held, and an unrevert could not return the session's versions of them.
 *
 * The entry keeps what it restores (the target tree and the paths) and who opened it. The next
 * revert, unrevert or diff of the session closes an entry whose process is gone, path by path:
 * - as the target has it: restored, and logged as the entry's write;
 * - as it was before the entry: not reached, nothing logged (the next revert does it);
 * - missing, or a regular file whose bytes begin the target's (empty included) where the target
 *   is a regular file: cut off mid-write. It is finished from the target (what stands there is
 *   all in the target, so nothing is lost) and logged as written;
 * - anything else is someone's since: kept as it is, not logged.
 * Gotcha: git itself may outlive the process that ran it and still be writing; it holds the
 * shadow index's lock until it ends, and staging waits for that lock (snapshot.ts), so nothing
 * is judged while it writes.
 */
export * as Interrupted from "./interrupted.js"

import { Effect } from "effect"
import { Owner } from "../storage/owner.js"
import type { ChangeLog } from "./change-log.js"
import type { Snapshot } from "./snapshot.js"
import { TreeEntry } from "./tree-entry.js"

/** What closing an interrupted entry decided. */
export interface Closing {
  /** The tree after it, with its paths as they stand now. */
  readonly after: string
  /** Its writes: the paths that hold the target's state, as the log records a change. */
  readonly changes: ReadonlyArray<TreeEntry.Change>
  /** The paths it finished writing (cut off mid-write). */
  readonly finished: ReadonlyArray<string>
}

const REGULAR = ["100644", "100755"]

/**
 * Whether `entry` is a restore left open by a process that no longer runs (or by this one, which
 * runs no restore while it closes entries).
 */
export const isInterrupted = (entry: ChangeLog.Entry, current: Owner.Owner = Owner.current()): boolean => {
  if (entry.after !== undefined || entry.restoring === undefined || entry.owner === undefined) return false
  if (entry.owner === Owner.encode(current)) return true
  const owner = Owner.decode(entry.owner)
  return owner !== undefined && !Owner.alive(owner)
}

/** Whether what stands at a path (`now`) is the target's file cut off while git wrote it. */
const cutOff = Effect.fnUntraced(function* (snapshot: Snapshot.Interface, now: TreeEntry.Entry | undefined, target: TreeEntry.Entry | undefined) {
  if (target === undefined || !REGULAR.includes(target.mode)) return false
  if (now === undefined) return true
  if (!REGULAR.includes(now.mode)) return false
  const [written, whole] = yield* Effect.all([snapshot.blob(now.object), snapshot.blob(target.object)])
  return written.length <= whole.length && whole.subarray(0, written.length).equals(written)
})

/** Closes the interrupted `entry`: finishes the files cut off mid-write, and says what it wrote. */
export const close = Effect.fnUntraced(function* (snapshot: Snapshot.Interface, entry: ChangeLog.Entry) {
  const restoring = entry.restoring
  if (restoring === undefined) return undefined
  const { target, paths } = restoring
  const staged = yield* snapshot.stage(paths)
  if (staged === undefined) return undefined
  const [before, wanted, now] = yield* Effect.all([snapshot.entries(entry.before, paths), snapshot.entries(target, paths), snapshot.entries(staged, paths)])
  const finished: Array<string> = []
  for (const file of paths) {
    const standing = now.get(file)
    if (TreeEntry.same(standing, wanted.get(file)) || TreeEntry.same(standing, before.get(file))) continue
    if (yield* cutOff(snapshot, standing, wanted.get(file))) finished.push(file)
  }
  if (finished.length > 0) yield* snapshot.restore(target, finished)
  const after = finished.length === 0 ? staged : yield* snapshot.stage(paths)
  if (after === undefined) return undefined
  const settled = finished.length === 0 ? now : yield* snapshot.entries(after, paths)
  const changes = paths.flatMap((file) => {
    const state = wanted.get(file)
    const was = before.get(file)
    if (!TreeEntry.same(settled.get(file), state) || TreeEntry.same(was, state)) return []
    return [{ path: file, ...(was === undefined ? {} : { before: was }), ...(state === undefined ? {} : { after: state }) }]
  })
  return { after, changes, finished } satisfies Closing
})
