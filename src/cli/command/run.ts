/**
 * `toolgate run "<prompt>" --model <id>`: the turn loop (ai/runner.ts) against the Location of
 * `--dir`, with a model behind any OpenAI-compatible endpoint (`@ai-sdk/openai-compatible`). The
 * model's text streams to stdout; each call is a line on stderr (cli/run-view.ts), and so is the
 * todo list when it changes; with `--json`, every event is one JSON line on stdout instead. Asks
 * are answered as `toolgate call` answers them (`--on-ask`). The last line names the session.
 * Exit codes follow the run's end: 0 done, 4 declined or dismissed, 1 a model failure or
 * `--max-steps`, 2 usage. The AI SDK is loaded only here.
 */
export * as RunCommand from "./run.js"

import { Effect } from "effect"
import { Endpoint } from "../../ai/endpoint.js"
import { Runner } from "../../ai/runner.js"
import { Project } from "../../project.js"
import { SessionTurn } from "../../session/turn.js"
import { ToolCallMarker } from "../../tool-call-marker.js"
import { CliAnswerer } from "../answerer.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { Io } from "../io.js"
import { CliLocation } from "../location.js"
import { OnAsk } from "../on-ask.js"
import { RunView } from "../run-view.js"
import { CallCommand } from "./call.js"

/** The longest --idle-timeout: a day, well inside what a timer can wait. */
const MAX_IDLE_TIMEOUT_S = 86_400

export const Messages = {
  missingPrompt: 'Missing prompt: toolgate run "<prompt>" --model <id>',
  missingModel: 'Missing --model: toolgate run "<prompt>" --model <id> (the id the endpoint serves, e.g. qwen2.5-coder:14b)',
  tooManyArguments: 'Too many arguments: toolgate run "<prompt>" --model <id> (quote the prompt)',
  invalidMaxSteps: (value: string) => `Invalid --max-steps value: ${value} (expected a whole number of at least 1)`,
  invalidIdleTimeout: (value: string) => `Invalid --idle-timeout value: ${value} (expected whole seconds, from 1 to ${MAX_IDLE_TIMEOUT_S})`,
  invalidBaseUrl: (value: string) => `Invalid --base-url value: ${value} (expected an http or https URL such as ${Endpoint.DEFAULT_BASE_URL})`,
  missingApiKey: (name: string) => `The variable ${name} (--api-key-env) is not set`,
  /** The model's failure, with where it was asked: a newcomer's first question. */
  modelFailed: (message: string, baseURL: string, model: string) => `${message} (model ${model} at ${baseURL})`,
} as const

/** The exit code a run ends with, by how it stopped. */
const EXIT: Readonly<Record<Runner.Reason, ExitCode.ExitCode>> = {
  done: ExitCode.SUCCESS,
  "max-steps": ExitCode.TOOL_FAILED,
  declined: ExitCode.DECLINED,
  dismissed: ExitCode.DECLINED,
  cancelled: ExitCode.TOOL_FAILED,
}

const isMode = (value: string): value is OnAsk.Mode => (OnAsk.MODES as ReadonlyArray<string>).includes(value)

/**
 * Writes the model's text as it streams, and keeps the other lines on lines of their own. Each
 * line is escaped (RunView.modelText): the endpoint's text reaches the terminal the asks are shown on.
 */
const textView = (io: Command.Environment["io"]) => {
  let partial = ""
  const flush = () => {
    if (partial !== "") io.stdout(RunView.modelText(partial))
    partial = ""
  }
  const onEvent = (event: Runner.Event) => {
    if (event.type === "text") {
      // Whole lines go out as they complete; the rest waits for its end or the next other line.
      const lines = (partial + event.delta).split("\n")
      partial = lines.pop() ?? ""
      lines.forEach((line) => io.stdout(RunView.modelText(line)))
      return
    }
    if (event.type === "step") return flush()
    if (event.type === "outcome") {
      flush()
      io.stderr(RunView.callLine(event.tool, event.input, event.outcome))
    } else if (event.type === "todo") {
      flush()
      RunView.todoLines(event.todos).forEach((line) => io.stderr(line))
    } else if (event.type === "finish") flush()
  }
  return { onEvent, flush }
}

export const run: Command.Run = async (parsed, environment) => {
  const { io } = environment
  const usage = (detail: string) => {
    io.stderr(detail)
    return ExitCode.USAGE
  }
  const [argument, ...rest] = parsed.positionals
  if (rest.length > 0) return usage(Messages.tooManyArguments)
  const modelID = Command.string(parsed, "model")
  if (modelID === undefined || modelID.trim() === "") return usage(Messages.missingModel)
  const steps = Command.string(parsed, "max-steps") ?? String(Endpoint.DEFAULT_MAX_STEPS)
  const maxSteps = /^\d+$/.test(steps) ? Number(steps) : Number.NaN
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) return usage(Messages.invalidMaxSteps(steps))
  const idle = Command.string(parsed, "idle-timeout") ?? String(Endpoint.DEFAULT_IDLE_TIMEOUT_S)
  const idleSeconds = /^\d+$/.test(idle) ? Number(idle) : Number.NaN
  if (!Number.isSafeInteger(idleSeconds) || idleSeconds < 1 || idleSeconds > MAX_IDLE_TIMEOUT_S) return usage(Messages.invalidIdleTimeout(idle))
  const onAsk = Command.string(parsed, "on-ask") ?? OnAsk.defaultMode(io)
  if (!isMode(onAsk)) return usage(CallCommand.Messages.invalidOnAsk(onAsk))
  if (ToolCallMarker.of(io.env) !== undefined && onAsk !== "reject" && onAsk !== "deny") {
    io.stderr(CallCommand.Messages.answersInsideToolCall(onAsk))
    return ExitCode.REFUSED
  }
  const named = Command.string(parsed, "base-url") ?? (io.env.TOOLGATE_BASE_URL || undefined) ?? Endpoint.DEFAULT_BASE_URL
  const baseURL = Endpoint.baseUrlOf(named)
  if (baseURL === undefined) return usage(Messages.invalidBaseUrl(named))
  const keyVariable = Command.string(parsed, "api-key-env")
  const apiKey = io.env[keyVariable ?? Endpoint.DEFAULT_API_KEY_ENV]
  if (keyVariable !== undefined && (apiKey === undefined || apiKey === "")) return usage(Messages.missingApiKey(keyVariable))
  const prompt = argument ?? (await io.stdin())
  if (prompt === undefined || prompt.trim() === "") return usage(Messages.missingPrompt)
  const asJson = parsed.values.json === true

  const program = Effect.gen(function* () {
    yield* Project.announce(io.stderr)
    const agent = Command.string(parsed, "agent") === undefined ? undefined : yield* CliLocation.agent(parsed)
    const sessionID = Command.string(parsed, "session")
    const session = yield* SessionTurn.session({ ...(agent === undefined ? {} : { agent }), ...(sessionID === undefined ? {} : { id: sessionID }) })
    yield* CliAnswerer.attach(onAsk, io, session.id)
    const model = yield* Effect.promise(() => Endpoint.model({ id: modelID, baseURL, ...(apiKey === undefined ? {} : { apiKey }) }))
    const view = asJson ? undefined : textView(io)
    const onEvent = view?.onEvent ?? ((event: Runner.Event) => io.stdout(JSON.stringify(event)))
    const ended = yield* Effect.result(Runner.loop({ session, model, messages: [{ role: "user", content: prompt }], maxSteps, onEvent, idleTimeoutMs: idleSeconds * 1_000 }))
    if (ended._tag === "Failure") {
      // What the model had said before it failed (a stall mid-line) is not lost.
      view?.flush()
      const message = Messages.modelFailed(ended.failure.message, baseURL, modelID)
      if (asJson) io.stdout(JSON.stringify({ type: "error", message, session: session.id }))
      // The endpoint's own words are in it (an error body): escaped and cut before the terminal.
      io.stderr(Messages.modelFailed(RunView.failure(ended.failure.message), Io.visible(baseURL), Io.visible(modelID)))
      io.stderr(RunView.Messages.session(session.id))
      return ExitCode.TOOL_FAILED
    }
    const result = ended.success
    if (asJson) io.stdout(JSON.stringify({ type: "result", reason: result.reason, steps: result.steps, usage: result.usage, session: session.id }))
    if (result.reason === "max-steps") io.stderr(Runner.Messages.maxSteps(result.steps))
    io.stderr(RunView.Messages.finished(result.reason, result.steps, result.usage.totalTokens, session.id))
    return EXIT[result.reason]
  })
  return CliLocation.run(parsed, environment, program)
}
