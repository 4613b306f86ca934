/**
 * The project a Location belongs to: the worktree root (the nearest folder upwards that holds
 * `.git` or `.hg`, else the Location itself), identified by a hash of its real path so that
 * saved approvals follow the repository, not the subfolder the agent was started in; on a
 * PostgreSQL a team shares, by its root commit (project-identity.ts). Trust does
 * not: it is given to the Location's project config file, by its path in the Location (not where a link leads) and content hash, and the
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
import { ProjectIdentity } from "./project-identity.js"
import { Sql } from "./storage/sql.js"

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

/**
 * The outermost folder at or above `directory` that holds a repository marker, or undefined: the
 * project around a nested repository, or around a marker an agent made below (`mkdir x/.hg`).
 */
export const outermostRoot = (directory: string): string | undefined => {
  const nearest = repositoryRoot(directory)
  const parent = nearest === undefined ? directory : path.dirname(nearest)
  return nearest === undefined || parent === nearest ? nearest : (outermostRoot(parent) ?? nearest)
}

/** The stable id of a worktree root: `prj_` and a hash of its real path. */
export const idOf = (worktree: string): string => `prj_${createHash("sha256").update(worktree).digest("hex").slice(0, ID_HEX_LENGTH)}`

/** The trust of a project's config file as stored: its own record, the project's other files, the legacy mark. */
const TRUST = `SELECT
  (SELECT hash FROM trusted_config WHERE path = ?) AS hash,
  (SELECT content FROM trusted_config WHERE path = ?) AS content,
  (SELECT count(*) FROM trusted_config WHERE project_id = ? AND path <> ?) AS others,
  (SELECT trusted_at FROM project WHERE id = ?) AS legacy`

interface TrustRow {
  readonly hash: string | null
  readonly content: string | null
  readonly others: number
  readonly legacy: number | null
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const { directory } = yield* Location.Service
    const sql = yield* Sql.Service
    const worktree = repositoryRoot(directory) ?? directory
    const configFile = yield* ConfigProjectFile.read(directory)
    // A database shared by machines needs an id every checkout of the project computes alike.
    // A project file's `project.id` counts only once the person trusted the file as it is now.
    const trustedFile =
      configFile._tag === "Found" && sql.dialect === "postgres"
        ? (yield* sql.get<{ hash: string }>("SELECT hash FROM trusted_config WHERE path = ?", [configFile.file]))?.hash === configFile.hash
        : false
    const id = sql.dialect === "postgres" ? ProjectIdentity.shared(worktree, trustedFile ? ProjectIdentity.configured(configFile) : undefined, idOf(worktree)) : idOf(worktree)
    const now = yield* Clock.currentTimeMillis
    yield* sql.run("INSERT INTO project (id, worktree, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [id, worktree, now])
    // Trust is kept by the file as this project reads it, not by where it leads: a project whose
    // config is a link to another project's trusted file (or that ships such a link) is not trusted.
    const own = configFile._tag === "Found" ? configFile.file : undefined
    const clearLegacy = sql.run("UPDATE project SET trusted_at = NULL WHERE id = ?", [id])

    // One statement: every served call reads the status, and each statement costs its own round.
    const file = own ?? ""
    const status = Effect.map(sql.get<TrustRow>(TRUST, [file, file, id, file, id]), (row) =>
      ConfigTrust.classify({
        read: configFile,
        record: own === undefined || row?.hash === null || row?.hash === undefined ? undefined : { hash: row.hash, content: row.content ?? "" },
        others: (row?.others ?? 0) > 0,
        legacy: (row?.legacy ?? null) !== null,
      }),
    )
    const trust = Effect.gen(function* () {
      if (configFile._tag !== "Found") return yield* new NothingToTrustError({ directory })
      const before = yield* status
      const at = yield* Clock.currentTimeMillis
      yield* sql.transaction(
        Effect.andThen(
          sql.run(
            "INSERT INTO trusted_config (path, project_id, hash, content, trusted_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET project_id = excluded.project_id, hash = excluded.hash, content = excluded.content, trusted_at = excluded.trusted_at",
            [configFile.file, id, configFile.hash, configFile.text, at],
          ),
          clearLegacy,
        ),
      )
      return before
    }).pipe(Effect.withSpan("Project.trust"))
    const untrust = sql.transaction(Effect.andThen(own === undefined ? Effect.void : sql.run("DELETE FROM trusted_config WHERE path = ?", [own]), clearLegacy)).pipe(Effect.asVoid, Effect.withSpan("Project.untrust"))

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
