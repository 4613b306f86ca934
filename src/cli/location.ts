/**
 * Runs a command's program in the Location named by `--dir` (default: the current directory),
 * with its config. A config or directory that cannot be used is a usage error: the message
 * names the file or folder, and nothing runs. A recovery command (one that runs no tool: untrust,
 * approvals, session, config, log) runs without a broken config file instead, after one warning
 * line per file left out, so a broken file never stops the way back. `agent` resolves `--agent`:
 * an agent that does not exist is a usage error, not an agent with no tools.
 */
export * as CliLocation from "./location.js"

import os from "node:os"
import path from "node:path"
import { Cause, Context, Effect, Exit, Layer, Logger, Scope } from "effect"
import { Config } from "../config.js"
import { Location } from "../location/location.js"
import { Agents } from "../permission/agents.js"
import { Permission } from "../permission/permission.js"
import type { PermissionRule } from "../permission/rule.js"
import { Locations } from "../locations.js"
import { ToolgateProcess } from "../process.js"
import type { Runtime } from "../runtime.js"
import { SandboxMode } from "../sandbox/mode.js"
import { Session } from "../session.js"
import { SessionTurn } from "../session/turn.js"
import { Command } from "./command.js"
import { KnownSession } from "./known-session.js"
import { ExitCode } from "./exit-code.js"
import { Lookup } from "./lookup.js"
import { CliSignals } from "./signals.js"

export const Messages = {
  /** A broken config file a recovery command left out; `error` names the file and what is wrong. */
  ignoring: (error: string) => `Warning: ${error}. Ignoring that file for this command; commands that act for an agent refuse to start until it is fixed.`,
} as const

/**
 * Logs go to the command's stderr, one line each: stdout carries its result alone (`--json` must
 * parse, `mcp` speaks the protocol there).
 */
export const logsTo = (io: Command.Environment["io"]) => Logger.layer([Logger.map(Logger.formatSimple, (line) => io.stderr(line))])

/**
 * The process a command's Location was opened in: its Locations and process services, for a
 * command that serves more over the same Locations (`toolgate mcp`'s console, mcp/console.ts).
 */
export class Hosting extends Context.Service<Hosting, Context.Context<Locations.Service | ToolgateProcess.Services>>()("@toolgate/CliLocation.Hosting") {}

type Program<E> = Effect.Effect<ExitCode.ExitCode, E, Runtime.Services | Scope.Scope | Hosting>

export interface RunOptions {
  /** With `--json`, a failure is also printed in the command's JSON shape, made by this. */
  readonly asJson?: (error: string) => unknown
  /**
   * A recovery command: it runs no tool and judges no call, so a broken config file is left out
   * (with a warning naming it) instead of stopping it. Never for a command that acts for an agent.
   */
  readonly recovery?: boolean
}

/**
 * Builds the runtime for the parsed flags and runs `program`. A failure that ends the command
 * (a config, folder or session that cannot be used, a database that cannot be opened, a decline)
 * is printed on one line and mapped to its exit code; anything else is a usage error (2).
 */
export const run = async <E extends { readonly _tag: string; readonly message: string }>(
  parsed: Command.Parsed,
  environment: Command.Environment,
  program: Program<E>,
  options: RunOptions = {},
): Promise<ExitCode.ExitCode> => {
  const { io } = environment
  const directory = path.resolve(io.cwd, Command.string(parsed, "dir") ?? ".")
  const sandbox = Command.string(parsed, "sandbox")
  if (sandbox !== undefined && !SandboxMode.isMode(sandbox)) {
    io.stderr(SandboxMode.Messages.invalidFlag(sandbox))
    return ExitCode.USAGE
  }
  const config = Command.string(parsed, "config")
  const fromEnv = io.env.TOOLGATE_CONFIG
  // Relative paths in flags and in TOOLGATE_CONFIG mean: relative to where the command was run.
  const env = fromEnv === undefined || fromEnv === "" ? io.env : { ...io.env, TOOLGATE_CONFIG: path.resolve(io.cwd, fromEnv) }
  const environmentOf = { env, home: io.env.HOME ?? os.homedir() }
  // The CLI is one caller of the seam: one process, one Location opened through `Locations`,
  // closed as soon as the command ends (idle 0).
  const main = Effect.gen(function* () {
    const locations = yield* Locations.Service
    const handle = yield* locations.open({
      directory,
      ...(config === undefined ? {} : { config: path.resolve(io.cwd, config) }),
      extra: (environment.extra ?? Layer.empty) as Runtime.Extra<unknown>,
      ...(options.recovery === true ? { skipBrokenConfig: true } : {}),
      ...(sandbox === undefined ? {} : { sandbox }),
    })
    Context.get(handle.context, Config.Service)
      .sources.flatMap((source) => (source.error === undefined ? [] : [Messages.ignoring(source.error)]))
      .forEach((line) => io.stderr(line))
    const hosting = yield* Effect.context<Locations.Service | ToolgateProcess.Services>()
    return yield* handle.run(Effect.provideService(program, Hosting, hosting))
  })
  const layer = Locations.layer({ environment: environmentOf, idle: 0 }).pipe(Layer.provideMerge(ToolgateProcess.layer({ environment: environmentOf })))
  const stopping = CliSignals.watch(io)
  const exit = await Effect.runPromiseExit(Effect.scoped(main).pipe(Effect.provide(layer), Effect.provide(logsTo(io))), { signal: stopping.signal }).finally(stopping.dispose)
  if (Exit.isSuccess(exit)) return exit.value
  const received = stopping.received()
  if (received !== undefined && Cause.hasInterrupts(exit.cause)) return ExitCode.SIGNALLED[received]
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "None") throw Cause.squash(exit.cause)
  const error = failure.value as { readonly _tag?: string; readonly message: string }
  if (parsed.values.json === true) io.stdout(JSON.stringify((options.asJson ?? ((message: string) => ({ error: message })))(error.message)))
  io.stderr(error.message)
  return ExitCode.forError(error, ExitCode.USAGE)
}

/** The agent of `--agent`, else the default one; an agent that does not exist is `Lookup.UnknownError`. */
export const agent = Effect.fnUntraced(function* (parsed: Command.Parsed) {
  const named = Command.string(parsed, "agent")
  const permission = yield* Permission.Service
  if (named === undefined) return yield* permission.defaultAgent
  const config = yield* Config.Service
  if (Agents.exists(config, named)) return named
  return yield* new Lookup.UnknownError({ kind: "agent", name: named, within: (yield* Location.Service).directory, known: Agents.names(config) })
})

/**
 * The session `id` of this Location (cli/known-session.ts): one no project has is
 * `Lookup.UnknownError`; another project's or Location's fails naming where it belongs.
 */
export const session = (id: string) => KnownSession.here(id)

/** The error for a tool `agent` does not have, with the names of the tools it has. */
export const unknownTool = Effect.fnUntraced(function* (name: string, agent: string) {
  const permission = yield* Permission.Service
  const rules = yield* permission.configured(agent)
  const shown = yield* SessionTurn.catalogFor(rules)
  return yield* new Lookup.UnknownError({ kind: "tool", name, within: agent, known: shown.definitions.map((definition) => definition.name) })
})

/** The agent of the flags (default: the config's), and the catalog it would get now. */
export const catalog = Effect.fnUntraced(function* (parsed: Command.Parsed, rules?: ReadonlyArray<PermissionRule.Rule>) {
  const permission = yield* Permission.Service
  const named = yield* agent(parsed)
  const effective = rules ?? (yield* permission.configured(named))
  return { agent: named, catalog: yield* SessionTurn.catalogFor(effective, Command.string(parsed, "model")) }
})
