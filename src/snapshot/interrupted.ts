/**
 * A change whose process died before closing its log entry: toolgate killed outright (SIGKILL, a
 * crash), or told twice to stop (a second Ctrl-C exits at once). Its files may have changed, but
 * an open entry counts for nothing: without this, `session diff` said the session changed nothing
 * and a revert could not put back what a command deleted, nor an unrevert what a revert wrote.
 *
 * Every entry keeps who opened it and the paths it writes (none for a shell command: any path).
 * The next call in the Location (of any session), or the session's next diff, revert or unrevert,
 * closes an entry whose process is gone, the sooner the better (history.ts, `closeLeftOpen`):
 * - a file tool's or a shell command's, with what differs now among its paths (a shell's: all):
 *   what the process left, and whatever changed there since, counted as its change. Nothing is
 *   lost by that: a revert keeps the tree it starts from, so an unrevert returns what it undid.
 * - a revert's or unrevert's, path by path against the tree it restored from: as the target has
 *   it, the entry's write; as before the entry, not reached (the next revert does it); missing,
 *   or a regular file whose bytes begin the target's (empty included) where the target is a
 *   regular file, cut off mid-write by the kill: finished from the target (what stood there is
 *   all in the target) and the entry's write; anything else is someone's since, kept, not its.
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

/** What closing an interrupted revert or unrevert decided. */
export interface Closing {
  /** The tree after it, with its paths as they stand now. */
  readonly after: string
  /** Its writes: the paths that hold the target's state, as the log records a change. */
  readonly changes: ReadonlyArray<TreeEntry.Change>
  /** The paths it finished writing (cut off mid-write). */
  readonly finished: ReadonlyArray<string>
}

const REGULAR = ["100644", "100755"]

/** Whether the entry is a revert's or an unrevert's, with what it restores. */
export const restores = (entry: ChangeLog.Entry): entry is ChangeLog.Entry & { readonly target: string; readonly paths: ReadonlyArray<string> } =>
  (entry.kind === "revert" || entry.kind === "unrevert") && entry.target !== undefined && entry.paths !== undefined

/**
 * Whether `entry` is open and nothing writes it any more: its process no longer runs, or it is
 * this process's and `here` says none of its fibers writes it (a close that failed).
 */
export const isInterrupted = (entry: ChangeLog.Entry, current: Owner.Owner, here: (id: number) => boolean): boolean => {
  if (entry.after !== undefined || entry.owner === undefined) return false
  if ((entry.kind === "revert" || entry.kind === "unrevert") && !restores(entry)) return false
  if (entry.owner === Owner.encode(current)) return !here(entry.id)
  const owner = Owner.decode(entry.owner)
  return owner !== undefined && !Owner.alive(owner)
}

/** Whether `entry` is open and still being written, by this process (`here`) or another that runs. */
export const isLive = (entry: ChangeLog.Entry, current: Owner.Owner, here: (id: number) => boolean): boolean =>
  entry.after === undefined && entry.owner !== undefined && !isInterrupted(entry, current, here)

/** Whether what stands at a path (`now`) is the target's file cut off while git wrote it. */
const cutOff = Effect.fnUntraced(function* (snapshot: Snapshot.Interface, now: TreeEntry.Entry | undefined, target: TreeEntry.Entry | undefined) {
  if (target === undefined || !REGULAR.includes(target.mode)) return false
  if (now === undefined) return true
  if (!REGULAR.includes(now.mode)) return false
  const [written, whole] = yield* Effect.all([snapshot.blob(now.object), snapshot.blob(target.object)])
  return written.length <= whole.length && whole.subarray(0, written.length).equals(written)
})

/** Closes an interrupted revert or unrevert: finishes the files cut off mid-write, and says what it wrote. */
export const closeRestore = Effect.fnUntraced(function* (snapshot: Snapshot.Interface, entry: ChangeLog.Entry & { readonly target: string; readonly paths: ReadonlyArray<string> }) {
  const { target, paths } = entry
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
