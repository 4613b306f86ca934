/**
 * The permission requests a tool call would make, judged without running it (issue 13). The
 * requests come from the tool's own `requests`, the function its `execute` asks through; each is
 * decided by the pure evaluation as the gate decides it when asked: opaque resources only by exact
 * rules, the other forms of an aliased request only through rules that do not also match its first
 * resource. The effect of a call is the strictest over its requests (deny > ask > allow).
 * Not here, because it is known only while running: a diff (edit and apply_patch list their edit
 * request without it), the addresses a webfetch host resolves to, redirects, and what an answer
 * ("always") changes for the requests after it. `permission eval`, the HTTP explain route and the
 * console call `evaluate`.
 */
export * as ToolRequests from "./requests.js"

import { Effect } from "effect"
import { Approvals } from "../permission/approvals.js"
import { RulesetLint } from "../permission/ruleset-lint.js"
import { PermissionEvaluate } from "../permission/evaluate.js"
import { Permission } from "../permission/permission.js"
import type { PermissionRule } from "../permission/rule.js"
import { Subcommand } from "../permission/subcommand.js"
import { Project } from "../project.js"
import { ToolRegistry } from "./registry.js"
import type { Tool } from "./tool.js"
import { Tracing } from "../tracing.js"

/** How strict an effect is: the strictest of a call's requests is its effect. */
export const STRENGTH: Readonly<Record<PermissionRule.Effect, number>> = { allow: 0, ask: 1, deny: 2 }

/** The rules a request is judged by, in the gate's order. */
export interface Rules {
  readonly configured: ReadonlyArray<PermissionRule.Sourced>
  readonly session: ReadonlyArray<PermissionRule.Sourced>
  readonly saved: ReadonlyArray<PermissionRule.Sourced>
  /** The organization's policy (permission/policy.ts), judged over the rest. */
  readonly policy?: ReadonlyArray<PermissionRule.Sourced>
}

/** One request as the tool lists it, what the gate judges of it, and the decision. */
export interface Judged {
  readonly request: Tool.PermissionRequest
  /** The request as asked: for an aliased one, only the forms that count. */
  readonly asked: Tool.PermissionRequest
  readonly decision: PermissionEvaluate.Decision
}

export interface Evaluation {
  readonly requests: ReadonlyArray<Judged>
  /** The strictest decision; `allow` when the call asks nothing. */
  readonly effect: PermissionRule.Effect
}

/**
 * One resource's deciding rule and the others that matched; `raised` when opacity made a wildcard
 * allow ask, `subcommand` (the words naming it) when a sub-command that may stand for others did.
 */
export interface Explained {
  readonly resource: string
  readonly explanation: RulesetLint.Explanation
  readonly raised: boolean
  readonly subcommand?: string
}

/** The strictest of some effects; `allow` for none. */
export const strictest = (effects: ReadonlyArray<PermissionRule.Effect>): PermissionRule.Effect =>
  effects.reduce<PermissionRule.Effect>((worst, effect) => (STRENGTH[effect] > STRENGTH[worst] ? effect : worst), "allow")

const decide = (request: Tool.PermissionRequest, rules: Rules, context: PermissionEvaluate.Context) =>
  PermissionEvaluate.evaluateInput({
    action: request.action,
    resources: request.resources,
    ...rules,
    // As the gate judges it: a sandboxed command's requests see the rules for sandboxed commands.
    context: request.sandboxed === true ? { ...context, sandboxed: true } : context,
    opaque: request.opaque === true,
  })

/** The forms of an aliased request that count, each judged alone as WebGate judges it. */
const narrowed = (request: Tool.PermissionRequest, rules: Rules, context: PermissionEvaluate.Context): Tool.PermissionRequest => {
  const [primary] = request.resources
  const { aliased: _aliased, ...plain } = request
  if (primary === undefined) return plain
  const judged = request.resources.map((form) => ({ form, rule: decide({ ...plain, resources: [form] }, rules, context).matched[0]?.rule ?? PermissionEvaluate.fallback(request.action) }))
  return { ...plain, resources: PermissionEvaluate.counted(request.action, primary, judged, context).map(({ form }) => form) }
}

/**
 * Decides one request as `Permission.assert` would, asking nobody.
 * @example ToolRequests.judge({ action: "read", resources: [".env"] }, rules, permission.context).decision.effect // "ask"
 */
export const judge = (request: Tool.PermissionRequest, rules: Rules, context: PermissionEvaluate.Context = {}): Judged => {
  const asked = request.aliased === true ? narrowed(request, rules, context) : request
  return { request, asked, decision: decide(asked, rules, context) }
}

/** Every request judged, in order, and the call's effect. */
export const judgeAll = (requests: ReadonlyArray<Tool.PermissionRequest>, rules: Rules, context: PermissionEvaluate.Context = {}): Evaluation => {
  const judged = requests.map((request) => judge(request, rules, context))
  return { requests: judged, effect: strictest(judged.map(({ decision }) => decision.effect)) }
}

/** Per resource of what was asked: the deciding rule, the others that matched, and whether opacity raised it. */
export const explain = (judged: Judged, rules: Rules, context: PermissionEvaluate.Context = {}): ReadonlyArray<Explained> =>
  judged.asked.resources.map((resource) => {
    const ours = RulesetLint.explain(judged.asked.action, resource, [rules.configured, rules.session, rules.saved], context)
    const entry = judged.decision.matched.find((matched) => matched.resource === resource)
    const decided = entry?.rule
    // A policy rule that made it stricter decides, over the rule that would have.
    const explanation =
      decided?.source.kind === "policy" && decided.effect !== ours.effect ? { effect: decided.effect, winner: { rule: decided, index: -1 }, others: [...ours.others, ...(ours.winner.index === -1 ? [] : [ours.winner])] } : ours
    const raised = judged.asked.opaque === true && explanation.effect === "allow" && decided?.effect === "ask"
    const subcommand = entry?.raised === "subcommand" ? Subcommand.standsFor(resource)?.prefix : undefined
    return { resource, explanation, raised, ...(subcommand === undefined ? {} : { subcommand }) }
  })

/** The JSON form of an evaluation (`permission eval --json`, the server's explain): the effect, and every request with its decision and deciding rules. */
export const toJson = (evaluation: Evaluation) => ({
  effect: evaluation.effect,
  requests: evaluation.requests.map(({ asked, decision }) => ({
    action: asked.action,
    resources: asked.resources,
    save: asked.save ?? [],
    opaque: asked.opaque === true,
    metadata: asked.metadata ?? {},
    effect: decision.effect,
    rules: decision.matched.map(({ resource, rule }) => ({ resource, rule })),
  })),
})

/**
 * What an agent's calls are judged by outside any session: its configured rules (built-in
 * defaults, config files, trust applied), the project's saved approvals and the organization's policy.
 */
export const rules = Tracing.fn("ToolRequests.rules")(function* (agent: string) {
  const permission = yield* Permission.Service
  const approvals = yield* Approvals.Service
  const project = yield* Project.Service
  const found: Rules = { configured: yield* permission.configured(agent), session: [], saved: yield* approvals.rules(project.id), policy: yield* permission.policy }
  return found
})

export interface EvaluateOptions {
  readonly agent: string
}

/** An evaluation with the rules it was judged by (for `explain`). */
export interface Evaluated extends Evaluation {
  readonly rules: Rules
}

/**
 * The requests a call of `name` with `input` (JSON arguments) would make in this Location, each
 * judged by the agent's configured rules and the project's saved approvals.
 * @example const { effect } = yield* ToolRequests.evaluate("bash", { command: "git status && rm -rf x" }, { agent: "build" })
 */
export const evaluate = Tracing.fn("ToolRequests.evaluate")(function* (name: string, input: unknown, options: EvaluateOptions) {
  const registry = yield* ToolRegistry.Service
  const permission = yield* Permission.Service
  const requests = yield* registry.requests(name, input, { agent: options.agent })
  const judgedBy = yield* rules(options.agent)
  const evaluated: Evaluated = { ...judgeAll(requests, judgedBy, permission.context), rules: judgedBy }
  return evaluated
})
