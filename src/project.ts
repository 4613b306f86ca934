/**
 * The project a Location belongs to: the worktree root (the nearest folder upwards that holds
 * `.git` or `.hg`, else the Location itself), identified by a hash of its real path so that
 * saved approvals and trust follow the repository, not the subfolder the agent was started in.
 * Trust is stored per project; a project file's allows count as asks until the person trusts it.
 */
export * as Project from "./project.js"

import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import path from "node:path"
import { Clock, Context, Effect, Layer } from "effect"
import { Location } from "./location/location.js"
import { Database } from "./storage/database.js"

export const REPO_MARKERS: ReadonlyArray<string> = [".git", ".hg"]
const ID_HEX_LENGTH = 24

export interface Interface {
  readonly id: string
  readonly worktree: string
  readonly trusted: Effect.Effect<boolean>
  readonly trust: Effect.Effect<void>
  readonly untrust: Effect.Effect<void>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Project") {}

/** The nearest folder at or above `directory` that holds a repository marker, or undefined. */
export const repositoryRoot = (directory: string): string | undefined => {
  const found = REPO_MARKERS.some((marker) => existsSync(path.join(directory, marker)))
  if (found) return directory
  const parent = path.dirname(directory)
  return parent === directory ? undefined : repositoryRoot(parent)
}

/** The stable id of a worktree root: `prj_` and a hash of its real path. */
export const idOf = (worktree: string): string => `prj_${createHash("sha256").update(worktree).digest("hex").slice(0, ID_HEX_LENGTH)}`

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const { directory } = yield* Location.Service
    const { db } = yield* Database.Service
    const worktree = repositoryRoot(directory) ?? directory
    const id = idOf(worktree)
    const now = yield* Clock.currentTimeMillis
    db.prepare("INSERT OR IGNORE INTO project (id, worktree, created_at) VALUES (?, ?, ?)").run(id, worktree, now)
    const trustedAt = db.prepare<[string], { trusted_at: number | null }>("SELECT trusted_at FROM project WHERE id = ?")
    const setTrust = db.prepare<[number | null, string]>("UPDATE project SET trusted_at = ? WHERE id = ?")
    return Service.of({
      id,
      worktree,
      trusted: Effect.sync(() => (trustedAt.get(id)?.trusted_at ?? null) !== null),
      trust: Effect.flatMap(Clock.currentTimeMillis, (at) => Effect.sync(() => void setTrust.run(at, id))),
      untrust: Effect.sync(() => void setTrust.run(null, id)),
    })
  }),
)
