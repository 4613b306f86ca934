/**
 * The process that owns a row (an ask waiting in its memory), and whether it still runs. A pid
 * alone is not enough, pids are reused: on Linux an owner also keeps its boot id, pid namespace
 * and start time (`/proc/<pid>/stat`, clock ticks since boot), and a process is alive only if
 * the pid's start time is still the recorded one. An earlier boot, a zombie or a different start
 * time is dead. What cannot be judged from here counts as alive, so that a live process's row is
 * never taken for a dead one's: another pid namespace (a container), a pid hidden from /proc
 * (`hidepid`), and every pid on systems without /proc, where only `kill(pid, 0)` is asked.
 */
export * as Owner from "./owner.js"

import { readFileSync, readlinkSync } from "node:fs"
import { Context } from "effect"

/** What makes a pid one process on Linux. */
export interface Start {
  /** The kernel's boot id: pids and start times count from a boot. */
  readonly boot: string
  /** The pid namespace's inode: a pid means something only inside its namespace. */
  readonly namespace: string
  /** The start time in clock ticks since boot, field 22 of `/proc/<pid>/stat`. */
  readonly ticks: string
}

export interface Owner {
  readonly pid: number
  /** Absent where /proc cannot tell (not Linux, or /proc unreadable). */
  readonly start?: Start
}

/** `<pid>`, or `<pid>@<boot id>/<pid namespace>/<start ticks>`: how an owner is stored. */
const FORM = /^(\d+)(?:@([^/]+)\/([^/]+)\/(\d+))?$/

/**
 * An owner as stored in a row.
 * @example Owner.encode({ pid: 42 }) // "42"
 */
export const encode = (owner: Owner): string =>
  owner.start === undefined ? String(owner.pid) : `${owner.pid}@${owner.start.boot}/${owner.start.namespace}/${owner.start.ticks}`

/** A stored owner; undefined for text that is not one. */
export const decode = (text: string): Owner | undefined => {
  const match = FORM.exec(text)
  if (match === null) return undefined
  const [, pid, boot, namespace, ticks] = match
  return boot === undefined || namespace === undefined || ticks === undefined ? { pid: Number(pid) } : { pid: Number(pid), start: { boot, namespace, ticks } }
}

const read = (file: string) => {
  try {
    return readFileSync(file, "latin1")
  } catch {
    // Deliberate: a file /proc does not have (no such process, or no /proc) is an answer.
    return undefined
  }
}

/** The state and start ticks of a pid from `/proc/<pid>/stat`; the name in field 2 may hold spaces and parentheses. */
const stat = (pid: number | "self") => {
  const text = read(`/proc/${pid}/stat`)
  if (text === undefined) return undefined
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
  const [state, ticks] = [fields[0], fields[19]]
  return state === undefined || ticks === undefined ? undefined : { state, ticks }
}

const namespaceOf = () => {
  try {
    return readlinkSync("/proc/self/ns/pid").replace(/^pid:\[(\d+)\]$/, "$1")
  } catch {
    return undefined
  }
}

const startOf = (): Start | undefined => {
  const boot = read("/proc/sys/kernel/random/boot_id")?.trim()
  const namespace = namespaceOf()
  const ticks = stat("self")?.ticks
  return boot === undefined || namespace === undefined || ticks === undefined ? undefined : { boot, namespace, ticks }
}

const memo: { owner?: Owner } = {}

/** This process, read from /proc once. */
export const current = (): Owner => {
  if (memo.owner !== undefined) return memo.owner
  const start = startOf()
  memo.owner = start === undefined ? { pid: process.pid } : { pid: process.pid, start }
  return memo.owner
}

/** Whether a signal could reach the pid: it exists, maybe as another user's (EPERM). */
const signalable = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Whether the owner's process still runs, as far as this process can tell (what it cannot tell counts as alive).
 * @example Owner.alive(Owner.current()) // true
 */
export const alive = (owner: Owner): boolean => {
  const here = current().start
  if (owner.start === undefined || here === undefined) return signalable(owner.pid)
  // Every process of an earlier boot is gone (and its pids and ticks mean nothing now).
  if (owner.start.boot !== here.boot) return false
  if (owner.start.namespace !== here.namespace) return true
  const found = stat(owner.pid)
  if (found === undefined) return signalable(owner.pid)
  // Z: a zombie (exited, not yet reaped); X: dead.
  return found.ticks === owner.start.ticks && found.state !== "Z" && found.state !== "X"
}

/**
 * A running process as an owner, read now: for tests and tools that need another process's owner.
 * Undefined when it does not exist.
 */
export const of = (pid: number): Owner | undefined => {
  const here = current().start
  if (here === undefined) return signalable(pid) ? { pid } : undefined
  const found = stat(pid)
  return found === undefined ? undefined : { pid, start: { boot: here.boot, namespace: here.namespace, ticks: found.ticks } }
}

/** The owner this process records its rows under: itself, unless a test says otherwise. */
export const Current = Context.Reference<Owner>("@toolgate/Owner", { defaultValue: current })
