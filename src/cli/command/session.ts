/**
 * `toolgate session diff <id>` / `revert <id> <messageID>` / `unrevert <id>`: what a session
 * changed, and rewinding it. Only the working tree is rewound (see history.ts).
 */
export * as SessionCommand from "./session.js"

import { Effect } from "effect"
import { History } from "../../snapshot/history.js"
import type { Snapshot } from "../../snapshot/snapshot.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

export const Messages = {
  usage: "Usage: toolgate session diff <id> | toolgate session revert <id> <messageID> | toolgate session unrevert <id>",
  noChanges: (id: string) => `Session ${id} changed nothing.`,
  change: (file: Snapshot.FileDiff) => `${file.status === "added" ? "A" : file.status === "deleted" ? "D" : "M"} ${file.path} (+${file.additions} -${file.deletions})`,
  reverted: (id: string, message: string, count: number) => `Reverted ${count} file${count === 1 ? "" : "s"} of session ${id} to before message ${message}:`,
  unreverted: (id: string, count: number) => `Put back ${count} file${count === 1 ? "" : "s"} of session ${id}:`,
} as const

const diff = (id: string, parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const history = yield* History.Service
    const files = yield* history.diff(id)
    const { io } = environment
    if (parsed.values.json === true) io.stdout(JSON.stringify(files, null, 2))
    else if (files.length === 0) io.stdout(Messages.noChanges(id))
    else io.stdout([...files.map(Messages.change), "", ...files.map((file) => file.patch).filter((patch) => patch !== "")].join("\n"))
    return ExitCode.SUCCESS
  })

const rewind = (paths: ReadonlyArray<string>, header: string, environment: Command.Environment) => {
  environment.io.stdout([header, ...paths.map((file) => `  ${file}`)].join("\n"))
  return ExitCode.SUCCESS
}

export const command: Command.Command = {
  name: "session",
  summary: "Show what a session changed, revert it to before a message, or undo the revert",
  usage: "toolgate session diff <id> | revert <id> <messageID> | unrevert <id> [--dir D] [--json]",
  options: { ...Command.LOCATION_OPTIONS },
  run: (parsed, environment) => {
    const [sub, id, message, ...rest] = parsed.positionals
    const run = (program: Effect.Effect<ExitCode.ExitCode, History.Error, History.Service>) => CliLocation.run(parsed, environment, program)
    if (rest.length === 0 && id !== undefined) {
      if (sub === "diff" && message === undefined) return run(diff(id, parsed, environment))
      if (sub === "revert" && message !== undefined)
        return run(Effect.map(Effect.flatMap(History.Service, (history) => history.revert(id, message)), (paths) => rewind(paths, Messages.reverted(id, message, paths.length), environment)))
      if (sub === "unrevert" && message === undefined)
        return run(Effect.map(Effect.flatMap(History.Service, (history) => history.unrevert(id)), (paths) => rewind(paths, Messages.unreverted(id, paths.length), environment)))
    }
    environment.io.stderr(Messages.usage)
    return Promise.resolve(ExitCode.USAGE)
  },
}
