/**
 * `toolgate todo <session>`: the todo list a session's model keeps with `todowrite`, as the model
 * reads it (one line per item, then the count still open), or the stored items with `--json`.
 * Like `session diff`, it looks in the Location of `--dir`: a session that Location does not know
 * is a usage error rather than an empty list, so a mistyped id is not mistaken for "nothing to do",
 * and another project's or Location's id fails naming where it belongs (cli/known-session.ts).
 */
export * as TodoCommand from "./todo.js"

import { Effect } from "effect"
import { Todo } from "../../todo.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

export const Messages = {
  usage: "Usage: toolgate todo <session> [--dir D] [--json]",
  empty: (id: string) => `Session ${id} has no todos.`,
} as const

const program = (id: string, parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    yield* CliLocation.session(id)
    const todos = yield* Effect.flatMap(Todo.Service, (service) => service.get(id))
    const { io } = environment
    if (parsed.values.json === true) io.stdout(JSON.stringify(todos, null, 2))
    else io.stdout(todos.length === 0 ? Messages.empty(id) : Todo.text(todos))
    return ExitCode.SUCCESS
  })

export const run: Command.Run = (parsed, environment) => {
    const [id, ...rest] = parsed.positionals
    if (id === undefined || rest.length > 0) {
      environment.io.stderr(Messages.usage)
      return Promise.resolve(ExitCode.USAGE)
    }
    return CliLocation.run(parsed, environment, program(id, parsed, environment))
  }
