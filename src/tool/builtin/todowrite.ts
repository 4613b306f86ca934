/**
 * `todowrite`: the model's plan for the session, replaced as a whole on every call (08). Asks
 * `todowrite [*]` (saving `*`), then stores the list through `Todo`, which publishes
 * `todo.updated`. The structured output is `{ todos }`; the text is one line per item and the count
 * still open. More than one item in progress is accepted (the list is the model's own), but the
 * text says so, since working on one thing at a time is what the list is for.
 */
export * as TodoWriteTool from "./todowrite.js"

import { Effect, Schema } from "effect"
import { Permission } from "../../permission/permission.js"
import { Todo } from "../../todo.js"
import { Tool } from "../tool.js"

export const name = "todowrite"

export const DESCRIPTION = [
  "Writes the todo list of this session: the plan of the current task, which the person can follow.",
  "Every call replaces the whole list, so send every item each time, in order, with its current status: pending, in_progress, completed or cancelled.",
  "Use it for work of three or more steps, or when the person gives several tasks at once. Keep exactly one item in_progress while working, and mark each item completed as soon as it is done, not in batches.",
  "Skip it for a single, simple step.",
].join("\n")

/** Added to the text when more than one item is in progress. */
export const MULTIPLE_IN_PROGRESS = "Note: more than one item is in_progress. Work on one item at a time: finish it and mark it completed before starting the next."

export const Input = Schema.Struct({
  todos: Schema.Array(
    Schema.Struct({
      id: Schema.optionalKey(Schema.String.annotate({ description: "An optional short label for the item, kept as given" })),
      content: Schema.String.check(Schema.isNonEmpty()).annotate({ description: "What to do, in one line" }),
      status: Todo.Status.annotate({ description: "pending, in_progress (being worked on now), completed or cancelled" }),
      priority: Schema.optionalKey(Todo.Priority.annotate({ description: "high, medium or low" })),
    }),
  ).annotate({ description: "The whole list, in order; it replaces the previous one" }),
}).annotate({ identifier: "TodoWriteTool.Input" })
export type Input = typeof Input.Type

/** The list as stored; an object, because MCP's structured content must be one. */
export const Output = Schema.Struct({ todos: Schema.Array(Todo.Item) }).annotate({ identifier: "TodoWriteTool.Output" })
export type Output = typeof Output.Type

/** The list's text, with the notice when more than one item is in progress. */
export const text = (todos: ReadonlyArray<Todo.Item>): string =>
  [Todo.text(todos), ...(todos.filter((todo) => todo.status === "in_progress").length > 1 ? [MULTIPLE_IN_PROGRESS] : [])].join("\n")

/** The one request every call makes: `todowrite [*]`, saving `*`. */
export const REQUESTS: ReadonlyArray<Tool.PermissionRequest> = [{ action: name, resources: ["*"], save: ["*"] }]

export const make = Effect.gen(function* () {
  const permission = yield* Permission.Service
  const todos = yield* Todo.Service
  return Tool.make({
    description: DESCRIPTION,
    input: Input,
    output: Output,
    requests: () => Effect.succeed(REQUESTS),
    execute: (input, context) =>
      Effect.gen(function* () {
        yield* Tool.askAll(permission, context, REQUESTS)
        yield* todos.replace(context.sessionID, input.todos)
        return { todos: input.todos }
      }),
    toModelOutput: ({ output }) => [{ type: "text", text: text(output.todos) }],
  })
})
