/**
 * The files a skill brings besides its SKILL.md, for the model to read when the instructions
 * point at them: every regular file under the skill folder, subfolders included, in plain string
 * order of their relative paths (`a-b.md` before `a/x.md`), the first `limit` of them. The walk
 * visits folders in that same order and stops at `limit`, so a large folder costs little.
 * Hidden entries are skipped; linked folders are never entered (no loops, no leaving the folder);
 * a linked file is listed only when it resolves inside the skill folder. Only names are listed:
 * reading a file is the `read` tool's business, with its own permission.
 */
export * as SkillFiles from "./files.js"

import type { Dirent } from "node:fs"
import { readdir, realpath, stat } from "node:fs/promises"
import path from "node:path"
import { SkillDiscovery } from "./discovery.js"

/** The order of a folder's entries that makes a depth-first walk list full paths in string order. */
const key = (entry: Dirent) => (entry.isDirectory() ? `${entry.name}/` : entry.name)
const order = (a: Dirent, b: Dirent) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)

/** Whether a link resolves to a regular file inside `root` (a real path). */
const linkedFileInside = (root: string, link: string) =>
  realpath(link).then(
    async (real) => SkillDiscovery.inside(root, real) && (await stat(real)).isFile(),
    () => false,
  )

/**
 * Up to `limit` absolute paths of the files under `root` (the skill folder's real path), other
 * than its top-level SKILL.md. A folder that cannot be listed contributes nothing.
 */
export const list = async (root: string, limit: number): Promise<ReadonlyArray<string>> => {
  const found: string[] = []
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch((): Dirent[] => [])
    for (const entry of entries.filter((candidate) => !candidate.name.startsWith(".")).sort(order)) {
      if (found.length >= limit) return
      const full = path.join(folder, entry.name)
      if (entry.isDirectory()) await walk(full)
      const listed = entry.isFile() || (entry.isSymbolicLink() && (await linkedFileInside(root, full)))
      if (listed && !(folder === root && entry.name === SkillDiscovery.SKILL_FILE)) found.push(full)
    }
  }
  await walk(root)
  return found
}
