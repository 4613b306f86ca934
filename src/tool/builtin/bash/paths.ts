/**
 * Where a path a shell command names really leads. The shell hands `link/../x` to the kernel,
 * which resolves `..` after following `link`; `path.resolve` removes `link/..` on paper. `cd` in
 * bash's default (logical) mode does the paper version, `cd -P` and every `open` the kernel's.
 * So a command path is judged at both places: lexical and physical.
 */
export * as BashPaths from "./paths.js"

import { realpathSync } from "node:fs"
import path from "node:path"
import { ProcessPath } from "../../../location/process-path.js"

/** The real path of `at`, or `at` itself when it does not exist (yet) or cannot be read. */
const real = (at: string): string => {
  try {
    return realpathSync.native(at)
  } catch {
    return at
  }
}

/**
 * `relative` from `base` as the kernel resolves it: each `..` applies to the real path of what
 * comes before it, so a link followed by `..` leaves from the link's target. Undefined when a
 * `..` leaves a path whose real form depends on the process (`/proc/self/cwd/..` is the parent of
 * the shell's folder, not of toolgate's; ProcessPath).
 * @example BashPaths.physical("/work", "link/../x") // "/outside/x" when /work/link → /outside/sub
 */
export const physical = (base: string, relative: string): string | undefined => {
  const start = path.isAbsolute(relative) ? path.parse(relative).root : base
  return relative.split("/").reduce<string | undefined>((at, segment) => {
    if (at === undefined || segment === "" || segment === ".") return at
    if (segment === "..") return ProcessPath.is(at) ? undefined : path.dirname(real(at))
    return path.join(at, segment)
  }, start)
}

/**
 * The lexical and the physical resolution of `relative` from `base` (one entry when they agree);
 * undefined when the physical one cannot be known here.
 * @example BashPaths.both("/work", "a/b") // ["/work/a/b"]
 */
export const both = (base: string, relative: string): ReadonlyArray<string> | undefined => {
  const lexical = path.resolve(base, relative)
  const kernel = physical(base, relative)
  if (kernel === undefined) return undefined
  return lexical === kernel ? [lexical] : [lexical, kernel]
}
