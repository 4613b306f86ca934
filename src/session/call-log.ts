/**
 * What each settled call was given and what it answered, in the `call_outcome` table, so the
 * audit log's records (which name the tool call they judged) lead to the call behind them: a
 * person reading the log later sees the input and the outcome. Both are kept bounded: a string
 * of the input longer than `MAX_STRING` and an outcome text longer than `MAX_TEXT` are cut with a
 * note of how much was left out (the full output of a cut result stays on disk where the output
 * cut put it, and its path is in the text). A call settled again under the same id (a client
 * reusing ids) replaces the earlier row.
 */
export * as CallLog from "./call-log.js"

import { Clock, Context, Effect, Layer } from "effect"
import { Sql } from "../storage/sql.js"

/** The longest outcome text kept, in characters. */
export const MAX_TEXT = 8_000
/** The longest string of an input kept, in characters. */
export const MAX_STRING = 2_000

export const Messages = {
  cut: (more: number) => `… (${more} more characters not kept)`,
} as const

export interface Entry {
  readonly sessionID: string
  readonly toolCallID: string
  readonly tool: string
  readonly input: unknown
  /** The outcome's kind (SessionTurn.KINDS). */
  readonly kind: string
  /** What the model read: the text parts of a success, else the message. */
  readonly text: string
}

export interface Record extends Entry {
  readonly at: number
}

export interface Interface {
  readonly record: (entry: Entry) => Effect.Effect<void>
  /** The settled call of the session with this id, if it was recorded. */
  readonly get: (sessionID: string, toolCallID: string) => Effect.Effect<Record | undefined>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/CallLog") {}

/** `text` cut to `limit` characters with a note of what was left out. */
export const cut = (text: string, limit: number): string => (text.length <= limit ? text : text.slice(0, limit) + Messages.cut(text.length - limit))

/** The input with every string longer than `MAX_STRING` cut; what is not JSON (a cycle, a bigint) as its text. */
export const bounded = (input: unknown): string => {
  try {
    return JSON.stringify(input ?? null, (_key, value: unknown) => (typeof value === "string" ? cut(value, MAX_STRING) : typeof value === "bigint" ? String(value) : value))
  } catch {
    return JSON.stringify(cut(String(input), MAX_STRING))
  }
}

interface Row {
  readonly session_id: string
  readonly tool_call_id: string
  readonly tool: string
  readonly input: string
  readonly kind: string
  readonly text: string
  readonly at: number
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const sql = yield* Sql.Service
    const record = (entry: Entry) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) =>
        Effect.asVoid(
          sql.run(
            "INSERT INTO call_outcome (session_id, tool_call_id, tool, input, kind, text, at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, tool_call_id) DO UPDATE SET tool = excluded.tool, input = excluded.input, kind = excluded.kind, text = excluded.text, at = excluded.at",
            [entry.sessionID, entry.toolCallID, entry.tool, bounded(entry.input), entry.kind, cut(entry.text, MAX_TEXT), at],
          ),
        ),
      )
    const get = (sessionID: string, toolCallID: string) =>
      Effect.map(sql.get<Row>("SELECT * FROM call_outcome WHERE session_id = ? AND tool_call_id = ?", [sessionID, toolCallID]), (row): Record | undefined =>
        row === undefined ? undefined : { sessionID: row.session_id, toolCallID: row.tool_call_id, tool: row.tool, input: JSON.parse(row.input) as unknown, kind: row.kind, text: row.text, at: row.at },
      )
    return Service.of({ record, get })
  }),
)
