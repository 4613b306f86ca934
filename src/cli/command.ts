/**
 * What a CLI command's implementation is: a `run` that takes the parsed flags and returns an
 * exit code. Its name, flags and help are data in cli/spec/ (so help loads no implementation).
 * Commands are thin: check arguments, build the runtime, make one service call, print.
 */
export * as Command from "./command.js"

import { Schema } from "effect"
import type { Layer } from "effect"
import type { ApplicationTools } from "../tool/application-tools.js"
import type { Permission } from "../permission/permission.js"
import type { ToolRegistry } from "../tool/registry.js"
import type { ExitCode } from "./exit-code.js"
import type { Io } from "./io.js"

export interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>
  readonly positionals: ReadonlyArray<string>
}

export interface Environment {
  readonly io: Io.Io
  /** Registrations to apply before the command runs (plugins; a test's tools); none by default. */
  readonly extra?: Layer.Layer<never, unknown, ApplicationTools.Service | ToolRegistry.Tools | Permission.Service>
}

export type Run = (parsed: Parsed, environment: Environment) => Promise<ExitCode.ExitCode>

/** A misuse of the CLI: a flag, an argument or an input the command cannot take. Exit 2. */
export class UsageError extends Schema.TaggedError<UsageError>()("Cli.UsageError", { detail: Schema.String }) {
  override get message() {
    return this.detail
  }
}

export const string = (parsed: Parsed, key: string): string | undefined => {
  const value = parsed.values[key]
  return typeof value === "string" ? value : undefined
}
