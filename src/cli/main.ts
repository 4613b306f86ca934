/**
 * The `toolgate` command line: help and version from the specs alone, then the command's flags
 * parsed strictly against its spec (an unknown or malformed flag is a usage error, exit 2, with
 * "did you mean"), then its implementation loaded and run. `run` takes its input and output as a
 * value so tests drive the real CLI in process; `bin.ts` wires it to the real process and, when
 * built, to the bundled commands.
 */
export * as Cli from "./main.js"

import { parseArgs } from "node:util"
import { Catalog } from "./catalog.js"
import type { Command } from "./command.js"
import { ExitCode } from "./exit-code.js"
import { Help } from "./help.js"
import type { Io } from "./io.js"
import { Io as IoModule } from "./io.js"
import type { Spec } from "./spec.js"
import { Spec as SpecModule } from "./spec.js"
import { Version } from "../version.js"

export const Messages = {
  unknownCommand: (name: string) => `Unknown command "${name}".${Help.suggestion(name, Catalog.NAMES)} Run toolgate help for the list of commands.`,
  unknownFlag: (flag: string, command: string, known: ReadonlyArray<string>) =>
    `Unknown flag ${flag} for toolgate ${command}.${Help.suggestion(flag.replace(/^-+/, ""), known, (name) => `--${name}`)} Run toolgate ${command} --help for its flags.`,
  missingValue: (flag: string, command: string) => `The flag ${flag} of toolgate ${command} needs a value: ${flag} <value>.`,
  noValue: (flag: string, command: string) => `The flag ${flag} of toolgate ${command} takes no value.`,
  repeated: (flag: string, command: string) => `The flag ${flag} of toolgate ${command} is given twice.`,
  version: (version: string) => `toolgate ${version}`,
} as const

/** Loads the implementation of a command by name (commands.ts, or the bundled CLI). */
export type Load = (name: string) => Promise<Command.Run> | undefined

export interface RunOptions {
  readonly io?: Io.Io
  readonly extra?: Command.Environment["extra"]
  readonly load?: Load
}

/** Imports the command's modules (running from source, or without the bundle). */
export const loadModules: Load = (name) => import("./commands.js").then((module) => module.load(name) ?? Promise.reject(new Error(`no command ${name}`)))

/** Runs the CLI with `argv` (without node and the script) and returns the exit code. */
export const run = async (argv: ReadonlyArray<string>, options: RunOptions = {}): Promise<ExitCode.ExitCode> => {
  const io = options.io ?? IoModule.processIo()
  const [name, ...rest] = argv
  if (name === undefined || name === "--help" || name === "-h") return print(io, Help.overview(Catalog.COMMANDS))
  if (name === "--version" || name === "-v") return print(io, Messages.version(Version.current))
  if (name === "help") return help(io, rest)
  const spec = Catalog.find(name)
  if (spec === undefined) return usage(io, Messages.unknownCommand(name))
  const parsed = parse(spec, rest)
  if (typeof parsed === "string") return usage(io, parsed)
  if (parsed.values.help === true) return print(io, Help.command(spec))
  const command = await (options.load ?? loadModules)(name)
  if (command === undefined) return usage(io, Messages.unknownCommand(name))
  return command(parsed, { io, ...(options.extra === undefined ? {} : { extra: options.extra }) })
}

const print = (io: Io.Io, text: string) => {
  io.stdout(text)
  return ExitCode.SUCCESS
}

const usage = (io: Io.Io, message: string) => {
  io.stderr(message)
  return ExitCode.USAGE
}

const help = (io: Io.Io, names: ReadonlyArray<string>) => {
  const [name, ...more] = names
  if (name === undefined) return print(io, Help.overview(Catalog.COMMANDS))
  const spec = Catalog.find(name)
  if (spec === undefined || more.length > 0) return usage(io, Messages.unknownCommand(names.join(" ")))
  return print(io, Help.command(spec))
}

/**
 * The flags and positionals of `args` for `spec`, or the message of the first flag that is
 * wrong. Node's parser reads the tokens; every judgement and message is ours.
 */
export const parse = (spec: Spec.Spec, args: ReadonlyArray<string>): Command.Parsed | string => {
  const flags: Readonly<Record<string, Spec.Flag>> = { ...spec.flags, help: SpecModule.HELP_FLAG }
  const { tokens } = parseArgs({ args: [...args], options: SpecModule.options(spec), allowPositionals: true, strict: false, tokens: true })
  const values: Record<string, string | boolean> = {}
  const positionals: Array<string> = []
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value)
    if (token.kind !== "option") continue
    const flag = flags[token.name]
    if (flag === undefined) return Messages.unknownFlag(token.rawName, spec.name, Object.keys(flags))
    // `--dir --json`: a flag where a value should be is a missing value, not the value.
    if (flag.type === "string" && (token.value === undefined || (!token.inlineValue && /^-./.test(token.value)))) return Messages.missingValue(token.rawName, spec.name)
    if (flag.type === "boolean" && token.value !== undefined) return Messages.noValue(token.rawName, spec.name)
    if (token.name in values) return Messages.repeated(token.rawName, spec.name)
    values[token.name] = token.value ?? true
  }
  return { values, positionals }
}
