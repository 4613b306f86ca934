/**
 * The `toolgate` command line: finds the command, parses its flags strictly (an unknown flag is
 * a usage error, exit 2), and runs it. `run` takes its input and output as a value so tests
 * drive the real CLI in process; `bin.ts` wires it to the real process.
 */
export * as Cli from "./main.js"

import { parseArgs } from "node:util"
import { Layer } from "effect"
import { CallCommand } from "./command/call.js"
import { McpCommand } from "./command/mcp.js"
import { McpServersCommand } from "./command/mcp-servers.js"
import { ApprovalsCommand } from "./command/approvals.js"
import { PermissionCommand } from "./command/permission.js"
import { SessionCommand } from "./command/session.js"
import { TodoCommand } from "./command/todo.js"
import { ToolsCommand } from "./command/tools.js"
import { TrustCommand } from "./command/trust.js"
import type { Command } from "./command.js"
import { ExitCode } from "./exit-code.js"
import { Io } from "./io.js"

export const COMMANDS: ReadonlyArray<Command.Command> = [
  CallCommand.command,
  ToolsCommand.command,
  PermissionCommand.command,
  ApprovalsCommand.command,
  TrustCommand.trust,
  TrustCommand.untrust,
  SessionCommand.command,
  TodoCommand.command,
  McpCommand.command,
  McpServersCommand.command,
]

export const Messages = {
  unknownCommand: (name: string) => `Unknown command: ${name} (run toolgate --help)`,
  missingCommand: () => `Missing command: toolgate <${COMMANDS.map((command) => command.name).join("|")}> (run toolgate --help)`,
  help: () =>
    [
      "toolgate — the tool and permission runtime of an AI coding agent",
      "",
      "Usage: toolgate <command> [options]",
      "",
      ...COMMANDS.map((command) => `  ${command.name.padEnd(12)}${command.summary}`),
      "",
      "Run toolgate <command> --help for its options.",
    ].join("\n"),
  commandHelp: (command: Command.Command) => [`Usage: ${command.usage}`, "", command.summary].join("\n"),
} as const

export interface RunOptions {
  readonly io?: Io.Io
  readonly extra?: Command.Environment["extra"]
}

/** Runs the CLI with `argv` (without node and the script) and returns the exit code. */
export const run = async (argv: ReadonlyArray<string>, options: RunOptions = {}): Promise<ExitCode.ExitCode> => {
  const io = options.io ?? Io.processIo()
  const [name, ...rest] = argv
  if (name === undefined) {
    io.stderr(Messages.missingCommand())
    return ExitCode.USAGE
  }
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(Messages.help())
    return ExitCode.SUCCESS
  }
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (command === undefined) {
    io.stderr(Messages.unknownCommand(name))
    return ExitCode.USAGE
  }
  const parsed = parseFlags(command, rest)
  if (parsed instanceof Error) {
    io.stderr(parsed.message)
    return ExitCode.USAGE
  }
  if (parsed.values.help === true) {
    io.stdout(Messages.commandHelp(command))
    return ExitCode.SUCCESS
  }
  return command.run(parsed, { io, extra: options.extra ?? Layer.empty })
}

const parseFlags = (command: Command.Command, args: ReadonlyArray<string>): Command.Parsed | Error => {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    })
    return { values, positionals }
  } catch (error) {
    // parseArgs reports unknown or malformed flags only by throwing; its message names the flag.
    return error as Error
  }
}
