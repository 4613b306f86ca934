/**
 * Directory listings and not-found suggestions for `read`. Entries are classified by their own
 * type as `readdir` reports it: a symbolic link is listed as a plain name even when it points to a
 * directory (following it could leave the Location). Directories come first with a trailing `/`,
 * then everything else; each group is sorted by plain UTF-16 code-unit order (`Array.sort`), so
 * the order is stable across locales. Paging is the same rule as text pages (`fit`).
 */
export * as ReadDirectory from "./directory.js"

import type { Dirent } from "node:fs"
import { readdir } from "node:fs/promises"

/** Suggestions shown under a not-found error. */
export const MAX_SUGGESTIONS = 3

/** Entry names as shown: directories first with a trailing `/`, then the rest, each group by code unit. */
export const entries = async (directory: string): Promise<ReadonlyArray<string>> => {
  const found: ReadonlyArray<Dirent> = await readdir(directory, { withFileTypes: true })
  const folders = found.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()
  const files = found.filter((entry) => !entry.isDirectory()).map((entry) => entry.name).sort()
  return [...folders.map((name) => `${name}/`), ...files]
}

/**
 * How many of `lines` (from the first) fit in one page: at most `limit`, and each line's UTF-8
 * bytes plus one for its newline add up to at most `maxBytes`; at least one line when any exists.
 */
export const fit = (lines: ReadonlyArray<string>, limit: number, maxBytes: number): number => {
  const budget = { bytes: 0, count: 0 }
  for (const line of lines.slice(0, limit)) {
    const size = Buffer.byteLength(line, "utf8") + 1
    if (budget.count > 0 && budget.bytes + size > maxBytes) break
    budget.bytes += size
    budget.count += 1
  }
  return budget.count
}

/**
 * Names in `directory` that contain `name` or are contained in it, case-insensitively, sorted by
 * code unit, at most `MAX_SUGGESTIONS`; none when the directory cannot be listed.
 */
export const similar = async (directory: string, name: string): Promise<ReadonlyArray<string>> => {
  const names = await readdir(directory).catch(() => [] as string[])
  const wanted = name.toLowerCase()
  return names
    .filter((entry) => {
      const lower = entry.toLowerCase()
      return lower.includes(wanted) || wanted.includes(lower)
    })
    .sort()
    .slice(0, MAX_SUGGESTIONS)
}
