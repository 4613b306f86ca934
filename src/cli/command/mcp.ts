/**
 * `toolgate mcp [--dir D] [--agent A] [--model M] [--config F]`: serves the Location of `--dir`
 * (default: the current directory) over MCP on stdio until the client closes standard input. One
 * connection is one new toolgate session of `--agent`; its catalog is what the client lists, and
 * every call runs through the one call path (mcp/session.ts). Only protocol frames go to stdout:
 * logs, notices and anything a library prints go to stderr. Started inside a toolgate tool call,
 * its client is the agent, so asks are answered by `mcp.on_ask` and never by the client.
 */
export * as McpCommand from "./mcp.js"

import os from "node:os"
import path from "node:path"
import type { Readable, Writable } from "node:stream"
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio"
import { Effect } from "effect"
import { Config } from "../../config.js"
import { Directories } from "../../directories.js"
import { Location } from "../../location/location.js"
import { McpStdio } from "../../mcp/stdio.js"
import { Project } from "../../project.js"
import { ToolCallMarker } from "../../tool-call-marker.js"
import { Command } from "../command.js"
import { CliLocation } from "../location.js"
import { ExitCode } from "../exit-code.js"
import { SandboxMode } from "../../sandbox/mode.js"


/** `toolgate mcp`'s own console (mcp.on_ask console), on a loopback port over this process's Locations. */
const startConsole = (io: Command.Environment["io"], config: string | undefined, sandbox: string | undefined) =>
  Effect.gen(function* () {
    const directory = (yield* Location.Service).directory
    const hosting = yield* CliLocation.Hosting
    const { McpConsole } = yield* Effect.promise(() => import("../../mcp/console.js"))
    return yield* McpConsole.start({
      directory,
      hosting,
      log: io.stderr,
      ...(config === undefined ? {} : { config: path.resolve(io.cwd, config) }),
      // Checked by CliLocation.run before the Location opened.
      ...(sandbox !== undefined && SandboxMode.isMode(sandbox) ? { sandbox } : {}),
    })
  })

export const Messages = {
  tooManyArguments: "toolgate mcp takes no arguments: toolgate mcp [--dir D] [--agent A] [--model M] [--config F]",
  consoleInsideToolCall:
    'toolgate mcp: mcp.on_ask is "console", but inside a toolgate tool call the agent would read the console\'s token here: no console is started and asks are rejected',
} as const

/** Resolves when `input` ends: the client closed the connection. */
const inputClosed = (input: NodeJS.ReadableStream) =>
  Effect.callback<void>((resume) => {
    const done = () => resume(Effect.void)
    input.once("end", done)
    input.once("close", done)
    return Effect.sync(() => {
      input.off("end", done)
      input.off("close", done)
    })
  })


export const run: Command.Run = async (parsed, environment) => {
    const { io } = environment
    if (parsed.positionals.length > 0) {
      io.stderr(Messages.tooManyArguments)
      return ExitCode.USAGE
    }
    // stdout is the protocol channel: whatever a library prints with console.log goes to stderr.
    console.log = console.error
    console.info = console.error
    // The protocol's streams: this process's stdin and stdout, or a caller's (cli/warm/relay-io.ts).
    const channel = io.channel?.() ?? { input: process.stdin, output: process.stdout }
    const model = Command.string(parsed, "model")
    const program = Effect.gen(function* () {
      yield* Project.announce(io.stderr)
      // An --agent that does not exist stops the server before a client sees a catalog.
      const agent = Command.string(parsed, "agent") === undefined ? undefined : yield* CliLocation.agent(parsed)
      const clientMayAnswer = ToolCallMarker.of(io.env) === undefined
      const wantsConsole = (yield* Config.Service).mcp.on_ask === "console"
      if (wantsConsole && !clientMayAnswer) io.stderr(Messages.consoleInsideToolCall)
      const config = Command.string(parsed, "config")
      // The console's HTTP server is loaded only when it is wanted: its modules would cost every other start.
      const served = wantsConsole && clientMayAnswer ? yield* startConsole(io, config, Command.string(parsed, "sandbox")) : undefined
      yield* McpStdio.serve({
        until: inputClosed(channel.input),
        transport: new StdioServerTransport(channel.input as Readable, channel.output as Writable),
        log: io.stderr,
        clientMayAnswer,
        ...(served === undefined ? {} : { console: served }),
        reservations: path.join(Directories.data({ env: io.env, home: io.env.HOME ?? os.homedir() }), "mcp-reservations"),
        ...(io.parent === undefined ? {} : { parent: io.parent }),
        ...(agent === undefined ? {} : { agent }),
        ...(model === undefined ? {} : { model }),
      })
      return ExitCode.SUCCESS
    })
    // Logs go to stderr (CliLocation.run): stdout is the protocol's.
    return CliLocation.run(parsed, environment, program)
  }
