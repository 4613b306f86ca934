/**
 * The project a Location belongs to: the worktree root (the nearest folder upwards that holds
 * `.git` or `.hg`, else the Location itself), identified by a hash of its real path so that
 * saved approvals follow the repository, not the subfolder the agent was started in. Trust does
 * not: it is given to the Location's project config file, by real path and content hash, and the
 * file is read once here so that Config parses the very bytes trust was decided on (ConfigTrust).
 * Until the file is trusted with its current content, its allows count as asks.
 */
export * as Project from "./project.js"

import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import path from "node:path"
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { ConfigProjectFile } from "./config/project-file.js"
import { ConfigTrust } from "./config/trust.js"
import { Location } from "./location/location.js"
import { Database } from "./storage/database.js"

export const REPO_MARKERS: ReadonlyArray<string> = [".git", ".hg"]
const ID_HEX_LENGTH = 24

export const Messages = {
  nothingToTrust: (directory: string) =>
    `Nothing to trust in ${directory}: it has no toolgate.json or .toolgate/toolgate.json (trust is given to a config file and its content, not to a folder)`,
} as const

export class NothingToTrustError extends Schema.TaggedError<NothingToTrustError>()("Project.NothingToTrustError", {
  directory: Schema.String,
}) {
  override get message() {
    return Messages.nothingToTrust(this.directory)
  }
}

export interface Interface {
  readonly id: string
  readonly worktree: string
  /** The Location's project config file as read once, when the layer was built. */
  readonly configFile: ConfigProjectFile.Read
  /** Whether that file is trusted with exactly the content read; until then its allows count as asks. */
  readonly trusted: Effect.Effect<boolean>
  readonly status: Effect.Effect<ConfigTrust.Status>
  /** The line a person should read on stderr when the file does not count (changed, new), if any. */
  readonly notice: Effect.Effect<string | undefined>
  /** Trusts the file with the content read. Returns how it stood before, to show what changed. */
  readonly trust: Effect.Effect<ConfigTrust.Status, NothingToTrustError>
  /** Takes back the trust of the file (and an older toolgate's trust of the whole project). */
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
    const configFile = yield* ConfigProjectFile.read(directory)
    db.prepare("INSERT OR IGNORE INTO project (id, worktree, created_at) VALUES (?, ?, ?)").run(id, worktree, now)
    const entry = db.prepare<[string], ConfigTrust.Entry>("SELECT hash, content FROM trusted_config WHERE path = ?")
    const others = db.prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM trusted_config WHERE project_id = ? AND path <> ?")
    const legacy = db.prepare<[string], { trusted_at: number | null }>("SELECT trusted_at FROM project WHERE id = ?")
    const save = db.prepare<[string, string, string, string, number]>(
      "INSERT INTO trusted_config (path, project_id, hash, content, trusted_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET project_id = excluded.project_id, hash = excluded.hash, content = excluded.content, trusted_at = excluded.trusted_at",
    )
    const remove = db.prepare<[string]>("DELETE FROM trusted_config WHERE path = ?")
    const clearLegacy = db.prepare<[string]>("UPDATE project SET trusted_at = NULL WHERE id = ?")
    const real = configFile._tag === "Found" ? configFile.real : undefined

    const status = Effect.sync(() =>
      ConfigTrust.classify({
        read: configFile,
        record: real === undefined ? undefined : entry.get(real),
        others: (others.get(id, real ?? "")?.n ?? 0) > 0,
        legacy: (legacy.get(id)?.trusted_at ?? null) !== null,
      }),
    )
    const trust = Effect.gen(function* () {
      if (configFile._tag !== "Found") return yield* new NothingToTrustError({ directory })
      const before = yield* status
      const at = yield* Clock.currentTimeMillis
      db.transaction(() => {
        save.run(configFile.real, id, configFile.hash, configFile.text, at)
        clearLegacy.run(id)
      })()
      return before
    }).pipe(Effect.withSpan("Project.trust"))
    const untrust = Effect.sync(() =>
      db.transaction(() => {
        if (real !== undefined) remove.run(real)
        clearLegacy.run(id)
      })(),
    ).pipe(Effect.withSpan("Project.untrust"))

    return Service.of({
      id,
      worktree,
      configFile,
      status,
      trusted: Effect.map(status, (current) => current._tag === "Trusted"),
      notice: Effect.map(status, (current) => ConfigTrust.notice(current, directory)),
      trust,
      untrust,
    })
  }),
)

/**
 * Prints the project's notice, if any, with `write` (the CLI's stderr), before a command runs.
 * @example Effect.andThen(Project.announce(io.stderr), program)
 */
export const announce = (write: (line: string) => void): Effect.Effect<void, never, Service> =>
  Effect.flatMap(Service, (project) => Effect.map(project.notice, (line) => (line === undefined ? undefined : write(line))))
