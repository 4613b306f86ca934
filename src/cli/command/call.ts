/**
 * `toolgate call <tool> [json]`: one tool call through the whole pipeline (registry → tool →
 * bound) in the Location of `--dir`. The input is the JSON argument, else standard input, else
 * `{}`. Prints the model-visible text, or with `--json` the whole outcome.
 */
export * as CallCommand from "./call.js"

import { Effect } from "effect"
import { Id } from "../../storage/id.js"
import type { ToolRegistry } from "../../tool/registry.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

export const ON_ASK = ["prompt", "once", "always", "reject", "deny"] as const

export const Messages = {
  missingTool: "Missing tool name: toolgate call <tool> [json]",
  invalidJson: (detail: string) => `Invalid JSON input: ${detail}`,
  invalidOnAsk: (value: string) => `Invalid --on-ask value: ${value} (expected ${ON_ASK.join(", ")})`,
  tooManyArguments: "Too many arguments: toolgate call <tool> [json]",
} as const

const parseInput = (text: string | undefined): unknown | Command.UsageError => {
  if (text === undefined || text.trim() === "") return {}
  try {
    return JSON.parse(text)
  } catch (error) {
    // JSON.parse reports bad input only by throwing; its message is the parser's own.
    return new Command.UsageError({ detail: Messages.invalidJson((error as Error).message) })
  }
}

const text = (outcome: ToolRegistry.Outcome) =>
  outcome.type === "error" ? outcome.message : outcome.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n")

/** The `--json` shape of a call that did not succeed. */
const failed = (error: string) => ({ content: [], structured: null, outputPaths: [], error })

const json = (outcome: ToolRegistry.Outcome) =>
  JSON.stringify(
    outcome.type === "error"
      ? failed(outcome.message)
      : { content: outcome.content, structured: outcome.structured ?? null, outputPaths: outcome.outputPaths },
  )

export const command: Command.Command = {
  name: "call",
  summary: "Run one tool call through the registry, the tool and the output bound",
  usage: "toolgate call <tool> [json] [--dir D] [--agent A] [--session S] [--message M] [--model ID] [--config F] [--on-ask prompt|once|always|reject|deny] [--json]",
  options: {
    ...Command.LOCATION_OPTIONS,
    session: { type: "string" },
    message: { type: "string" },
    model: { type: "string" },
    "on-ask": { type: "string" },
  },
  run: async (parsed, environment) => {
    const { io } = environment
    const [name, argument, ...rest] = parsed.positionals
    const asJson = parsed.values.json === true
    const usage = (detail: string) => {
      if (asJson) io.stdout(JSON.stringify(failed(detail)))
      io.stderr(detail)
      return ExitCode.USAGE
    }
    if (name === undefined) return usage(Messages.missingTool)
    if (rest.length > 0) return usage(Messages.tooManyArguments)
    const onAsk = Command.string(parsed, "on-ask")
    if (onAsk !== undefined && !ON_ASK.includes(onAsk as (typeof ON_ASK)[number])) return usage(Messages.invalidOnAsk(onAsk))
    const input = parseInput(argument ?? (await io.stdin()))
    if (input instanceof Command.UsageError) return usage(input.message)

    return CliLocation.run(parsed, environment, Effect.gen(function* () {
      const { agent, catalog } = yield* CliLocation.catalog(parsed)
      const toolCallID = Id.create("call")
      const outcome = yield* catalog.settle(
        { id: toolCallID, name, input },
        {
          sessionID: Command.string(parsed, "session") ?? Id.create("ses"),
          agent,
          assistantMessageID: Command.string(parsed, "message") ?? Id.create("msg"),
          toolCallID,
        },
      )
      if (asJson) io.stdout(json(outcome))
      if (outcome.type === "error") {
        io.stderr(outcome.message)
        return ExitCode.TOOL_FAILED
      }
      if (!asJson) io.stdout(text(outcome))
      return ExitCode.SUCCESS
    }), failed)
  },
}
