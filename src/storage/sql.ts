/**
 * The one storage boundary: every table toolgate keeps is read and written through this service,
 * whichever database holds it (the SQLite file of one person, storage/sqlite.ts, or a team's
 * PostgreSQL, storage/postgres.ts). Statements are written once with `?` placeholders in the SQL
 * both dialects accept; where they differ a module keeps one text per dialect, keyed by `dialect`.
 *
 * Values are strings, numbers and nulls; integers come back as numbers on both backends
 * (milliseconds since the epoch fit a double exactly). `transaction` runs its body on one
 * connection, committed when it succeeds and rolled back when it fails or is interrupted; a
 * transaction inside a transaction is part of it.
 *
 * A database that cannot answer (PostgreSQL down, the connection lost) is `UnavailableError`, a
 * defect: whatever needed storage stops there, before it acts without its record (an ask is not
 * created, a decision is not taken). The surfaces turn it into their clear failure (`isUnavailable`);
 * the next statement tries the database again, so toolgate recovers when it returns.
 */
export * as Sql from "./sql.js"

import { Cause, Context, Effect, Schema } from "effect"

export type Dialect = "sqlite" | "postgres"

export type Value = string | number | null

export interface RunResult {
  /** Rows the statement inserted, changed or deleted. */
  readonly changes: number
}

export interface Interface {
  readonly dialect: Dialect
  /** Where the data lives: the SQLite file's path, or the PostgreSQL URL without its password. */
  readonly location: string
  readonly all: <Row>(sql: string, params?: ReadonlyArray<Value>) => Effect.Effect<ReadonlyArray<Row>>
  readonly get: <Row>(sql: string, params?: ReadonlyArray<Value>) => Effect.Effect<Row | undefined>
  readonly run: (sql: string, params?: ReadonlyArray<Value>) => Effect.Effect<RunResult>
  /** Several statements as one; `body` must use this service for them (on PostgreSQL they share one connection). */
  readonly transaction: <A, E, R>(body: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Sql") {}

export const Messages = {
  unavailable: (location: string, detail: string) => `The database is unavailable (${location}): ${detail}; the step that needed it did not happen (toolgate tries the database again on the next call)`,
} as const

export class UnavailableError extends Schema.TaggedError<UnavailableError>()("Sql.UnavailableError", {
  location: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.unavailable(this.location, this.detail)
  }
}

/** The storage failure `error` is or was caused by (a rejection of `Effect.runPromise`), if any. */
export const unavailableOf = (error: unknown): UnavailableError | undefined => {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; current = (current as { cause?: unknown }).cause, depth++)
    if (current instanceof UnavailableError) return current
  return undefined
}

/**
 * `effect` with a storage failure handled by `handle`; every other cause stays as it was.
 * @example run(input).pipe(Sql.catchUnavailable((error) => Effect.logWarning(error.message)))
 */
export const catchUnavailable =
  <B, E2, R2>(handle: (error: UnavailableError) => Effect.Effect<B, E2, R2>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A | B, E | E2, R | R2> =>
    Effect.catchCause(effect, (cause): Effect.Effect<B, E | E2, R2> => {
      const unavailable = unavailableIn(cause)
      return unavailable === undefined ? Effect.failCause(cause) : handle(unavailable)
    })

/** The storage failure in `cause`, when that is what ended it. */
export const unavailableIn = <E>(cause: Cause.Cause<E>): UnavailableError | undefined => {
  for (const reason of cause.reasons) {
    const value = Cause.isDieReason(reason) ? reason.defect : Cause.isFailReason(reason) ? reason.error : undefined
    if (value instanceof UnavailableError) return value
  }
  return undefined
}
