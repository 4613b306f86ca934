/**
 * The rules that judge an agent's calls (issue 18, the console's rules view): every rule in
 * evaluation order (the last match wins) with its source in words, the project's saved approvals
 * after them, and the findings of `permission audit` naming the rules they concern by position.
 */
export * as RulesRoutes from "./rules.js"

import { Effect, Schema } from "effect"
import { Agents } from "../../permission/agents.js"
import { PermissionRule } from "../../permission/rule.js"
import { RulesetLint } from "../../permission/ruleset-lint.js"
import { Config } from "../../config.js"
import { Location } from "../../location/location.js"
import { Builtins } from "../../tool/builtins.js"
import { ToolRegistry } from "../../tool/registry.js"
import { ToolRequests } from "../../tool/requests.js"
import { ServerHub } from "../hub.js"
import { ServerRoute } from "../route.js"
import { agentOf } from "./tool.js"

export const RulesQuery = Schema.Struct({
  directory: Schema.optionalKey(Schema.String),
  agent: Schema.optionalKey(Schema.String.annotate({ description: "The agent (default: the configured default)" })),
})

const list = ServerRoute.make({
  method: "GET",
  path: "/api/rules",
  tag: "permission",
  summary: "An agent's rules in evaluation order with their sources, the saved approvals after them, and the audit's findings",
  query: RulesQuery,
  responses: { 200: { description: "{ agent, agents, rules: [{ index, action, resource, effect, source, saved }], findings: [{ kind, message, fix, rules: number[] }] }" }, 400: { description: "InvalidRequestError: agent" } },
  handle: ({ query }) =>
    ServerHub.replying(
      Effect.gen(function* () {
        const handle = yield* (yield* ServerHub.Service).location(query.directory)
        return yield* handle.run(
          Effect.gen(function* () {
            const agent = yield* agentOf(query.agent)
            if (typeof agent !== "string") return agent
            const config = yield* Config.Service
            const registry = yield* ToolRegistry.Service
            const { directory } = yield* Location.Service
            const { configured, saved } = yield* ToolRequests.rules(agent)
            const all = [...configured, ...saved]
            const findings = RulesetLint.audit(all, { actions: [...new Set([...Builtins.ACTIONS, ...registry.actions()])], location: directory })
            return ServerRoute.ok({
              agent,
              agents: Agents.names(config),
              rules: all.map((rule, index) => ({ index, action: rule.action, resource: rule.resource, effect: rule.effect, ...(rule.when === undefined ? {} : { when: rule.when }), source: PermissionRule.describeSource(rule.source), saved: index >= configured.length })),
              findings: findings.map((finding) => ({ kind: finding.kind, message: finding.message, fix: finding.fix, rules: finding.rules.map((rule) => rule.index) })),
            })
          }),
        )
      }),
    ),
})

export const ROUTES: ReadonlyArray<ServerRoute.Route> = [list]
