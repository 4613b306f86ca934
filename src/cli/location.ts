/**
 * Runs a command's program in the Location named by `--dir` (default: the current directory),
 * with its config. A config or directory that cannot be used is a usage error: the message
 * names the file or folder, and nothing runs.
 */
export * as CliLocation from "./location.js"

import os from "node:os"
import path from "node:path"
import { Effect, Exit, Cause, Layer } from "effect"
import { Config } from "../config.js"
import { Runtime } from "../runtime.js"
import { ToolRegistry } from "../tool/registry.js"
import { Command } from "./command.js"
import { ExitCode } from "./exit-code.js"

type Program = Effect.Effect<ExitCode.ExitCode, never, Runtime.Services>

/**
 * Builds the runtime for the parsed flags, runs `program`, and turns a failed start into exit 2.
 * With `--json`, the failure is also printed as the command's JSON shape, made by `asJson`.
 */
export const run = async (
  parsed: Command.Parsed,
  environment: Command.Environment,
  program: Program,
  asJson: (error: string) => unknown = (error) => ({ error }),
): Promise<ExitCode.ExitCode> => {
  const { io } = environment
  const directory = path.resolve(io.cwd, Command.string(parsed, "dir") ?? ".")
  const config = Command.string(parsed, "config")
  const fromEnv = io.env.TOOLGATE_CONFIG
  // Relative paths in flags and in TOOLGATE_CONFIG mean: relative to where the command was run.
  const env = fromEnv === undefined || fromEnv === "" ? io.env : { ...io.env, TOOLGATE_CONFIG: path.resolve(io.cwd, fromEnv) }
  const layer = Runtime.layer(
    { directory, ...(config === undefined ? {} : { config: path.resolve(io.cwd, config) }), environment: { env, home: io.env.HOME ?? os.homedir() } },
    environment.extra as Layer.Layer<never, unknown, never>,
  )
  const exit = await Effect.runPromiseExit(Effect.scoped(Effect.provide(program, layer)))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "None") throw Cause.squash(exit.cause)
  const message = (failure.value as { message: string }).message
  if (parsed.values.json === true) io.stdout(JSON.stringify(asJson(message)))
  io.stderr(message)
  return ExitCode.USAGE
}

/** The catalog the `--agent` (default: the config's) and `--model` of the flags would get now. */
export const catalog = Effect.fnUntraced(function* (parsed: Command.Parsed) {
  const registry = yield* ToolRegistry.Service
  const config = yield* Config.Service
  const agent = Command.string(parsed, "agent") ?? config.default_agent
  const model = Command.string(parsed, "model")
  const materialized = yield* registry.materialize({ rules: Config.rulesFor(config, agent), ...(model === undefined ? {} : { model }) })
  return { agent, catalog: materialized }
})
