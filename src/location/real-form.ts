/**
 * Where an absolute path leads on disk, the way the kernel walks it, for a path that need not
 * exist yet: the real path of its deepest existing ancestor joined with the rest, following a
 * symbolic link in any component, dangling or not. A dangling link's target is walked as the
 * kernel walks it: each `..` leaves the real form of what comes before it, so `y -> d/../x` with
 * `d -> /elsewhere/deep` leads to `/elsewhere/x`, not to the `x` beside `y` that `path.resolve`
 * makes of it on paper. One function for every caller (file tools, toolgate's own paths, rule
 * spellings), so no two of them can disagree about where a path leads.
 * Synchronous on purpose: a handful of metadata calls, each far cheaper than a thread-pool round
 * trip (an apply_patch of 200 files resolves 200 targets twice; see docs/decisions.md).
 */
export * as RealForm from "./real-form.js"

import { lstatSync, readlinkSync, realpathSync } from "node:fs"
import path from "node:path"

export const MAX_LINK_HOPS = 40

/** Why a path cannot be walked. */
export const FAILURES = ["non_directory_ancestor", "too_many_links", "too_long", "not_accessible"] as const
export type Failure = (typeof FAILURES)[number]

const code = (error: unknown) => (error as NodeJS.ErrnoException).code

/** File-system errors that mean "this path cannot be used", as failures; anything else is a defect. */
const ERRNO_FAILURES: Readonly<Record<string, Failure>> = {
  ENOTDIR: "non_directory_ancestor",
  ELOOP: "too_many_links",
  ENAMETOOLONG: "too_long",
  EACCES: "not_accessible",
  EPERM: "not_accessible",
}

export const isFailure = (value: string): value is Failure => (FAILURES as ReadonlyArray<string>).includes(value)

/** `lstat`, with a missing path as undefined and an unusable one as its failure. */
const lstatOrFailure = (candidate: string) => {
  try {
    return lstatSync(candidate, { throwIfNoEntry: false })
  } catch (error) {
    const failure = ERRNO_FAILURES[code(error) ?? ""]
    if (failure === undefined) throw error
    return failure
  }
}

/** A link's text `target`, read from the folder `base` (a real path), walked as the kernel walks it. */
const walk = (base: string, target: string, hops: number): string | Failure => {
  const start = { at: path.isAbsolute(target) ? path.parse(target).root : base }
  for (const segment of target.split(path.sep)) {
    if (segment === "" || segment === ".") continue
    if (segment !== "..") {
      start.at = path.join(start.at, segment)
      continue
    }
    const real = of(start.at, hops)
    if (isFailure(real)) return real
    start.at = path.dirname(real)
  }
  return of(start.at, hops)
}

/**
 * The real form of `absolute` (see the module docblock), or why it cannot be walked.
 * @example RealForm.of("/work/y") // "/elsewhere/x" when /work/y -> d/../x and /work/d -> /elsewhere/deep
 */
export const of = (absolute: string, hops = 0): string | Failure => {
  if (hops > MAX_LINK_HOPS) return "too_many_links"
  try {
    return realpathSync.native(absolute)
  } catch (error) {
    const failure = ERRNO_FAILURES[code(error) ?? ""]
    if (failure !== undefined) return failure
    if (code(error) !== "ENOENT") throw error
  }
  const parent = path.dirname(absolute)
  if (parent === absolute) return absolute
  const realParent = of(parent, hops)
  if (isFailure(realParent)) return realParent
  const candidate = path.join(realParent, path.basename(absolute))
  const info = lstatOrFailure(candidate)
  if (typeof info === "string") return info
  if (info === undefined || !info.isSymbolicLink()) return candidate
  // A dangling link (realpath failed on it): follow its target, wherever that points.
  return walk(realParent, readlinkSync(candidate), hops + 1)
}

/** The real form of `absolute`, or `absolute` itself when it cannot be walked (for naming, not for judging). */
export const orSelf = (absolute: string): string => {
  const real = of(absolute)
  return isFailure(real) ? absolute : real
}
