/**
 * `toolgate permission eval <action> <resource>… [--explain]`: what the agent's rules (with the
 * project's saved approvals) decide, the effect alone on the first line. `--explain` adds, per
 * resource, the deciding rule with its source and every other rule that matched, and whether the
 * resource is a protected path (ProtectedPath).
 * `toolgate permission audit [--json]`: lints the effective rulesets; exit 1 with findings.
 */
export * as PermissionCommand from "./permission.js"

import { Effect } from "effect"
import { Agents } from "../../permission/agents.js"
import { Approvals } from "../../permission/approvals.js"
import { PermissionAudit } from "../../permission/audit.js"
import { PermissionEvaluate } from "../../permission/evaluate.js"
import { Permission } from "../../permission/permission.js"
import { PermissionRule } from "../../permission/rule.js"
import { Config } from "../../config.js"
import { Location } from "../../location/location.js"
import { Project } from "../../project.js"
import { ToolRegistry } from "../../tool/registry.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"

export const Messages = {
  usage: "Usage: toolgate permission eval <action> <resource>… [--explain] | toolgate permission audit [--json]",
  resource: (resource: string) => `${resource}:`,
  decidedBy: (rule: string) => `  decided by ${rule}`,
  downgraded: "  (a project allow applied as ask: the project is not trusted yet; run toolgate trust)",
  protectedPath: (names: ReadonlyArray<string>) => `  (a protected path: only an allow rule naming ${names.join(" and ")} allows it; other allows apply as ask)`,
  alsoMatched: (rule: string) => `  also matched ${rule}`,
  clean: (agents: ReadonlyArray<string>) => `No findings for ${agents.join(", ")}.`,
  finding: (agent: string, finding: PermissionAudit.Finding) => `${agent}: ${finding.kind}: ${finding.message}\n  fix: ${finding.fix}`,
} as const

/** The agent's configured rules and the project's saved approvals, as one flattened ruleset. */
const effectiveRules = Effect.fnUntraced(function* (agent: string) {
  const permission = yield* Permission.Service
  const approvals = yield* Approvals.Service
  const project = yield* Project.Service
  const configured = yield* permission.configured(agent)
  const saved = yield* approvals.rules(project.id)
  return { configured, saved }
})

const evaluate = (parsed: Command.Parsed, environment: Command.Environment, action: string, resources: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const permission = yield* Permission.Service
    const agent = Command.string(parsed, "agent") ?? (yield* permission.defaultAgent)
    const { context } = permission
    const { configured, saved } = yield* effectiveRules(agent)
    const decision = PermissionEvaluate.evaluateInput({ action, resources, configured, session: [], saved, context })
    const { io } = environment
    io.stdout(decision.effect)
    if (parsed.values.explain !== true) return ExitCode.SUCCESS
    for (const resource of resources) {
      const explanation = PermissionAudit.explain(action, resource, [configured, saved], context)
      io.stdout(Messages.resource(resource))
      io.stdout(Messages.decidedBy(PermissionAudit.describe(explanation.winner)))
      if (explanation.winner.rule.downgraded === true) io.stdout(Messages.downgraded)
      const protectedNames = PermissionEvaluate.protectedNames(action, resource, context)
      if (protectedNames.length > 0) io.stdout(Messages.protectedPath(protectedNames))
      explanation.others.toReversed().forEach((other) => io.stdout(Messages.alsoMatched(PermissionAudit.describe(other))))
    }
    return ExitCode.SUCCESS
  })

const audit = (parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const config = yield* Config.Service
    const registry = yield* ToolRegistry.Service
    const { directory } = yield* Location.Service
    const named = Command.string(parsed, "agent")
    const agents = named === undefined ? [...new Set([...Agents.BUILTIN, ...Agents.configured(config)])] : [named]
    const catalog = yield* registry.materialize({ rules: [] })
    const actions = [...new Set([...PermissionRule.BUILTIN_ACTIONS, ...catalog.definitions.map((definition) => definition.name)])]
    const findings = yield* Effect.forEach(agents, (agent) =>
      Effect.map(effectiveRules(agent), ({ configured, saved }) =>
        PermissionAudit.audit([...configured, ...saved], { actions, location: directory }).map((finding) => ({ agent, finding })),
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

export const command: Command.Command = {
  name: "permission",
  summary: "Evaluate and explain a permission decision, or audit the rules",
  usage: "toolgate permission eval <action> <resource>… [--agent A] [--explain] | toolgate permission audit [--agent A] [--json]",
  options: { ...Command.LOCATION_OPTIONS, explain: { type: "boolean" } },
  run: (parsed, environment) => {
    const [sub, action, ...resources] = parsed.positionals
    if (sub === "eval" && action !== undefined && resources.length > 0) return CliLocation.run(parsed, environment, evaluate(parsed, environment, action, resources))
    if (sub === "audit" && action === undefined) return CliLocation.run(parsed, environment, audit(parsed, environment))
    environment.io.stderr(Messages.usage)
    return Promise.resolve(ExitCode.USAGE)
  },
}
