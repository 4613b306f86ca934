/**
 * `toolgate call <tool> [json]`: one tool call through the one call path (session/turn.ts:
 * registry → permission → tool → bound) in the Location of `--dir`, in the session of `--session`
 * (created with that id when new). Flag parsing, that call, and printing; the exit code comes
 * from the outcome's kind. The input is the JSON argument, else standard input, else `{}`.
 * Permission asks and the `question` tool's questions of the session are answered by the
 * answerer `--on-ask` names (cli/answerer.ts). Prints the model-visible text, or with `--json`
 * the whole outcome, with `exitCode` when the call ran a process that exited (bash), and the
 * session's id. A session made here (no `--session`) is named on stderr once the call is known to
 * name a tool, so the next call can continue it (in `--json`, by its field). A tool or `--agent`
 * the session's catalog does not have is a usage error (cli/lookup.ts) before anything is called;
 * the model-visible `Unknown tool: <name>` stays the call path's.
 */
export * as CallCommand from "./call.js"

import { Effect } from "effect"
import { Project } from "../../project.js"
import { SessionTurn } from "../../session/turn.js"
import { Id } from "../../storage/id.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { Lookup } from "../lookup.js"
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
  newSession: (id: string) => `New session ${id} (continue it with --session ${id})`,
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

const json = (outcome: SessionTurn.Outcome, session: string) =>
  JSON.stringify({
    ...(outcome.kind === "success"
      ? {
          content: outcome.content,
          structured: outcome.structured ?? null,
          outputPaths: outcome.outputPaths,
          ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
        }
      : failed(outcome.message)),
    session,
  })

const isMode = (value: string): value is OnAsk.Mode => (OnAsk.MODES as ReadonlyArray<string>).includes(value)

export const run: Command.Run = async (parsed, environment) => {
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
      // Checked only when named: without --agent a session keeps its own, or gets the default.
      const agent = Command.string(parsed, "agent") === undefined ? undefined : yield* CliLocation.agent(parsed)
      const sessionID = Command.string(parsed, "session")
      const model = Command.string(parsed, "model")
      const message = Command.string(parsed, "message")
      const session = yield* SessionTurn.session({ ...(agent === undefined ? {} : { agent }), ...(sessionID === undefined ? {} : { id: sessionID }) })
      const catalog = yield* SessionTurn.catalog(session, model)
      const names = catalog.definitions.map((definition) => definition.name)
      if (!names.includes(name)) return yield* new Lookup.UnknownError({ kind: "tool", name, within: session.agent, known: names })
      if (sessionID === undefined && !asJson) io.stderr(Messages.newSession(session.id))
      yield* CliAnswerer.attach(onAsk, io, session.id)
      const outcome = yield* SessionTurn.settle({
        session,
        catalog,
        call: { id: Id.create("call"), name, input },
        ...(model === undefined ? {} : { model }),
        ...(message === undefined ? {} : { message }),
      })
      if (asJson) io.stdout(json(outcome, session.id))
      if (outcome.kind !== "success") io.stderr(outcome.message)
      else if (!asJson) io.stdout(SessionTurn.text(outcome))
      return ExitCode.forOutcome(outcome.kind)
    })
    return CliLocation.run(parsed, environment, program, { asJson: failed })
  }
