/**
 * Whether a git process may still be working in the shadow repository: what decides that an
 * `index.lock` left there is abandoned. Every git toolgate runs names the repository in its
 * arguments (`--git-dir <directory>`), so on Linux a lock is abandoned at once when no process
 * names it there, or works from inside it, by /proc. Where /proc cannot tell (not Linux, or
 * unreadable) the answer is unknown, and the caller waits for the lock to age instead.
 * Gotcha: a process of another user hidden by `hidepid` is not seen; the repository lives in the
 * user's own data folder, so none works in it.
 */
export * as LockHolder from "./lock-holder.js"

import { readdirSync, readFileSync, readlinkSync } from "node:fs"
import path from "node:path"

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, "latin1")
  } catch {
    // Deliberate: a process that ended while we looked holds nothing.
    return undefined
  }
}

const cwdOf = (pid: string): string | undefined => {
  try {
    return readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    // Deliberate: ended, or another user's: such a process does not work in our repository.
    return undefined
  }
}

const inside = (folder: string, place: string) => place === folder || place.startsWith(`${folder}${path.sep}`)

/**
 * True when some running process names `directory` in its arguments or works inside it; false
 * when none does; undefined when this system cannot tell.
 * @example LockHolder.running("/home/me/.local/share/toolgate/snapshot/prj_1") // false after the git that held it died
 */
export const running = (directory: string): boolean | undefined => {
  let pids: ReadonlyArray<string>
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name))
  } catch {
    return undefined
  }
  if (pids.length === 0) return undefined
  const self = String(process.pid)
  for (const pid of pids) {
    if (pid === self) continue
    const args = read(`/proc/${pid}/cmdline`)?.split("\0") ?? []
    if (args.some((arg) => inside(directory, arg))) return true
    const cwd = cwdOf(pid)
    if (cwd !== undefined && inside(directory, cwd)) return true
  }
  return false
}
