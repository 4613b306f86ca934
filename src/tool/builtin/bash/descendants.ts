/**
 * The processes a bash tool command owns (07), so that a timeout or a stop reaches all of them:
 * its process group, every descendant of its shell (a job that `set -m` put in a group of its
 * own, a process that left with `setsid`), the groups those belong to, and their descendants in
 * turn. On Linux this is read from /proc; a process is known by its pid and start time, so a pid
 * that is reused by an unrelated process is never taken for one of ours. Elsewhere (macOS, or a
 * /proc we cannot read) only the original group is known.
 *
 * Limit: a process is found through its parent or its group. One that left the group (`setsid`,
 * `set -m`) and whose parent then exited was reparented to init (a daemon): nothing links it to
 * the command any more, so it is not found and keeps running. Found in time, while its parent
 * lived, it stays known until it is gone.
 */
export * as BashDescendants from "./descendants.js"

import { readFileSync } from "node:fs"
import { readFile, readdir } from "node:fs/promises"

/** One line of /proc/<pid>/stat, the fields used here. */
export interface Stat {
  readonly pid: number
  readonly ppid: number
  readonly pgid: number
  /** One letter: R, S, D, T, Z (zombie), X (dead), ... */
  readonly state: string
  /** Clock ticks since boot when the process started: with the pid, its identity. */
  readonly start: string
}

/** What a `refresh` found. */
export interface Snapshot {
  /** Whether anything of the command still runs. Zombies do not count: some container inits never reap them. */
  readonly alive: boolean
  /** The groups to signal: the original one and every group with a member of the command. */
  readonly groups: ReadonlyArray<number>
}

export interface Tree {
  /** The group the shell leads. */
  readonly pgid: number
  /** Reads the process table again; adopts new descendants and group members; forgets what is gone. */
  readonly refresh: () => Promise<Snapshot>
}

/**
 * Parses /proc/<pid>/stat: "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
 * majflt cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime ...".
 * The command name may hold spaces and parentheses, so fields are read after the last ")".
 * @example parseStat("42 (sleep) S 41 41 41 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 0") // { pid: 42, ppid: 41, pgid: 41, state: "S", start: "777" }
 */
export const parseStat = (text: string): Stat | undefined => {
  const close = text.lastIndexOf(")")
  if (close < 0) return undefined
  const pid = Number(text.slice(0, text.indexOf(" ")))
  const fields = text.slice(close + 2).split(" ")
  const [state, ppid, pgid] = [fields[0], Number(fields[1]), Number(fields[2])]
  const start = fields[19]
  if (state === undefined || start === undefined || ![pid, ppid, pgid].every(Number.isInteger)) return undefined
  return { pid, ppid, pgid, state, start }
}

const isLive = (stat: Stat) => stat.state !== "Z" && stat.state !== "X"

/** Every process in /proc by pid; empty when /proc cannot be read. */
export const scan = async (): Promise<ReadonlyMap<number, Stat>> => {
  const names = await readdir("/proc").catch(() => [] as Array<string>)
  const texts = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map((name) => readFile(`/proc/${name}/stat`, "utf8").catch(() => "")))
  const stats = texts.flatMap((text) => parseStat(text) ?? [])
  return new Map(stats.map((stat) => [stat.pid, stat]))
}

/** The start time of a process, read at once; undefined without /proc. */
const startOf = (pid: number): string | undefined => {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"))?.start
  } catch {
    return undefined
  }
}

const errorCode = (cause: unknown) => (cause as NodeJS.ErrnoException).code

/** Without /proc: the group runs while signal 0 reaches it (zombies are not told apart). */
const groupOnly = (pgid: number): Tree => ({
  pgid,
  refresh: async () => {
    try {
      process.kill(-pgid, 0)
    } catch (cause) {
      if (errorCode(cause) === "ESRCH") return { alive: false, groups: [] }
    }
    return { alive: true, groups: [pgid] }
  },
})

/**
 * Adopts, to a fixpoint, every process whose parent is known or whose group is one of ours; a
 * group becomes ours when a known process is in it. Groups live only within a session and the
 * shell leads a session of its own, so no group of the caller can be reached this way; the
 * caller's own pid and group are excluded all the same.
 */
const adopt = (stats: ReadonlyMap<number, Stat>, known: Map<number, string>, groups: Set<number>) => {
  const self = stats.get(process.pid)
  const foreign = (stat: Stat) => stat.pid === process.pid || stat.pgid <= 1 || stat.pgid === self?.pgid
  for (let changed = true; changed; ) {
    changed = false
    for (const stat of stats.values()) {
      if (foreign(stat)) continue
      const mine = known.has(stat.pid) || known.has(stat.ppid) || groups.has(stat.pgid)
      if (!mine) continue
      if (!known.has(stat.pid)) known.set(stat.pid, stat.start)
      if (groups.has(stat.pgid)) continue
      groups.add(stat.pgid)
      changed = true
    }
  }
}

/**
 * The processes of the command whose shell is `pid` (the leader of group `pid`). Call it at once
 * after the spawn, before the shell can be reaped: the shell's identity is read synchronously.
 * @example const tree = BashDescendants.track(child.pid); const { alive, groups } = await tree.refresh()
 */
export const track = (pid: number): Tree => {
  const start = process.platform === "linux" ? startOf(pid) : undefined
  if (start === undefined) return groupOnly(pid)
  const known = new Map<number, string>([[pid, start]])
  const groups = new Set<number>([pid])
  const refresh = async (): Promise<Snapshot> => {
    const stats = await scan()
    if (!stats.has(process.pid)) return groupOnly(pid).refresh()
    // Forget what is gone, and a pid that now names another process.
    for (const [knownPid, knownStart] of known) {
      if (stats.get(knownPid)?.start !== knownStart) known.delete(knownPid)
    }
    // A group without members no longer exists, and cannot be joined again: forget it too.
    const populated = new Set([...stats.values()].map((stat) => stat.pgid))
    for (const group of groups) if (!populated.has(group)) groups.delete(group)
    adopt(stats, known, groups)
    const mine = [...stats.values()].filter((stat) => known.has(stat.pid))
    return { alive: mine.some(isLive), groups: [...groups] }
  }
  return { pgid: pid, refresh }
}
