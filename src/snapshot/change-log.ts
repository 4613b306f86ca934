/**
 * The per-session log of everything toolgate changed in the work tree, one row per change in
 * the order they started: a file tool's call (`tool`, only the paths it named), a shell command
 * (`shell`, whatever differed after it), a `revert` and an `unrevert`. A row is opened with the
 * tree before and closed with the tree after and the per-path states that changed; a row never
 * closed (a process that died mid-call) is open forever and counts for nothing.
 * The table is created here, if missing, until it moves into a numbered migration of
 * `storage/migrations.ts` (the same statement, which is why it says IF NOT EXISTS).
 */
export * as ChangeLog from "./change-log.js"

import type { Database } from "../storage/database.js"
import type { TreeEntry } from "./tree-entry.js"

export const TABLE = `
  CREATE TABLE IF NOT EXISTS snapshot_change (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('tool', 'shell', 'revert', 'unrevert')),
    message_id TEXT,
    before_tree TEXT NOT NULL,
    after_tree TEXT,
    changes TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS snapshot_change_session ON snapshot_change (session_id, id);
`

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
}

export interface OpenInput {
  readonly sessionID: string
  readonly kind: Kind
  readonly messageID?: string
  readonly before: string
  readonly at: number
}

export interface Log {
  /** Opens a row and returns its id. */
  readonly open: (input: OpenInput) => number
  readonly close: (id: number, after: string, changes: ReadonlyArray<TreeEntry.Change>) => void
  /** Every row of the session, oldest first. */
  readonly list: (sessionID: string) => ReadonlyArray<Entry>
}

interface Row {
  readonly id: number
  readonly kind: Kind
  readonly message_id: string | null
  readonly before_tree: string
  readonly after_tree: string | null
  readonly changes: string | null
}

const toEntry = (row: Row): Entry => ({
  id: row.id,
  kind: row.kind,
  messageID: row.message_id ?? undefined,
  before: row.before_tree,
  after: row.after_tree ?? undefined,
  changes: row.changes === null ? undefined : (JSON.parse(row.changes) as ReadonlyArray<TreeEntry.Change>),
})

/** The log on this connection, creating its table when missing. */
export const make = (db: Database.Connection): Log => {
  db.exec(TABLE)
  const insert = db.prepare<[string, Kind, string | null, string, number]>(
    "INSERT INTO snapshot_change (session_id, kind, message_id, before_tree, created_at) VALUES (?, ?, ?, ?, ?)",
  )
  const update = db.prepare<[string, string, number]>("UPDATE snapshot_change SET after_tree = ?, changes = ? WHERE id = ?")
  const select = db.prepare<[string], Row>("SELECT id, kind, message_id, before_tree, after_tree, changes FROM snapshot_change WHERE session_id = ? ORDER BY id")
  return {
    open: (input) => Number(insert.run(input.sessionID, input.kind, input.messageID ?? null, input.before, input.at).lastInsertRowid),
    close: (id, after, changes) => void update.run(after, JSON.stringify(changes), id),
    list: (sessionID) => select.all(sessionID).map(toEntry),
  }
}
