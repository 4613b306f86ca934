/**
 * The shape every CLI command has: its flags, its help text and a `run` that returns an exit
 * code. Commands are thin: parse flags, build the runtime, make one service call, print.
 */
export * as Command from "./command.js"

import type { ParseArgsConfig } from "node:util"
import { Layer, Schema } from "effect"
import type { ApplicationTools } from "../tool/application-tools.js"
import type { Permission } from "../permission/permission.js"
import type { ToolRegistry } from "../tool/registry.js"
import type { ExitCode } from "./exit-code.js"
import type { Io } from "./io.js"

export type Options = NonNullable<ParseArgsConfig["options"]>

export interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>
  readonly positionals: ReadonlyArray<string>
}

export interface Environment {
  readonly io: Io.Io
  /** Registrations to apply before the command runs (plugins; a test's tools). */
  readonly extra: Layer.Layer<never, unknown, ApplicationTools.Service | ToolRegistry.Tools | Permission.Service>
}

export interface Command {
  readonly name: string
  readonly summary: string
  readonly usage: string
  readonly options: Options
  readonly run: (parsed: Parsed, environment: Environment) => Promise<ExitCode.ExitCode>
}

/** A misuse of the CLI: a flag, an argument or an input the command cannot take. Exit 2. */
export class UsageError extends Schema.TaggedError<UsageError>()("Cli.UsageError", { detail: Schema.String }) {
  override get message() {
    return this.detail
  }
}

/** Flags shared by the commands that act on a Location. */
export const LOCATION_OPTIONS = {
  dir: { type: "string" },
  config: { type: "string" },
  agent: { type: "string" },
  json: { type: "boolean" },
} as const satisfies Options

export const string = (parsed: Parsed, key: string): string | undefined => {
  const value = parsed.values[key]
  return typeof value === "string" ? value : undefined
}
