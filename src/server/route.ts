/**
 * One HTTP route as data: method, path, what it takes (query and body as Effect schemas), what it
 * answers, and its handler. The app (app.ts) decodes and validates with these schemas and the
 * OpenAPI document (openapi.ts) is generated from the same ones, so the two cannot drift. A
 * handler never fails: every outcome is a `Reply` with a status. Error bodies keep OpenCode V2's
 * shape, `{ _tag, message, …fields }`, so its clients read them.
 */
export * as ServerRoute from "./route.js"

import type { Effect, Schema, Scope } from "effect"
import type { ServerHub } from "./hub.js"

export const METHODS = ["GET", "POST", "DELETE"] as const
export type Method = (typeof METHODS)[number]

export interface Reply {
  readonly status: number
  /** JSON; absent for 204. */
  readonly body?: unknown
}

export interface Input<Query, Body> {
  readonly params: Readonly<Record<string, string>>
  readonly query: Query
  readonly body: Body
  /** Aborted when the client goes away: a running call is then interrupted. */
  readonly signal: AbortSignal
}

export interface Response {
  readonly description: string
  /** The body's schema, for the document; absent for 204 and for errors (see `ERROR_BODY`). */
  readonly schema?: Schema.Top
}

export interface Route<Query = unknown, Body = unknown> {
  readonly method: Method
  /** Hono's syntax: `/api/session/:sessionID/permission`. */
  readonly path: string
  readonly summary: string
  readonly tag: string
  /** Query parameters, all strings on the wire. */
  readonly query?: Schema.Codec<Query, unknown>
  /** The JSON body. */
  readonly body?: Schema.Codec<Body, unknown>
  readonly responses: Readonly<Record<number, Response>>
  readonly handle: (input: Input<Query, Body>) => Effect.Effect<Reply, never, ServerHub.Service | Scope.Scope>
}

/** A route with its types kept at the definition and erased in the table. */
export const make = <Query = Record<string, never>, Body = undefined>(route: Route<Query, Body>): Route => route as unknown as Route

/** An error reply in OpenCode V2's shape. */
export const error = (status: number, tag: string, message: string, fields: Readonly<Record<string, unknown>> = {}): Reply => ({ status, body: { _tag: tag, message, ...fields } })

export const ok = (body: unknown): Reply => ({ status: 200, body })
export const created = (body: unknown): Reply => ({ status: 201, body })
export const NO_CONTENT: Reply = { status: 204 }

/** A body that is not what the route takes (V2's `InvalidRequestError`). */
export const invalid = (message: string, field?: string): Reply => error(400, "InvalidRequestError", message, field === undefined ? {} : { field })
