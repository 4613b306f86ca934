/**
 * `toolgate call <tool> [json]`: one tool call through the whole pipeline (registry → permission
 * → tool → bound) in the Location of `--dir`, in the session of `--session` (created with that id
 * when new). The input is the JSON argument, else standard input, else `{}`. Permission asks and
 * the `question` tool's questions of the session are answered by the answerer `--on-ask` names
 * (cli/answerer.ts). Prints the model-visible text, or with `--json` the whole outcome.
 */
export * as CallCommand from "./call.js"

import { Effect } from "effect"
import { Permission } from "../../permission/permission.js"
import { Session } from "../../session.js"
import { Id } from "../../storage/id.js"
import type { ToolRegistry } from "../../tool/registry.js"
import { Project } from "../../project.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { ToolCallMarker } from "../../tool-call-marker.js"
import { CliAnswerer } from "../answerer.js"
import { OnAsk } from "../on-ask.js"

export const Messages = {
  missingTool: "Missing tool name: toolgate call <tool> [json]",
  invalidJson: (detail: string) => `Invalid JSON input: ${detail}`,
  invalidOnAsk: (value: string) => `Invalid --on-ask value: ${value} (expected ${OnAsk.MODES.join(", ")})`,
  tooManyArguments: "Too many arguments: toolgate call <tool> [json]",
  /** Inside a tool call nobody but the agent could answer: only reject and deny remain. */
  answersInsideToolCall: (mode: string) =>
    `Refusing --on-ask ${mode} inside a toolgate tool call (TOOLGATE_TOOL_CALL is set): only a person may answer a permission request. Use --on-ask reject or deny.`,
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

/** The `--json` shape of a call that did not succeed. */
const failed = (error: string) => ({ content: [], structured: null, outputPaths: [], error })

const text = (outcome: ToolRegistry.Outcome) =>
  outcome.type === "error" ? outcome.message : outcome.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n")

const json = (outcome: ToolRegistry.Outcome) =>
  JSON.stringify(
    outcome.type === "error"
      ? failed(outcome.message)
      : { content: outcome.content, structured: outcome.structured ?? null, outputPaths: outcome.outputPaths },
  )

const isMode = (value: string): value is OnAsk.Mode => (OnAsk.MODES as ReadonlyArray<string>).includes(value)

export const command: Command.Command = {
  name: "call",
  summary: "Run one tool call through the registry, the permission gate, the tool and the output bound",
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
    const onAsk = Command.string(parsed, "on-ask") ?? OnAsk.defaultMode(io)
    if (!isMode(onAsk)) return usage(Messages.invalidOnAsk(onAsk))
    if (ToolCallMarker.of(io.env) !== undefined && onAsk !== "reject" && onAsk !== "deny") {
      io.stderr(Messages.answersInsideToolCall(onAsk))
      return ExitCode.REFUSED
    }
    const input = parseInput(argument ?? (await io.stdin()))
    if (input instanceof Command.UsageError) return usage(input.message)

    const program = Effect.gen(function* () {
      yield* Project.announce(environment.io.stderr)
      const sessions = yield* Session.Service
      const permission = yield* Permission.Service
      const agent = Command.string(parsed, "agent") ?? (yield* permission.defaultAgent)
      const sessionID = Command.string(parsed, "session")
      const session = yield* sessions.ensure({ agent, ...(sessionID === undefined ? {} : { id: sessionID }) })
      const rules = yield* permission.rulesFor(session.id)
      const { catalog } = yield* CliLocation.catalog(parsed, [...rules.configured, ...rules.session])
      yield* CliAnswerer.attach(onAsk, io, session.id)
      const toolCallID = Id.create("call")
      const context = { sessionID: session.id, agent, assistantMessageID: Command.string(parsed, "message") ?? Id.create("msg"), toolCallID }
      const outcome = yield* catalog.settle({ id: toolCallID, name, input }, context)
      if (asJson) io.stdout(json(outcome))
      if (outcome.type === "error") {
        io.stderr(outcome.message)
        return outcome.blocked === true ? ExitCode.BLOCKED : ExitCode.TOOL_FAILED
      }
      if (!asJson) io.stdout(text(outcome))
      return ExitCode.SUCCESS
    })
    return CliLocation.run(parsed, environment, program, { asJson: failed })
  },
}
