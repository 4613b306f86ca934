/**
 * The storage boundary (storage/sql.ts) over the SQLite file of storage/database.ts. better-sqlite3
 * is synchronous: a statement outside a transaction runs whole before any other fiber, prepared
 * once per SQL text. A transaction (`BEGIN IMMEDIATE`) holds the connection's one permit; while it
 * is open, a statement of another fiber waits for it instead of joining the transaction.
 * A busy, full, read-only or failing database is `Sql.UnavailableError`; any other error is the
 * defect it is (a constraint, a statement that does not parse).
 */
export * as SqliteSql from "./sqlite.js"

import { Context, Effect, Exit, Semaphore } from "effect"
import type { Database } from "./database.js"
import { Sql } from "./sql.js"

/** SQLite's result codes for a database that cannot serve now, as better-sqlite3 names them. */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|CANTOPEN|IOERR|CORRUPT|NOTADB|PROTOCOL)/

/** Whether the running fiber is inside this connection's transaction. */
const Inside = Context.Reference<Database.Connection | undefined>("@toolgate/SqliteSql/Inside", { defaultValue: () => undefined })

export const make = (db: Database.Connection, location: string): Sql.Interface => {
  const statements = new Map<string, ReturnType<Database.Connection["prepare"]>>()
  const statement = (sql: string) => {
    const known = statements.get(sql)
    if (known !== undefined) return known
    const made = db.prepare(sql)
    statements.set(sql, made)
    return made
  }
  const attempt = <A>(work: () => A): A => {
    try {
      return work()
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (typeof code === "string" && UNAVAILABLE.test(code)) throw new Sql.UnavailableError({ location, detail: (error as Error).message })
      throw error
    }
  }
  const lock = Semaphore.makeUnsafe(1)
  let open = false

  /** `work` now, or after the open transaction of another fiber ends. */
  const guarded = <A>(work: () => A): Effect.Effect<A> =>
    Effect.suspend(() => {
      if (!open) return Effect.sync(() => attempt(work))
      return Effect.flatMap(Effect.service(Inside), (inside) => (inside === db ? Effect.sync(() => attempt(work)) : lock.withPermits(1)(Effect.sync(() => attempt(work)))))
    })

  const params = (values: ReadonlyArray<Sql.Value> | undefined) => values ?? []

  const transaction = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.service(Inside), (inside) =>
      inside === db
        ? body
        : lock.withPermits(1)(
            Effect.uninterruptibleMask((restore) =>
              Effect.suspend(() => {
                attempt(() => db.exec("BEGIN IMMEDIATE"))
                open = true
                return restore(Effect.provideService(body, Inside, db)).pipe(
                  Effect.exit,
                  Effect.flatMap((exit) =>
                    Effect.sync(() => {
                      try {
                        attempt(() => db.exec(Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK"))
                      } catch (error) {
                        if (db.inTransaction) db.exec("ROLLBACK")
                        throw error
                      } finally {
                        open = false
                      }
                    }).pipe(Effect.andThen(exit)),
                  ),
                )
              }),
            ),
          ),
    )

  return {
    dialect: "sqlite",
    location,
    all: <Row>(sql: string, values?: ReadonlyArray<Sql.Value>) => guarded(() => statement(sql).all(...params(values)) as ReadonlyArray<Row>),
    get: <Row>(sql: string, values?: ReadonlyArray<Sql.Value>) => guarded(() => statement(sql).get(...params(values)) as Row | undefined),
    run: (sql: string, values?: ReadonlyArray<Sql.Value>) => guarded(() => ({ changes: statement(sql).run(...params(values)).changes })),
    transaction,
  }
}
