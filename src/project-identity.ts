/**
 * The id of a project on a database a team shares, which must be the same on every machine: the
 * hash of its repository's first (root) commit, as OpenCode does; where there is no commit (a
 * folder without git history, or a shallow clone, whose oldest commit is only where the copy
 * stopped) the `project.id` of its project file; else, as on one machine, the hash of its path.
 * Each kind hashes under its own prefix, so an id a project file names can never equal a
 * repository's. On the SQLite file of one person the id stays the path's (Project.idOf), so
 * approvals and trust saved before keep their project.
 */
export * as ProjectIdentity from "./project-identity.js"

import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import type { ConfigProjectFile } from "./config/project-file.js"
import { Jsonc } from "./config/jsonc.js"

const ID_HEX_LENGTH = 24
/** How long git may take to name the root commit before the project counts as having none. */
const GIT_TIMEOUT_MS = 5_000

const hashed = (kind: string, value: string) => `prj_${createHash("sha256").update(`${kind}:${value}`).digest("hex").slice(0, ID_HEX_LENGTH)}`

const git = (worktree: string, args: ReadonlyArray<string>) => {
  try {
    return execFileSync("git", ["-C", worktree, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: GIT_TIMEOUT_MS }).trim()
  } catch {
    // Deliberate: no git, no repository, no commit yet: the project has no root commit.
    return undefined
  }
}

/** The root commit of the repository at `worktree` (the smallest, when histories were merged), or undefined. */
export const rootCommit = (worktree: string): string | undefined => {
  if (git(worktree, ["rev-parse", "--is-shallow-repository"]) !== "false") return undefined
  const roots = git(worktree, ["rev-list", "--max-parents=0", "HEAD"])?.split("\n").filter((line) => /^[0-9a-f]{40,64}$/.test(line))
  return roots === undefined || roots.length === 0 ? undefined : [...roots].sort()[0]
}

/** The `project.id` of a project file, if it names one. */
export const configured = (file: ConfigProjectFile.Read): string | undefined => {
  if (file._tag !== "Found") return undefined
  const parsed = Jsonc.parse(file.text)
  const id = "value" in parsed ? (parsed.value as { project?: { id?: unknown } } | null)?.project?.id : undefined
  return typeof id === "string" && id.trim() !== "" ? id.trim() : undefined
}

/** The shared id of the project at `worktree`; `byPath` is its id on one machine, the last resort. */
export const shared = (worktree: string, file: ConfigProjectFile.Read, byPath: string): string => {
  const root = rootCommit(worktree)
  if (root !== undefined) return hashed("git", root)
  const named = configured(file)
  return named === undefined ? byPath : hashed("config", named)
}
