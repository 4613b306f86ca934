/**
 * What a revert or an unrevert does to each file, decided from the change log alone (pure).
 * Rules: only paths toolgate's own changes wrote are candidates; toolgate overwrites a file
 * only while it is exactly what toolgate last left there, otherwise the person's version is
 * kept and reported. Reverts in a row form a chain computed from the state before its first
 * revert, so a second revert (to an earlier or a later message) never loses what the first one
 * put aside, and unrevert returns to that state. A change after a chain ends it: the messages it
 * reverted are gone from the timeline, as the person moved on from them. A file known only by
 * its size and times (an untracked file over the size limit, TreeEntry.SIZE_ONLY) is never
 * written: its earlier version cannot be put back, and what stands there now could not be put
 * back by an unrevert; it is kept and reported (`large`).
 */
export * as RevertPlan from "./revert-plan.js"

import type { ChangeLog } from "./change-log.js"
import { TreeEntry } from "./tree-entry.js"

/** `restore`: content or mode put back; `recreate`: brought back after a delete; `keep`: a conflict, the person's version stays. */
export type Action = "restore" | "delete" | "recreate" | "keep"

/**
 * Why a file is kept: it changed after the session's last change to it, or after the revert
 * before this one; or a version of it it would take or put back is known only by its size.
 */
export type Reason = "session" | "revert" | "large"

export interface Step {
  readonly path: string
  readonly action: Action
  readonly reason?: Reason
}

/** The steps of one revert or unrevert, by path. */
export type Plan = ReadonlyArray<Step>

/** A step with the state it writes (none for `keep` and `delete`). */
export interface Decision {
  readonly step: Step
  readonly state?: TreeEntry.Entry
}

export interface Timeline {
  /** Tool and shell changes still in effect, oldest first. */
  readonly live: ReadonlyArray<ChangeLog.Entry>
  /** The reverts since the last change or unrevert: what an unrevert undoes. */
  readonly chain: ReadonlyArray<ChangeLog.Entry>
  /** Every closed entry before the chain, oldest first. */
  readonly settled: ReadonlyArray<ChangeLog.Entry>
}

/** What a revert to `messageID` is about, for each path the changes from that message on wrote. */
export interface Touched {
  /** The state before the first of those changes to it. */
  readonly target?: TreeEntry.Entry
  /** The state the last toolgate change before the chain left. */
  readonly left?: TreeEntry.Entry
}

const isChange = (entry: ChangeLog.Entry) => entry.kind === "tool" || entry.kind === "shell"

/** `{ [key]: value }`, or nothing for an absent state (optional fields stay absent, not undefined). */
const opt = <K extends string>(key: K, value: TreeEntry.Entry | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, TreeEntry.Entry>))

/** The log read as a timeline; open entries are left out. */
export const timeline = (entries: ReadonlyArray<ChangeLog.Entry>): Timeline => {
  const closed = entries.filter((entry) => entry.changes !== undefined)
  const state = { live: [] as Array<ChangeLog.Entry>, chain: [] as Array<ChangeLog.Entry> }
  for (const entry of closed) {
    if (entry.kind === "revert") state.chain.push(entry)
    if (entry.kind === "unrevert") state.chain = []
    if (!isChange(entry)) continue
    const last = state.chain.at(-1)
    const start = last === undefined ? undefined : state.live.find((change) => change.messageID === last.messageID)
    // A change after reverts keeps them: what they reverted leaves the timeline.
    if (start !== undefined) state.live = state.live.filter((change) => change.id < start.id)
    state.chain = []
    state.live.push(entry)
  }
  const first = state.chain[0]
  return { ...state, settled: first === undefined ? closed : closed.filter((entry) => entry.id < first.id) }
}

/** The paths the live changes from `messageID` on wrote; undefined when that message changed nothing live. */
export const touched = (line: Timeline, messageID: string): Map<string, Touched> | undefined => {
  const start = line.live.find((entry) => entry.messageID === messageID)
  if (start === undefined) return undefined
  const targets = new Map<string, TreeEntry.Entry | undefined>()
  for (const entry of line.live.filter((change) => change.id >= start.id))
    for (const change of entry.changes ?? []) if (!targets.has(change.path)) targets.set(change.path, change.before)
  const left = written(line.settled)
  return new Map([...targets].map(([path, target]) => [path, { ...opt("target", target), ...opt("left", left.get(path)) }]))
}

/** The state the last of `entries` to write each path left it in. */
export const written = (entries: ReadonlyArray<ChangeLog.Entry>): Map<string, TreeEntry.Entry | undefined> =>
  new Map(entries.flatMap((entry) => (entry.changes ?? []).map((change) => [change.path, change.after] as const)))

export interface Facts {
  readonly path: string
  readonly now?: TreeEntry.Entry
  /** The state before the chain (now, without one). */
  readonly base?: TreeEntry.Entry
  /** What toolgate last left there: the chain's last write, else the base. */
  readonly expected?: TreeEntry.Entry
  /** Set for a path the reverted changes wrote; an unrevert has none. */
  readonly touched?: Touched
}

/** One path's step, or undefined when it is already as it should be. */
export const decide = (facts: Facts): Decision | undefined => {
  const { path, now } = facts
  if (!TreeEntry.same(now, facts.expected)) return { step: { path, action: "keep", reason: "revert" } }
  if (facts.touched !== undefined && !TreeEntry.same(facts.base, facts.touched.left)) return { step: { path, action: "keep", reason: "session" } }
  const state = facts.touched === undefined ? facts.base : facts.touched.target
  if (TreeEntry.same(state, now)) return undefined
  if (TreeEntry.sizeOnly(state) || TreeEntry.sizeOnly(now)) return { step: { path, action: "keep", reason: "large" } }
  if (state === undefined) return { step: { path, action: "delete" } }
  return { step: { path, action: now === undefined ? "recreate" : "restore" }, state }
}

export interface Input {
  readonly now: ReadonlyMap<string, TreeEntry.Entry>
  /** The state before the chain; `now` without one. */
  readonly base: ReadonlyMap<string, TreeEntry.Entry>
  /** What the chain wrote last to each path. */
  readonly chain: ReadonlyMap<string, TreeEntry.Entry | undefined>
  /** For a revert: the paths it is about. */
  readonly touched?: ReadonlyMap<string, Touched>
}

/** The decisions for every path the chain or the reverted changes wrote, by path. */
export const make = (input: Input): Array<Decision> =>
  [...new Set([...input.chain.keys(), ...(input.touched?.keys() ?? [])])]
    .sort()
    .flatMap((path) => {
      const base = input.base.get(path)
      const touched = input.touched?.get(path)
      const decision = decide({
        path,
        ...opt("now", input.now.get(path)),
        ...opt("base", base),
        ...opt("expected", input.chain.has(path) ? input.chain.get(path) : base),
        ...(touched === undefined ? {} : { touched }),
      })
      return decision === undefined ? [] : [decision]
    })
