/**
 * Where the files of a copying program land when its destination is a folder (`cp a b dir`,
 * `mv x .`, `cp -r tpl/. .`, `rsync -a src/ dst`), read from the disk before the command runs so
 * that the tool can judge each landing path as a written file: the destination's folder holds
 * each source under its own name (or its whole path, for `cp --parents`), and a folder source
 * copied or moved with its tree brings every path in it. A plain glob source (`src/*`) is
 * expanded here against its folder, dot files included (a superset of what bash matches).
 * Unknowable (undefined) when a source is not static, a glob is not plain, or there are more
 * than MAX_PATHS paths. Gotcha: both `dst/name/…` and `dst/…` are given for a tree, since
 * `cp -r src dst` and rsync's `src/` land it under either, depending on whether `dst` exists.
 */
export * as BashLanding from "./landing.js"

import { type Dirent, readdirSync, statSync } from "node:fs"
import path from "node:path"
import { ProcessPath } from "../../../location/process-path.js"
import type { BashCommand } from "./command.js"
import { BashPaths } from "./paths.js"

/** The most landing paths one target may have before it is unknowable (it then asks): a tree of about 10 000 entries, ~0.3 s to resolve. */
export const MAX_PATHS = 20_000

const GLOB_CHARS = /[*?[]/

/** A plain glob segment as a regular expression: `*`, `?` and any bracket as wildcards (a superset). */
const patternOf = (segment: string, caseInsensitive: boolean): RegExp => {
  const body = segment.replace(/\[[^\]]*\]?|[*?]|[^*?[]+/g, (part) => (part === "*" ? ".*" : part === "?" || part.startsWith("[") ? "." : part.replace(/[.+^${}()|\\/-]/g, "\\$&")))
  return new RegExp(`^${body}$`, caseInsensitive ? "is" : "s")
}

/** A folder's entries, or undefined when it cannot be read; none when it does not exist. */
const entries = (folder: string): ReadonlyArray<Dirent> | undefined => {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === "ENOENT" || code === "ENOTDIR" ? [] : undefined
  }
}

/** What is at `at`, links followed: a path under a file is a file's; one that cannot be seen may be a folder. */
const kindOf = (at: string): "folder" | "file" | "missing" => {
  try {
    const stats = statSync(at, { throwIfNoEntry: false })
    return stats === undefined ? "missing" : stats.isDirectory() ? "folder" : "file"
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOTDIR" ? "file" : "folder"
  }
}

const isFolder = (at: string) => kindOf(at) === "folder"

/** A static source's name in the folder (`a/b/` is `b`); "" when it brings only what it holds (`src/.`). */
const nameOf = (written: string) => {
  const trimmed = written.replace(/\/+$/, "")
  const name = path.basename(trimmed)
  return trimmed === "" || name === "." || name === ".." ? "" : name
}

export interface Options {
  readonly caseInsensitive: boolean
}

/**
 * The absolute paths the sources may land on inside `destination` (absolute), the sources being
 * read from `base`: none when the destination is a file (the program writes it, judged as the
 * target itself); undefined when unknowable.
 * @example BashLanding.paths("/repo", "/repo", [{ path: "evil/.envrc", tree: false }], { caseInsensitive: false }) // ["/repo/.envrc"]
 */
export const paths = (destination: string, base: string, sources: ReadonlyArray<BashCommand.Source>, options: Options): ReadonlyArray<string> | undefined => {
  if (kindOf(destination) === "file") return []
  const found = new Set<string>()
  const add = (at: string) => {
    found.add(at)
    return found.size <= MAX_PATHS
  }
  /**
   * Every path under `folder`, relative to it; false past MAX_PATHS or when a folder cannot be
   * read. A link to a folder is walked too (`cp -rL` and `rsync -L` copy what it holds; a loop
   * ends at MAX_PATHS and asks).
   */
  const tree = (folder: string, into: ReadonlyArray<string>, relative = ""): boolean => {
    const listed = entries(path.join(folder, relative))
    if (listed === undefined) return false
    for (const entry of listed) {
      const inner = path.join(relative, entry.name)
      if (!into.every((root) => add(path.join(root, inner)))) return false
      const folderish = entry.isDirectory() || (entry.isSymbolicLink() && isFolder(path.join(folder, inner)))
      if (folderish && !tree(folder, into, inner)) return false
    }
    return true
  }
  const land = (source: BashCommand.Source, written: string): boolean => {
    const name = source.parents === true ? path.normalize(written).replace(/^(?:\.\.?\/|\/)+/, "") : nameOf(written)
    if (name !== "" && !add(path.join(destination, name))) return false
    if (!source.tree) return true
    // What a folder holds is listed here, in toolgate's process: a source the shell reads elsewhere (`/proc/self/cwd/.`) cannot be.
    const froms = BashPaths.both(base, written)
    if (froms === undefined || froms.some(ProcessPath.is)) return false
    return froms.every((from) => !isFolder(from) || tree(from, distinct([path.join(destination, name), destination])))
  }
  for (const source of sources) {
    if (source.path !== undefined) {
      if (!land(source, source.path)) return undefined
      continue
    }
    const matched = source.glob === undefined ? undefined : expand(base, source.glob, options)
    if (matched === undefined) return undefined
    for (const written of matched) if (!land(source, written)) return undefined
  }
  return [...found]
}

/**
 * The paths a plain glob (`src/*.txt`, only its last segment a pattern) may match from `base`,
 * spelled as the command would (`src/a.txt`), dot files included (a superset of what bash
 * matches); undefined when its folder is a pattern too, cannot be read here, or holds more than
 * MAX_PATHS matches.
 * @example BashLanding.expand("/repo", ".l*", { caseInsensitive: false }) // [".local"]
 */
export const expand = (base: string, glob: string, options: Options): ReadonlyArray<string> | undefined => {
  const slash = glob.lastIndexOf("/")
  const folder = slash === -1 ? "." : glob.slice(0, slash) || "/"
  if (GLOB_CHARS.test(folder)) return undefined
  const pattern = patternOf(glob.slice(slash + 1), options.caseInsensitive)
  const folders = BashPaths.both(base, folder)
  if (folders === undefined || folders.some(ProcessPath.is)) return undefined
  const matched: string[] = []
  for (const at of folders) {
    const listed = entries(at)
    if (listed === undefined) return undefined
    for (const entry of listed) if (pattern.test(entry.name)) matched.push(path.join(folder, entry.name))
    if (matched.length > MAX_PATHS) return undefined
  }
  return distinct(matched)
}

const distinct = (values: ReadonlyArray<string>) => [...new Set(values)]
