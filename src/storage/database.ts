/**
 * The SQLite database at `<data dir>/toolgate.db` (better-sqlite3, synchronous and fast enough
 * to call inside an Effect). Opened in WAL mode with a busy timeout and foreign keys on, then
 * migrated to `Migrations.VERSION`. A file that is not a database, cannot be opened, or was written
 * by a newer toolgate is a clear `OpenError` naming the path: never a silent downgrade or reset.
 */
export * as Database from "./database.js"

import { mkdirSync } from "node:fs"
import path from "node:path"
import BetterSqlite3 from "better-sqlite3"
import { Context, Effect, Layer, Schema } from "effect"
import { Migrations } from "./migrations.js"
import { Sql } from "./sql.js"
import { SqliteAddon } from "./sqlite-addon.js"
import { SqliteSql } from "./sqlite.js"

export const BUSY_TIMEOUT_MS = 5_000

export const Messages = {
  open: (file: string, detail: string) => `Cannot open the database ${file}: ${detail}`,
  newer: (version: number, known: number) => `its schema version ${version} is newer than this toolgate knows (${known}); upgrade toolgate`,
} as const

export class OpenError extends Schema.TaggedError<OpenError>()("Database.OpenError", {
  path: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.open(this.path, this.detail)
  }
}

export type Connection = BetterSqlite3.Database

export interface Interface {
  readonly path: string
  readonly db: Connection
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Database") {}

const version = (db: Connection) => db.pragma("user_version", { simple: true }) as number

const refuseNewer = (db: Connection, file: string) => {
  const found = version(db)
  if (found > Migrations.VERSION) throw new OpenError({ path: file, detail: Messages.newer(found, Migrations.VERSION) })
}

/**
 * Applies the missing migrations in one write transaction taken up front (`BEGIN IMMEDIATE`), and
 * reads the version inside it: two processes opening a new file at once cannot both migrate.
 */
const migrate = (db: Connection, file: string) =>
  db
    .transaction(() => {
      refuseNewer(db, file)
      const from = version(db)
      Migrations.MIGRATIONS.slice(from).forEach((sql) => db.exec(sql))
      if (from < Migrations.VERSION) db.pragma(`user_version = ${Migrations.VERSION}`)
    })
    .immediate()

/** Opens (creating if needed) and migrates the database file. */
export const open = (file: string): Effect.Effect<Connection, OpenError> =>
  Effect.try({
    try: () => {
      mkdirSync(path.dirname(file), { recursive: true })
      const addon = SqliteAddon.locate()
      const db = new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS, ...(addon === undefined ? {} : { nativeBinding: addon }) })
      try {
        // Refuse a newer or unreadable database before changing anything about it (WAL files).
        refuseNewer(db, file)
        db.pragma("journal_mode = WAL")
        // In WAL mode NORMAL syncs at checkpoints, not at every commit: a killed process loses no
        // committed transaction (the WAL is in the file system); only a power cut can take the
        // last ones. FULL cost an fsync per commit, several per tool call (docs/decisions.md).
        db.pragma("synchronous = NORMAL")
        db.pragma("foreign_keys = ON")
        migrate(db, file)
        return db
      } catch (error) {
        db.close()
        throw error
      }
    },
    catch: (error) => (error instanceof OpenError ? error : new OpenError({ path: file, detail: (error as Error).message })),
  })

/** The connection, closed when the layer's scope closes. */
const connection = (file: string) =>
  Layer.effect(
    Service,
    Effect.acquireRelease(open(file), (db) => Effect.sync(() => db.close())).pipe(Effect.map((db) => Service.of({ path: file, db }))),
  )

/** The database file for the process, and the storage boundary over it (storage/sqlite.ts). */
export const layer = (file: string) =>
  Layer.effect(Sql.Service, Effect.map(Service, ({ db }) => SqliteSql.make(db, file))).pipe(Layer.provideMerge(connection(file)))

/** An in-memory database, for tests that do not need a file. */
export const layerMemory = layer(":memory:")
