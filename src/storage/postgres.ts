/**
 * The storage boundary (storage/sql.ts) on PostgreSQL, for a team: node-postgres (`pg`) with a
 * pool. `?` placeholders become `$1…$n`; BIGINT and NUMERIC results come back as numbers (counts
 * and millisecond times), as SQLite gives them. At open the schema is migrated in one transaction
 * under an advisory lock, so two servers starting at once do not both migrate; a schema newer
 * than this toolgate is refused, as with the SQLite file.
 *
 * A lost or refused connection is `Sql.UnavailableError`: the statement fails, nothing is
 * retried behind the caller's back, and the next statement asks the pool for a connection again
 * (the database came back: toolgate works again, without a restart).
 */
export * as PostgresSql from "./postgres.js"

import { Context, Effect, Exit, Layer } from "effect"
import pg from "pg"
import { Database } from "./database.js"
import { Migrations } from "./migrations.js"
import { Sql } from "./sql.js"

/** Connections one process keeps at most. */
export const POOL_SIZE = 10
/** How long a statement waits for a connection before the database counts as unavailable. */
export const CONNECT_TIMEOUT_MS = 5_000
/** The advisory lock the migration holds (any fixed number: toolgate's). */
export const MIGRATION_LOCK = 7_160_471_301

const INT8 = 20
const NUMERIC = 1700

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 || oid === NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? "text")) as pg.CustomTypesConfig["getTypeParser"],
}

/** `postgres://user:secret@host/db` without the secret: what messages may show. */
export const redacted = (url: string) => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "the configured PostgreSQL database"
  }
}

/** `?` placeholders (outside quoted text) as `$1`, `$2`, …. */
export const numbered = (sql: string) => {
  let count = 0
  let quote: string | undefined
  let out = ""
  for (const char of sql) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined
      out += char
    } else if (char === "'" || char === '"') {
      quote = char
      out += char
    } else out += char === "?" ? `$${++count}` : char
  }
  return out
}

/** SQLSTATE classes and codes of a server that cannot serve now; and the client's own connection errors. */
const UNAVAILABLE_STATE = /^(08|53|57P0[1-4])/
const UNAVAILABLE_CODE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"])
const UNAVAILABLE_TEXT = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable/i

const unavailable = (error: unknown) => {
  const code = (error as { code?: unknown }).code
  if (typeof code === "string" && (UNAVAILABLE_STATE.test(code) || UNAVAILABLE_CODE.has(code))) return true
  return error instanceof Error && UNAVAILABLE_TEXT.test(error.message)
}

const ignore = () => undefined

/** The connection of the transaction the running fiber is in, if any. */
const Inside = Context.Reference<pg.PoolClient | undefined>("@toolgate/PostgresSql/Inside", { defaultValue: () => undefined })

export const make = (pool: pg.Pool, location: string): Sql.Interface => {
  const failure = (error: unknown) =>
    unavailable(error) ? new Sql.UnavailableError({ location, detail: error instanceof Error && error.message !== "" ? error.message : String((error as { code?: unknown }).code ?? error) }) : error

  const query = <Row>(sql: string, values: ReadonlyArray<Sql.Value> | undefined) =>
    Effect.flatMap(Effect.service(Inside), (client) =>
      Effect.tryPromise({ try: () => (client ?? pool).query(numbered(sql), values === undefined ? [] : [...values]), catch: failure }).pipe(
        Effect.map((result) => ({ rows: result.rows as ReadonlyArray<Row>, changes: result.rowCount ?? 0 })),
        Effect.orDie,
      ),
    )

  const transaction = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.service(Inside), (inside) =>
      inside !== undefined
        ? body
        : Effect.acquireUseRelease(
            // A connection lost while checked out emits an error besides failing its query: heard here, not thrown at the process.
            Effect.orDie(Effect.tryPromise({ try: () => pool.connect(), catch: failure })).pipe(Effect.tap((client) => Effect.sync(() => client.on("error", ignore)))),
            (client) =>
              Effect.gen(function* () {
                yield* Effect.orDie(Effect.tryPromise({ try: () => client.query("BEGIN"), catch: failure }))
                const exit = yield* Effect.exit(Effect.provideService(body, Inside, client))
                yield* Effect.orDie(Effect.tryPromise({ try: () => client.query(Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK"), catch: failure }))
                return yield* exit
              }),
            // A connection that failed mid-transaction is dropped, not handed to the next caller.
            (client, exit) =>
              Effect.sync(() => {
                client.removeListener("error", ignore)
                client.release(Exit.isSuccess(exit) ? undefined : true)
              }),
          ),
    )

  return {
    dialect: "postgres",
    location,
    all: (sql, values) => Effect.map(query(sql, values), (result) => result.rows),
    get: (sql, values) => Effect.map(query(sql, values), (result) => result.rows[0]),
    run: (sql, values) => Effect.map(query(sql, values), (result) => ({ changes: result.changes })),
    transaction,
  } as Sql.Interface
}

const SCHEMA_TABLE = "CREATE TABLE IF NOT EXISTS toolgate_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)"

/**
 * Brings the database to `Migrations.VERSION`, one server at a time; refuses a newer schema. A
 * database already current is only read: the application's role needs no right to change the
 * schema once its owner migrated it (docs/postgres.md). The version it found.
 */
export const migrate = (sql: Sql.Interface) =>
  sql.transaction(
    Effect.gen(function* () {
      yield* sql.get("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK])
      const present = yield* sql.get<{ present: boolean }>("SELECT to_regclass('toolgate_schema') IS NOT NULL AS present")
      const found = present?.present === true ? ((yield* sql.get<{ version: number }>("SELECT version FROM toolgate_schema WHERE id = 1"))?.version ?? 0) : 0
      if (found > Migrations.VERSION) return yield* new Database.OpenError({ path: sql.location, detail: Database.Messages.newer(found, Migrations.VERSION) })
      if (found === Migrations.VERSION) return found
      yield* sql.run(SCHEMA_TABLE)
      for (const statement of Migrations.POSTGRES.slice(found)) yield* sql.run(statement)
      yield* sql.run("INSERT INTO toolgate_schema (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version", [Migrations.VERSION])
      return found
    }),
  )

/**
 * The rights of the role toolgate connects as, once the schema's owner migrated it: read and
 * write its state, only read and append the audit log (no UPDATE, DELETE or TRUNCATE: what was
 * decided stays decided), and only read the organization's policy. `role` must be a plain SQL name.
 * @example PostgresSql.grants("toolgate_app").join(";\n")
 */
export const grants = (role: string): ReadonlyArray<string> => {
  if (!/^[a-z_][a-z0-9_]*$/.test(role)) throw new TypeError(`not a plain role name: ${role}`)
  return [
    `GRANT USAGE ON SCHEMA public TO ${role}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`,
    `REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM ${role}`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON policy FROM ${role}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`,
  ]
}

/** The pool for `url`, migrated; closed with the layer's scope. A database that cannot be reached at start is an `OpenError`. */
export const layer = (url: string) =>
  Layer.effect(
    Sql.Service,
    Effect.gen(function* () {
      const location = redacted(url)
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const made = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types })
          // An idle connection the server dropped: the next statement gets a new one.
          made.on("error", () => undefined)
          return made
        }),
        (made) => Effect.promise(() => made.end()),
      )
      const sql = make(pool, location)
      yield* migrate(sql).pipe(
        Effect.catchDefect((defect) => Effect.fail(new Database.OpenError({ path: location, detail: defect instanceof Error ? defect.message : String(defect) }))),
      )
      return sql
    }),
  )
