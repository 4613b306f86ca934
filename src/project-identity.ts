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

/**
 * History as its commits are, not as the repository asks to see it: replace refs and a grafts
 * file rewrite a commit's parents, so a folder with one forged commit could name any root.
 */
const AS_STORED = { GIT_NO_REPLACE_OBJECTS: "1", GIT_GRAFT_FILE: "/nonexistent/toolgate-no-grafts" }

const git = (worktree: string, args: ReadonlyArray<string>) => {
  try {
    return execFileSync("git", ["-C", worktree, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: GIT_TIMEOUT_MS, env: { ...process.env, ...AS_STORED } }).trim()
  } catch {
    // Deliberate: no git, no repository, no commit yet: the project has no root commit.
    return undefined
  }
}

/**
 * The root commit of the repository at `worktree`, or undefined: the one its mainline (first
 * parents from HEAD) starts from. A history merged in (a subtree, a vendored library) brings
 * roots of its own, and two repositories that merged one upstream must not become one project.
 */
export const rootCommit = (worktree: string): string | undefined => {
  if (git(worktree, ["rev-parse", "--is-shallow-repository"]) !== "false") return undefined
  const roots = git(worktree, ["rev-list", "--first-parent", "--max-parents=0", "HEAD"])?.split("\n").filter((line) => /^[0-9a-f]{40,64}$/.test(line))
  return roots?.length === 1 ? roots[0] : undefined
}

/** The `project.id` of a project file, if it names one. */
export const configured = (file: ConfigProjectFile.Read): string | undefined => {
  if (file._tag !== "Found") return undefined
  const parsed = Jsonc.parse(file.text)
  const id = "value" in parsed ? (parsed.value as { project?: { id?: unknown } } | null)?.project?.id : undefined
  return typeof id === "string" && id.trim() !== "" ? id.trim() : undefined
}

/**
 * The shared id of the project at `worktree`: its root commit's, else that of `named` (the
 * `project.id` of its project file, given only when the person trusted that file: a folder anyone
 * hands over must not claim a team project's approvals by naming it), else `byPath`, its id on
 * one machine.
 */
export const shared = (worktree: string, named: string | undefined, byPath: string): string => {
  const root = rootCommit(worktree)
  if (root !== undefined) return hashed("git", root)
  return named === undefined ? byPath : hashed("config", named)
}
