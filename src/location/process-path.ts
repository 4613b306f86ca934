/**
 * Paths whose meaning depends on the process that walks them. `/proc/self` is a link to the
 * walking process's own folder, so `/proc/self/cwd/config` is toolgate's working directory when
 * toolgate resolves it and the shell's when the shell writes it (`cd .git && echo x >
 * /proc/self/cwd/config` was judged as `./config` and wrote `.git/config`). The same holds for
 * `/proc/thread-self`, `/dev/fd` and `/dev/std*` (links to `/proc/self/fd`), every magic link
 * below a process's folder (`cwd`, `root`, `fd/N`, `exe`, `map_files/…`, which also change while
 * the process runs), and a link anywhere that leads into them (`p -> /proc/self/cwd`).
 * Fail closed: a walk that follows any link living on a procfs mount is process-relative, and
 * so is one that cannot be finished (too many links, an unreadable folder).
 */
export * as ProcessPath from "./process-path.js"

import { lstatSync, readlinkSync, statfsSync } from "node:fs"
import path from "node:path"
import { RealForm } from "./real-form.js"

/** `f_type` of a procfs mount (PROC_SUPER_MAGIC, linux/magic.h). */
export const PROC_SUPER_MAGIC = 0x9fa0

/** A walk that followed a link on procfs, or could not be finished. */
const PROCESS = Symbol("process")

/** Whether the folder `real` is on a procfs mount; an unreadable one counts as such. */
const onProc = (real: string): boolean => {
  try {
    return statfsSync(real).type === PROC_SUPER_MAGIC
  } catch {
    return true
  }
}

type Info = ReturnType<typeof lstatSync> | undefined | typeof PROCESS

const lstatOf = (at: string): Info => {
  try {
    return lstatSync(at, { throwIfNoEntry: false })
  } catch (error) {
    // A folder on the way that is a file: nothing below it exists, and nothing is followed.
    return (error as NodeJS.ErrnoException).code === "ENOTDIR" ? undefined : PROCESS
  }
}

/** The link text `text` walked from the real folder `base`, as the kernel walks it; PROCESS when it goes through procfs. */
const walk = (base: string, text: string, hops: { count: number }): string | typeof PROCESS => {
  const at = { real: path.isAbsolute(text) ? path.parse(text).root : base }
  for (const segment of text.split(path.sep)) {
    if (segment === "" || segment === ".") continue
    // `at` is a real path (every link before it was followed), so its parent is the kernel's `..`.
    if (segment === "..") {
      at.real = path.dirname(at.real)
      continue
    }
    const candidate = path.join(at.real, segment)
    const info = lstatOf(candidate)
    if (info === PROCESS) return PROCESS
    if (info === undefined || !info.isSymbolicLink()) {
      at.real = candidate
      continue
    }
    hops.count += 1
    if (hops.count > RealForm.MAX_LINK_HOPS || onProc(at.real)) return PROCESS
    const next = walk(at.real, readlinkSync(candidate), hops)
    if (next === PROCESS) return PROCESS
    at.real = next
  }
  return at.real
}

/**
 * Whether the kernel's walk of `absolute` follows a link on procfs (so another process would
 * reach another file), or cannot be finished here.
 * @example ProcessPath.is("/proc/self/cwd/config") // true
 * @example ProcessPath.is("/work/repo/.git/config") // false
 */
export const is = (absolute: string): boolean => walk(path.parse(absolute).root, absolute, { count: 0 }) === PROCESS
