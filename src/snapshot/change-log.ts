/**
 * The per-session log of everything toolgate changed in the work tree, one row per change in
 * the order they started: a file tool's call (`tool`, only the paths it named), a shell command
 * (`shell`, whatever differed after it), a `revert` and an `unrevert`. A row is opened with the
 * tree before and closed with the tree after and the per-path states that changed; a row never
 * closed (a process that died mid-call) is open forever and counts for nothing.
 * The table is migration 10 of `storage/migrations.ts`.
 */
export * as ChangeLog from "./change-log.js"

import { Effect } from "effect"
import type { Sql } from "../storage/sql.js"
import type { TreeEntry } from "./tree-entry.js"


export type Kind = "tool" | "shell" | "revert" | "unrevert"

export interface Entry {
  readonly id: number
  readonly kind: Kind
  /** The assistant message of a tool or shell change; the message reverted to, for a revert. */
  readonly messageID: string | undefined
  readonly before: string
  /** Undefined while open. */
  readonly after: string | undefined
  /** The paths this change wrote, with their states before and after; undefined while open. */
  readonly changes: ReadonlyArray<TreeEntry.Change> | undefined
  /** The paths it writes (Location-relative): a file tool's, a revert's or an unrevert's; absent for a shell command (any path). */
  readonly paths?: ReadonlyArray<string>
  /** A revert's or unrevert's: the tree it restores `paths` from. */
  readonly target?: string
  /** The process that opened it (`Owner.encode`); absent on rows older than the column. */
  readonly owner?: string
}

export interface OpenInput {
  readonly sessionID: string
  readonly kind: Kind
  readonly messageID?: string
  readonly before: string
  readonly at: number
  readonly paths?: ReadonlyArray<string>
  readonly target?: string
  readonly owner?: string
}

export interface Log {
  /** Opens a row and returns its id. */
  readonly open: (input: OpenInput) => Effect.Effect<number>
  readonly close: (id: number, after: string, changes: ReadonlyArray<TreeEntry.Change>) => Effect.Effect<void>
  /** Every row of the session, oldest first. */
  readonly list: (sessionID: string) => Effect.Effect<ReadonlyArray<Entry>>
  /** The rows still open of every session of the Location `location`, oldest first: what a call checks before it starts. */
  readonly unclosed: (location: string) => Effect.Effect<ReadonlyArray<Entry & { readonly sessionID: string }>>
}

interface Row {
  readonly id: number
  readonly kind: Kind
  readonly message_id: string | null
  readonly before_tree: string
  readonly after_tree: string | null
  readonly changes: string | null
  readonly target_tree: string | null
  readonly paths: string | null
  readonly owner: string | null
}

const toEntry = (row: Row): Entry => ({
  id: row.id,
  kind: row.kind,
  messageID: row.message_id ?? undefined,
  before: row.before_tree,
  after: row.after_tree ?? undefined,
  changes: row.changes === null ? undefined : (JSON.parse(row.changes) as ReadonlyArray<TreeEntry.Change>),
  ...(row.paths === null ? {} : { paths: JSON.parse(row.paths) as ReadonlyArray<string> }),
  ...(row.target_tree === null ? {} : { target: row.target_tree }),
  ...(row.owner === null ? {} : { owner: row.owner }),
})

/** The log in `sql`'s database. */
export const make = (sql: Sql.Interface): Log => ({
  open: (input) =>
    Effect.map(
      sql.get<{ id: number }>(
        "INSERT INTO snapshot_change (session_id, kind, message_id, before_tree, created_at, target_tree, paths, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        [
          input.sessionID,
          input.kind,
          input.messageID ?? null,
          input.before,
          input.at,
          input.target ?? null,
          input.paths === undefined ? null : JSON.stringify(input.paths),
          input.owner ?? null,
        ],
      ),
      (row) => Number(row?.id),
    ),
  close: (id, after, changes) => Effect.asVoid(sql.run("UPDATE snapshot_change SET after_tree = ?, changes = ? WHERE id = ?", [after, JSON.stringify(changes), id])),
  list: (sessionID) =>
    Effect.map(sql.all<Row>("SELECT id, kind, message_id, before_tree, after_tree, changes, target_tree, paths, owner FROM snapshot_change WHERE session_id = ? ORDER BY id", [sessionID]), (rows) => rows.map(toEntry)),
  unclosed: (location) =>
    Effect.map(
      sql.all<Row & { readonly session_id: string }>(
        "SELECT c.session_id, c.id, c.kind, c.message_id, c.before_tree, c.after_tree, c.changes, c.target_tree, c.paths, c.owner FROM snapshot_change c JOIN session s ON s.id = c.session_id WHERE c.after_tree IS NULL AND s.location = ? ORDER BY c.id",
        [location],
      ),
      (rows) => rows.map((row) => ({ ...toEntry(row), sessionID: row.session_id })),
    ),
})
