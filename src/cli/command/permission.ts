/**
 * `toolgate permission eval <action> <resource>… [--explain]`: what the agent's rules (with the
 * project's saved approvals) decide, the effect alone on the first line. `--explain` adds, per
 * resource, the deciding rule with its source and every other rule that matched, and whether the
 * resource is a protected path (ProtectedPath). For `bash` each resource is a command line, judged
 * as the bash tool judges it (its own requests, ToolRequests): the effect is the strictest over
 * every request, and `--explain` lists each request first.
 * `toolgate permission eval --tool <name> '<json>'`: every request that call would make, one line
 * each with its decision, then the call's effect. `--json` prints the same as one object.
 * `toolgate permission audit [--json]`: lints the effective rulesets; exit 1 with findings.
 */
export * as PermissionCommand from "./permission.js"

import { Effect } from "effect"
import { Agents } from "../../permission/agents.js"
import { RulesetLint } from "../../permission/ruleset-lint.js"
import { PermissionEvaluate } from "../../permission/evaluate.js"
import { Permission } from "../../permission/permission.js"
import { PermissionRule } from "../../permission/rule.js"
import { Config } from "../../config.js"
import { Location } from "../../location/location.js"
import { Builtins } from "../../tool/builtins.js"
import { ToolRegistry } from "../../tool/registry.js"
import { ToolRequests } from "../../tool/requests.js"
import type { Tool } from "../../tool/tool.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

/** The action whose resources `permission eval` reads as command lines for the bash tool. */
export const BASH_ACTION = "bash"

export const Messages = {
  usage:
    "Usage: toolgate permission eval <action> <resource>… [--explain] | toolgate permission eval --tool <name> '<json input>' [--explain] [--json] | toolgate permission audit [--json]",
  resource: (resource: string) => `${resource}:`,
  decidedBy: (rule: string) => `  decided by ${rule}`,
  downgraded: `  (${Permission.Messages.raised({ kind: "untrusted" })})`,
  protectedPath: (names: ReadonlyArray<string>) => `  (${Permission.Messages.raised({ kind: "protected", names: [...names] })})`,
  alsoMatched: (rule: string) => `  also matched ${rule}`,
  /** What opacity did to a wildcard allow: it asks unless a rule names the exact text. */
  raised: `  (${Permission.Messages.raised({ kind: "opaque" })})`,
  /** What a sub-command that may stand for others did to a wildcard allow. */
  subcommand: (prefix: string) => `  (${Permission.Messages.raised({ kind: "subcommand", prefix })})`,
  /**
   * One request and its decision: `<effect> <action> [(opaque)] "<resource>"…`, each resource as
   * a JSON string so that spaces and line breaks stay visible.
   */
  request: (effect: PermissionRule.Effect, request: Tool.PermissionRequest) =>
    [effect, request.action, ...(request.opaque === true ? ["(opaque)"] : []), ...request.resources.map((resource) => JSON.stringify(resource))].join(" "),
  noRequests: "(no permission requests)",
  invalidJson: (detail: string) => `Invalid JSON input: ${detail}`,
  clean: (agents: ReadonlyArray<string>) => `No findings for ${agents.join(", ")}.`,
  finding: (agent: string, finding: RulesetLint.Finding) => `${agent}: ${finding.kind}: ${finding.message}\n  fix: ${finding.fix}`,
} as const

/** The explanation lines of each resource a request asked. */
const explanation = (judged: ToolRequests.Judged, rules: ToolRequests.Rules, context: Permission.Interface["context"]): ReadonlyArray<string> =>
  ToolRequests.explain(judged, rules, context).flatMap(({ resource, explanation, raised, subcommand }) => {
    const protectedNames = PermissionEvaluate.protectedNames(judged.asked.action, resource, context)
    return [
      Messages.resource(resource),
      Messages.decidedBy(RulesetLint.describe(explanation.winner)),
      ...(explanation.winner.rule.downgraded === true ? [Messages.downgraded] : []),
      ...(protectedNames.length > 0 ? [Messages.protectedPath(protectedNames)] : []),
      ...(raised ? [Messages.raised] : []),
      ...(subcommand === undefined ? [] : [Messages.subcommand(subcommand)]),
      ...explanation.others.toReversed().map((other) => Messages.alsoMatched(RulesetLint.describe(other))),
    ]
  })

/** Each request's line (with `explain`, its explanation after it). */
const requestLines = (evaluation: ToolRequests.Evaluation, rules: ToolRequests.Rules, context: Permission.Interface["context"], explain: boolean): ReadonlyArray<string> =>
  evaluation.requests.length === 0
    ? [Messages.noRequests]
    : evaluation.requests.flatMap((judged) => [Messages.request(judged.decision.effect, judged.asked), ...(explain ? explanation(judged, rules, context) : [])])

/** `eval <action> <resource>…`: one plain request, or for bash one call of the bash tool per line. */
const evaluate = (parsed: Command.Parsed, environment: Command.Environment, action: string, resources: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { context } = yield* Permission.Service
    const agent = yield* CliLocation.agent(parsed)
    const rules = yield* ToolRequests.rules(agent)
    const calls =
      action === BASH_ACTION
        ? yield* Effect.forEach(resources, (command) => ToolRequests.evaluate(BASH_ACTION, { command }, { agent }))
        : [ToolRequests.judgeAll([{ action, resources }], rules, context)]
    const evaluation: ToolRequests.Evaluation = { requests: calls.flatMap((call) => call.requests), effect: ToolRequests.strictest(calls.map((call) => call.effect)) }
    const { io } = environment
    if (parsed.values.json === true) {
      io.stdout(JSON.stringify(ToolRequests.toJson(evaluation), null, 2))
      return ExitCode.SUCCESS
    }
    io.stdout(evaluation.effect)
    if (parsed.values.explain !== true) return ExitCode.SUCCESS
    // A plain request keeps its explanation alone; the bash tool's requests are listed each.
    const lines = action === BASH_ACTION ? requestLines(evaluation, rules, context, true) : evaluation.requests.flatMap((judged) => explanation(judged, rules, context))
    lines.forEach((line) => io.stdout(line))
    return ExitCode.SUCCESS
  })

/** `eval --tool <name> '<json>'`: every request of that call, then its effect. */
const evaluateTool = (parsed: Command.Parsed, environment: Command.Environment, name: string, input: unknown) =>
  Effect.gen(function* () {
    const { context } = yield* Permission.Service
    const agent = yield* CliLocation.agent(parsed)
    const evaluated = yield* ToolRequests.evaluate(name, input, { agent }).pipe(
      Effect.catchTag("ToolRegistry.UnknownToolError", () => CliLocation.unknownTool(name, agent)),
    )
    const { io } = environment
    if (parsed.values.json === true) {
      io.stdout(JSON.stringify(ToolRequests.toJson(evaluated), null, 2))
      return ExitCode.SUCCESS
    }
    requestLines(evaluated, evaluated.rules, context, parsed.values.explain === true).forEach((line) => io.stdout(line))
    io.stdout(evaluated.effect)
    return ExitCode.SUCCESS
  })

const audit = (parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const config = yield* Config.Service
    const registry = yield* ToolRegistry.Service
    const { directory } = yield* Location.Service
    const named = Command.string(parsed, "agent")
    const agents = named === undefined ? Agents.names(config) : [yield* CliLocation.agent(parsed)]
    const actions = [...new Set([...Builtins.ACTIONS, ...registry.actions()])]
    const findings = yield* Effect.forEach(agents, (agent) =>
      Effect.map(ToolRequests.rules(agent), ({ configured, saved }) =>
        RulesetLint.audit([...configured, ...saved], { actions, location: directory }).map((finding) => ({ agent, finding })),
      ),
    )
    const all = findings.flat()
    const { io } = environment
    if (parsed.values.json === true) {
      io.stdout(JSON.stringify(all.map(({ agent, finding }) => ({ agent, ...finding })), null, 2))
    } else if (all.length === 0) {
      io.stdout(Messages.clean(agents))
    } else {
      all.forEach(({ agent, finding }) => io.stdout(Messages.finding(agent, finding)))
    }
    return all.length === 0 ? ExitCode.SUCCESS : ExitCode.TOOL_FAILED
  })

/** The JSON argument, or the usage error naming what is wrong with it. */
const parseInput = (text: string): unknown | Command.UsageError => {
  try {
    return JSON.parse(text)
  } catch (error) {
    // JSON.parse reports bad input only by throwing; its message is the parser's own.
    return new Command.UsageError({ detail: Messages.invalidJson((error as Error).message) })
  }
}

const usage = (environment: Command.Environment, parsed: Command.Parsed, detail: string) => {
  if (parsed.values.json === true) environment.io.stdout(JSON.stringify({ error: detail }))
  environment.io.stderr(detail)
  return Promise.resolve(ExitCode.USAGE)
}

export const run: Command.Run = (parsed, environment) => {
    const [sub, action, ...resources] = parsed.positionals
    const tool = Command.string(parsed, "tool")
    if (sub === "eval" && tool !== undefined && action !== undefined && resources.length === 0) {
      const input = parseInput(action)
      if (input instanceof Command.UsageError) return usage(environment, parsed, input.message)
      return CliLocation.run(parsed, environment, evaluateTool(parsed, environment, tool, input))
    }
    if (tool !== undefined) return usage(environment, parsed, Messages.usage)
    if (sub === "eval" && action !== undefined && resources.length > 0) return CliLocation.run(parsed, environment, evaluate(parsed, environment, action, resources))
    if (sub === "audit" && action === undefined) return CliLocation.run(parsed, environment, audit(parsed, environment))
    environment.io.stderr(Messages.usage)
    return Promise.resolve(ExitCode.USAGE)
  }
