/**
 * A session's todo list, in the `todo` table (one row per item, keyed by session and position),
 * so it survives restarts. `replace` swaps the whole list in one transaction — a reader sees the
 * old list or the new one, never a mix — and then publishes `todo.updated` with the new list.
 * An item's `id` and `priority` are stored only when given, and read back the same way. The
 * text view (`text`) is shared by the `todowrite` tool and `toolgate todo`.
 */
export * as Todo from "./todo.js"

import { Context, Effect, Layer, Schema } from "effect"
import { Bus } from "./bus.js"
import { Sql } from "./storage/sql.js"
import { Tracing } from "./tracing.js"

export const STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const
export const PRIORITIES = ["high", "medium", "low"] as const

/** The box each status is shown with. */
export const MARKERS: Readonly<Record<Status, string>> = { completed: "[x]", pending: "[ ]", in_progress: "[~]", cancelled: "[-]" }

export const Messages = {
  item: (marker: string, content: string) => `${marker} ${content}`,
  open: (count: number) => `${count} open`,
} as const

export const Status = Schema.Literals(STATUSES).annotate({ identifier: "Todo.Status" })
export type Status = typeof Status.Type

export const Priority = Schema.Literals(PRIORITIES).annotate({ identifier: "Todo.Priority" })
export type Priority = typeof Priority.Type

export const Item = Schema.Struct({
  id: Schema.optionalKey(Schema.String),
  content: Schema.String,
  status: Status,
  priority: Schema.optionalKey(Priority),
}).annotate({ identifier: "Todo.Item" })
export type Item = typeof Item.Type

/** Published after every `replace`, with the whole new list. */
export const Updated = Bus.event("todo.updated", Schema.Struct({ sessionID: Schema.String, todos: Schema.Array(Item) }))

export interface Interface {
  /** The session's list in order; empty when it has none. */
  readonly get: (sessionID: string) => Effect.Effect<ReadonlyArray<Item>>
  /** Replaces the session's whole list (an empty list clears it), then publishes `todo.updated`. */
  readonly replace: (sessionID: string, todos: ReadonlyArray<Item>) => Effect.Effect<void>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Todo") {}

/** Items not yet done: pending or in progress. */
export const open = (todos: ReadonlyArray<Item>): number => todos.filter((todo) => todo.status === "pending" || todo.status === "in_progress").length

/**
 * One line per item (`[x]` completed, `[ ]` pending, `[~]` in progress, `[-]` cancelled), then
 * how many are still open. Line breaks inside an item become spaces, so one item is one line.
 * @example Todo.text([{ content: "Write tests", status: "in_progress" }]) // "[~] Write tests\n1 open"
 */
/** Content on one line: each line trimmed, joined by a space. Linear (a regex with `\s*` around the breaks was quadratic on long runs of spaces). */
const oneLine = (content: string) =>
  content
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ")

export const text = (todos: ReadonlyArray<Item>): string =>
  [...todos.map((todo) => Messages.item(MARKERS[todo.status], oneLine(todo.content))), Messages.open(open(todos))].join("\n")

interface Row {
  readonly id: string | null
  readonly content: string
  readonly status: Status
  readonly priority: Priority | null
}

const toItem = (row: Row): Item => ({
  ...(row.id === null ? {} : { id: row.id }),
  content: row.content,
  status: row.status,
  ...(row.priority === null ? {} : { priority: row.priority }),
})

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const sql = yield* Sql.Service
    const bus = yield* Bus.Service

    const get = (sessionID: string) => Effect.map(sql.all<Row>("SELECT id, content, status, priority FROM todo WHERE session_id = ? ORDER BY position", [sessionID]), (rows) => rows.map(toItem))

    const swap = (sessionID: string, todos: ReadonlyArray<Item>) =>
      sql.transaction(
        Effect.andThen(
          sql.run("DELETE FROM todo WHERE session_id = ?", [sessionID]),
          Effect.forEach(todos, (todo, position) =>
            sql.run("INSERT INTO todo (session_id, position, id, content, status, priority) VALUES (?, ?, ?, ?, ?, ?)", [sessionID, position, todo.id ?? null, todo.content, todo.status, todo.priority ?? null]),
          ),
        ),
      )

    const replace = Tracing.fn("Todo.replace")(function* (sessionID: string, todos: ReadonlyArray<Item>) {
      yield* swap(sessionID, todos)
      yield* bus.publish(Updated, { sessionID, todos: [...todos] })
    })

    return Service.of({ get, replace })
  }),
)
