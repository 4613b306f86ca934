/**
 * `toolgate tools`: the catalog an agent (and model) would see now — names and the first line
 * of each description, or the full definitions with `--json`. An empty catalog says so.
 */
export * as ToolsCommand from "./tools.js"

import { Effect } from "effect"
import { Project } from "../../project.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

export const Messages = {
  empty: (agent: string) => `No tools are available to agent ${agent}.`,
  line: (name: string, description: string) => `${name}: ${description.split("\n")[0] ?? ""}`,
} as const

export const run: Command.Run = (parsed, environment) =>
    CliLocation.run(parsed, environment, Effect.gen(function* () {
      yield* Project.announce(environment.io.stderr)
      const { agent, catalog } = yield* CliLocation.catalog(parsed)
      const { io } = environment
      if (parsed.values.json === true) io.stdout(JSON.stringify(catalog.definitions, null, 2))
      else if (catalog.definitions.length === 0) io.stdout(Messages.empty(agent))
      else catalog.definitions.forEach((definition) => io.stdout(Messages.line(definition.name, definition.description)))
      return ExitCode.SUCCESS
    }))
