/**
 * One path's state in a snapshot tree: its mode and object id, or absent (undefined). Two
 * states are the same file exactly when both are equal, so a content change, a mode change
 * (`chmod +x`) and a file turned into a link all count, and binary files need no special case.
 * A file over the snapshot's size limit that it never held is `SIZE_ONLY`: a gitlink whose id
 * stands for the file's size and times (git neither reads nor checks it), never checked out.
 * Parsers for the NUL-terminated outputs of `ls-tree -r -z` and `diff-tree -r -z` (raw), and the
 * input line of `update-index -z --index-info`; paths may hold any byte but NUL.
 */
export * as TreeEntry from "./tree-entry.js"

import { BytePath } from "../location/byte-path.js"

/** The object id git writes for "no object" in raw diffs and index-info removals. */
export const NONE = "0".repeat(40)

/** The mode of a file known only by its size and times (snapshot/size-only.ts): its content was never kept. */
export const SIZE_ONLY = "160000"

export interface Entry {
  /** `100644`, `100755`, `120000` (a link), `SIZE_ONLY`. */
  readonly mode: string
  readonly object: string
}

/** A path's state before and after a change; undefined where it did not exist. */
export interface Change {
  readonly path: string
  readonly before?: Entry
  readonly after?: Entry
}

/** Whether two states are the same file (both absent counts). */
export const same = (a: Entry | undefined, b: Entry | undefined): boolean => a?.mode === b?.mode && a?.object === b?.object

/** Whether the state is a file known only by its size and times, which nothing can put back. */
export const sizeOnly = (entry: Entry | undefined): boolean => entry?.mode === SIZE_ONLY

const entry = (mode: string, object: string): Entry | undefined => (object === NONE || /^0+$/.test(mode) ? undefined : { mode, object })

/**
 * The entries of `ls-tree -r -z`: `<mode> <type> <object>\t<path>\0`.
 * @example TreeEntry.parseTree(Buffer.from("100644 blob e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\ta.txt\0")) // Map { "a.txt" => { mode: "100644", object: "e69d…" } }
 */
export const parseTree = (output: Buffer): Map<string, Entry> =>
  new Map(
    BytePath.decode(output)
      .split("\0")
      .filter((line) => line !== "")
      .map((line) => {
        const tab = line.indexOf("\t")
        const [mode, , object] = line.slice(0, tab).split(" ")
        return [line.slice(tab + 1), { mode: mode as string, object: object as string }] as const
      }),
  )

/**
 * The changes of `diff-tree -r -z --no-abbrev --no-renames` (raw): `:<mode> <mode> <object> <object> <status>\0<path>\0`.
 * @example TreeEntry.parseRaw(Buffer.from(":000000 100644 0000… e69d… A\0new.txt\0")) // [{ path: "new.txt", after: { mode: "100644", object: "e69d…" } }]
 */
export const parseRaw = (output: Buffer): Array<Change> => {
  const fields = BytePath.decode(output).split("\0")
  return Array.from({ length: Math.floor(fields.length / 2) }, (_, index) => {
    const [oldMode, newMode, oldObject, newObject] = (fields[index * 2] as string).slice(1).split(" ")
    const before = entry(oldMode as string, oldObject as string)
    const after = entry(newMode as string, newObject as string)
    return { path: fields[index * 2 + 1] as string, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) }
  })
}

/** One `update-index -z --index-info` record: sets the path to `state`, or removes it when absent. */
export const indexInfo = (path: string, state: Entry | undefined): string => `${state?.mode ?? "0"} ${state?.object ?? NONE}\t${path}\0`
