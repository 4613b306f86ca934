/**
 * `toolgate trust` / `toolgate untrust`: whether the project's own config file may loosen its
 * rules. Until it is trusted, the project file's `allow` rules apply as `ask`.
 */
export * as TrustCommand from "./trust.js"

import { Effect } from "effect"
import { Project } from "../../project.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

export const Messages = {
  trusted: (worktree: string) => `Trusted ${worktree}: the allow rules of its toolgate.json now apply.`,
  untrusted: (worktree: string) => `Untrusted ${worktree}: the allow rules of its toolgate.json apply as ask again.`,
  noArguments: (name: string) => `toolgate ${name} takes no arguments`,
} as const

const make = (name: "trust" | "untrust"): Command.Command => ({
  name,
  summary: name === "trust" ? "Trust the project: its own config may allow" : "Stop trusting the project: its config's allows become asks",
  usage: `toolgate ${name} [--dir D]`,
  options: { dir: Command.LOCATION_OPTIONS.dir, config: Command.LOCATION_OPTIONS.config },
  run: (parsed, environment) => {
    if (parsed.positionals.length > 0) {
      environment.io.stderr(Messages.noArguments(name))
      return Promise.resolve(ExitCode.USAGE)
    }
    return CliLocation.run(parsed, environment, Effect.gen(function* () {
      const project = yield* Project.Service
      yield* name === "trust" ? project.trust : project.untrust
      environment.io.stdout(name === "trust" ? Messages.trusted(project.worktree) : Messages.untrusted(project.worktree))
      return ExitCode.SUCCESS
    }))
  },
})

export const trust = make("trust")
export const untrust = make("untrust")
