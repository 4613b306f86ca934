/**
 * What a CLI command is, as data: its name, one-line summary, usage lines, every flag with a
 * description and default, examples and the exit codes it can end with. Help, "did you mean",
 * flag parsing and the docs table are all made from this, and nothing here imports a library:
 * `toolgate --help` and `toolgate <command> --help` load these files and nothing else.
 */
export * as Spec from "./spec.js"

import type { ParseArgsConfig } from "node:util"

export interface Flag {
  readonly type: "string" | "boolean"
  readonly short?: string
  /** The value's placeholder in help: `--dir <dir>`. */
  readonly value?: string
  readonly description: string
  /** What applies without the flag, as help shows it. */
  readonly default?: string
}

export interface Example {
  readonly command: string
  readonly description: string
}

export interface Spec {
  readonly name: string
  /** One line, shown in the overview. */
  readonly summary: string
  /** Usage lines, each starting with `toolgate <name>`. */
  readonly usage: ReadonlyArray<string>
  /** What the command does, in a few lines, shown in its help. */
  readonly description: ReadonlyArray<string>
  readonly flags: Readonly<Record<string, Flag>>
  readonly examples: ReadonlyArray<Example>
  /** The exit codes this command can end with, each with what it means here. */
  readonly exitCodes: ReadonlyArray<readonly [number, string]>
}

/** Every command takes `--help` / `-h`. */
export const HELP_FLAG: Flag = { type: "boolean", short: "h", description: "Show this help" }

export const DIR: Flag = { type: "string", value: "dir", description: "The working directory (the Location) to act on", default: "the current directory" }
export const CONFIG: Flag = { type: "string", value: "file", description: "A config file read after the global and project ones", default: "$TOOLGATE_CONFIG, else none" }
export const AGENT: Flag = { type: "string", value: "name", description: "The agent whose rules and tools apply", default: "the config's default_agent, else build" }
export const JSON_OUTPUT: Flag = { type: "boolean", description: "Print JSON instead of text" }
export const MODEL: Flag = { type: "string", value: "id", description: "The model the catalog is materialized for (tools can differ per model)", default: "none" }

/** `--sandbox`: the bash sandbox for this command, whatever the config says (sandbox/mode.ts). */
export const SANDBOX: Flag = { type: "string", value: "mode", description: "Run bash in the OS sandbox: off, workspace-write (writes only inside the directory) or read-only", default: "bash.sandbox of the config, else off" }

/** The flags of a command that acts on a Location. */
export const LOCATION_FLAGS = { dir: DIR, config: CONFIG, agent: AGENT, json: JSON_OUTPUT } as const satisfies Record<string, Flag>

/** The exit codes most commands share. */
export const SUCCESS_CODE = [0, "success"] as const
export const FAILED_CODE = [1, "the command failed (a database, a session or an id that cannot be used)"] as const
export const USAGE_CODE = [2, "usage error: an unknown command or flag, a bad argument, a config that cannot be read"] as const

/** The `parseArgs` options of a spec, with `--help`. */
export const options = (spec: Spec): NonNullable<ParseArgsConfig["options"]> =>
  Object.fromEntries(
    [...Object.entries(spec.flags), ["help", HELP_FLAG] as const].map(([name, flag]) => [name, flag.short === undefined ? { type: flag.type } : { type: flag.type, short: flag.short }]),
  )
