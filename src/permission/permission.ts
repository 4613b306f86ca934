/**
 * Permission rules and their pure evaluation. A ruleset is an ordered list; the last rule whose
 * action and resource both match wins, and no match at all means "ask" — never a silent allow.
 * Order is meaning: a broad rule after a narrow one overrides it.
 */
export * as Permission from "./permission.js"

import { Schema } from "effect"
import { Wildcard } from "./wildcard.js"

export const EFFECTS = ["allow", "deny", "ask"] as const

export const Effect = Schema.Literals(EFFECTS)
export type Effect = typeof Effect.Type

export const Rule = Schema.Struct({
  action: Schema.String,
  resource: Schema.String,
  effect: Effect,
}).annotate({ identifier: "Permission.Rule" })
export type Rule = typeof Rule.Type

export type Ruleset = ReadonlyArray<Rule>

/** The winning rule for one action and resource; `{ action, resource: "*", effect: "ask" }` when none matches. */
export const evaluate = (action: string, resource: string, ...rulesets: ReadonlyArray<Ruleset>): Rule => {
  const rules = rulesets.flat()
  const winner = rules.findLast((rule) => Wildcard.match(action, rule.action) && Wildcard.match(resource, rule.resource))
  return winner ?? { action, resource: "*", effect: "ask" }
}

/**
 * Whether every input of an action is denied: the action evaluated against "*" and against every
 * resource pattern a rule for it mentions all come out deny. Used to hide tools (visibility only).
 */
export const deniesEverything = (action: string, ...rulesets: ReadonlyArray<Ruleset>): boolean => {
  const mentioned = rulesets.flat().filter((rule) => Wildcard.match(action, rule.action)).map((rule) => rule.resource)
  return ["*", ...mentioned].every((resource) => evaluate(action, resource, ...rulesets).effect === "deny")
}
