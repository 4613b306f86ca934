/**
 * Explain and audit, both pure. `explain` says which rule decided an (action, resource) and every
 * other rule that matched, with their sources. `audit` lints a ruleset: denies (or asks) that a
 * later weaker rule overrides fully or partly, rules later rules cover entirely, duplicates,
 * unknown actions, and patterns that can never match. Coverage is decided exactly on the pattern
 * languages (pattern-language.ts), per dimension: a rule is covered when the later rules whose
 * action pattern covers its action together cover its resource pattern. That is sound (a reported
 * cover is real) and misses only covers that need several action patterns at once, or absolute
 * and relative patterns together. Saved approvals never count against a configured deny.
 * A partial shadow is reported only when the later rule reaches outside the deny: a narrower allow
 * inside a broad deny or ask is how exceptions are written, not a mistake.
 * Built-in defaults are not linted for shadowing: overriding them is what config is for, and
 * among themselves they override by design (`.env.example` after `*.env.*`).
 */
export * as RulesetLint from "./ruleset-lint.js"

import { PermissionEvaluate } from "./evaluate.js"
import { PatternLanguage } from "./pattern-language.js"
import { PermissionRule } from "./rule.js"
import { Wildcard } from "./wildcard.js"

export const KINDS = ["shadowed-deny", "partially-shadowed-deny", "dead-rule", "duplicate-rule", "unknown-action", "never-matches"] as const
export type Kind = (typeof KINDS)[number]

/** Actions whose resources are never absolute paths (URLs, queries, ids, `*`). */
export const NON_PATH_ACTIONS: ReadonlyArray<string> = ["webfetch", "websearch", "skill", "todowrite", "question"]

const STRENGTH: Readonly<Record<PermissionRule.Effect, number>> = { allow: 0, ask: 1, deny: 2 }

export interface Indexed {
  readonly rule: PermissionRule.Sourced
  /** Position in the flattened ruleset. */
  readonly index: number
}

export interface Explanation {
  readonly effect: PermissionRule.Effect
  /** The deciding rule; index -1 when nothing matched and the default ask stands. */
  readonly winner: Indexed
  /** Every other matching rule, in order. */
  readonly others: ReadonlyArray<Indexed>
}

export interface Finding {
  readonly kind: Kind
  readonly rules: ReadonlyArray<Indexed>
  readonly message: string
  readonly fix: string
  /** For a partial shadow: an input the later rule takes away from the deny. */
  readonly example?: { readonly action: string; readonly resource: string }
}

/** `"edit tests/** deny" (source)` */
export const describe = ({ rule }: Indexed): string => `"${rule.action} ${rule.resource} ${rule.effect}" (${PermissionRule.describeSource(rule.source)})`

export const Messages = {
  shadowed: (rule: Indexed, by: ReadonlyArray<Indexed>) => `${describe(rule)} never takes effect: ${by.map(describe).join(", ")} later override every input it matches`,
  shadowedFix: (rule: Indexed, by: ReadonlyArray<Indexed>) => `move ${describe(rule)} after ${describe(by.at(-1) as Indexed)}, or narrow the later rule`,
  partial: (rule: Indexed, by: Indexed, action: string, resource: string) =>
    `${describe(rule)} is overridden by ${describe(by)} for some inputs, for example ${action} ${resource}`,
  partialFix: (rule: Indexed, by: Indexed) => `if ${describe(rule)} must always hold, move it after ${describe(by)}`,
  dead: (rule: Indexed, by: ReadonlyArray<Indexed>) => `${describe(rule)} is dead: ${by.map(describe).join(", ")} later decide every input it matches`,
  deadFix: (rule: Indexed) => `remove ${describe(rule)}`,
  duplicate: (rule: Indexed, first: Indexed) => `${describe(rule)} repeats ${describe(first)}`,
  duplicateFix: (first: Indexed) => `remove one of them; the earlier ${describe(first)} has no effect`,
  unknownAction: (rule: Indexed) => `${describe(rule)} names an action no tool has`,
  unknownActionFix: (known: ReadonlyArray<string>) => `use one of: ${known.join(", ")}`,
  neverMatches: (rule: Indexed) => `${describe(rule)} can never match: ${rule.rule.action} resources are never absolute paths or empty`,
  neverMatchesFix: (rule: Indexed) => `write the resource as a ${rule.rule.action} resource (a URL, query or name), or remove the rule`,
} as const

/** Which rule decided, and which others matched. */
export const explain = (
  action: string,
  resource: string,
  rulesets: ReadonlyArray<ReadonlyArray<PermissionRule.Sourced>>,
  context: PermissionEvaluate.Context = {},
): Explanation => {
  const matching = rulesets
    .flat()
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => PermissionEvaluate.matches(rule, action, resource, context))
  // The same decision as evaluation: the last match, but an untrusted project's rule never weakens
  // a deny beneath it, and a saved approval never overrides a configured deny.
  const decide = (candidates: ReadonlyArray<Indexed>) => {
    const last = candidates.at(-1)
    if (last === undefined || !PermissionEvaluate.isUntrusted(last.rule)) return last
    const beneath = candidates.findLast(({ rule }) => !PermissionEvaluate.isUntrusted(rule))
    return beneath?.rule.effect === "deny" ? beneath : last
  }
  const configured = decide(matching.filter(({ rule }) => rule.source.kind !== "saved"))
  const winner = (configured?.rule.effect === "deny" ? configured : decide(matching)) ?? { rule: PermissionEvaluate.fallback(action), index: -1 }
  return { effect: winner.rule.effect, winner, others: matching.filter((entry) => entry !== winner) }
}

/**
 * The later rules that can override `at`: a saved approval never overrides a configured deny.
 * Path rules are compared as strings whether absolute or relative: a relative rule is matched
 * against the absolute form of every path outside the Location, so `read * allow` does decide
 * `/etc/passwd`.
 */
const overriding = (rules: ReadonlyArray<Indexed>, at: Indexed) =>
  rules.filter((later) => later.index > at.index && !(at.rule.effect === "deny" && at.rule.source.kind !== "saved" && later.rule.source.kind === "saved"))

/** Later overriding rules whose action pattern covers `at`'s. */
const coveringLater = (rules: ReadonlyArray<Indexed>, at: Indexed) =>
  overriding(rules, at).filter((later) => PatternLanguage.covers([later.rule.action], at.rule.action))

/**
 * Whether `by` decides every input of `at`. An absolute path pattern inside the Location is also
 * tried in its Location-relative form, which is how relative rules see those paths.
 */
const covered = (by: ReadonlyArray<Indexed>, at: Indexed, location: string | undefined) => {
  if (by.length === 0) return false
  const patterns = by.map((later) => later.rule.resource)
  if (PatternLanguage.covers(patterns, at.rule.resource)) return true
  const prefix = location === undefined ? undefined : `${location}/`
  if (prefix === undefined || !PermissionRule.isPathAction(at.rule.action) || !at.rule.resource.startsWith(prefix)) return false
  const relative = by.filter((later) => !PermissionRule.isAbsolute(later.rule.resource)).map((later) => later.rule.resource)
  return relative.length > 0 && PatternLanguage.covers(relative, at.rule.resource.slice(prefix.length))
}

const isBuiltin = ({ rule }: Indexed) => rule.source.kind === "builtin"

const shadowFindings = (rules: ReadonlyArray<Indexed>, at: Indexed, location: string | undefined): ReadonlyArray<Finding> => {
  const later = coveringLater(rules, at)
  const weaker = later.filter((other) => STRENGTH[other.rule.effect] < STRENGTH[at.rule.effect])
  if (at.rule.effect !== "allow" && covered(weaker, at, location)) {
    return [{ kind: "shadowed-deny", rules: [at, ...weaker], message: Messages.shadowed(at, weaker), fix: Messages.shadowedFix(at, weaker) }]
  }
  if (covered(later, at, location)) return [{ kind: "dead-rule", rules: [at, ...later], message: Messages.dead(at, later), fix: Messages.deadFix(at) }]
  if (at.rule.effect === "allow") return []
  const flat = [...rules.filter((entry) => entry.index <= at.index), ...overriding(rules, at)].map(({ rule }) => rule)
  // A later weaker rule inside the deny's own language is a deliberate exception (`edit * deny`,
  // then `edit src/* allow`); one that reaches outside it punches a hole nobody may have meant.
  const exception = (other: Indexed) =>
    PatternLanguage.covers([at.rule.action], other.rule.action) && PatternLanguage.covers([at.rule.resource], other.rule.resource)
  const candidates = overriding(rules, at).filter((candidate) => STRENGTH[candidate.rule.effect] < STRENGTH[at.rule.effect] && !exception(candidate))
  for (const other of candidates) {
    const action = PatternLanguage.intersection([at.rule.action, other.rule.action])
    const resource = action === undefined ? undefined : PatternLanguage.intersection([at.rule.resource, other.rule.resource])
    if (action === undefined || resource === undefined) continue
    // The witness is an input both match; it shows a real override only if the last word is weaker.
    if (STRENGTH[PermissionEvaluate.evaluate(action, resource, flat).effect] >= STRENGTH[at.rule.effect]) continue
    return [{ kind: "partially-shadowed-deny", rules: [at, other], message: Messages.partial(at, other, action, resource), fix: Messages.partialFix(at, other), example: { action, resource } }]
  }
  return []
}

const sameRule = (a: PermissionRule.Rule, b: PermissionRule.Rule) => a.action === b.action && a.resource === b.resource && a.effect === b.effect

export interface AuditOptions {
  /** Every action a registered tool has (built-in actions included). */
  readonly actions: ReadonlyArray<string>
  /** The Location, to see absolute path rules inside it as relative rules see them. */
  readonly location?: string
}

/** Lints a flattened ruleset; an empty list means clean. */
export const audit = (ruleset: ReadonlyArray<PermissionRule.Sourced>, options: AuditOptions): ReadonlyArray<Finding> => {
  const rules = ruleset.map((rule, index) => ({ rule, index }))
  return rules.flatMap((at): ReadonlyArray<Finding> => {
    const duplicateOf = rules.find((later) => later.index > at.index && sameRule(later.rule, at.rule))
    if (duplicateOf !== undefined) {
      // Restating a built-in default in config (plan's `bash * ask` for every agent) is not a mistake.
      return isBuiltin(at) || isBuiltin(duplicateOf) ? [] : [{ kind: "duplicate-rule", rules: [at, duplicateOf], message: Messages.duplicate(duplicateOf, at), fix: Messages.duplicateFix(at) }]
    }
    if (!options.actions.some((action) => Wildcard.match(action, at.rule.action, { caseInsensitive: true }))) {
      return [{ kind: "unknown-action", rules: [at], message: Messages.unknownAction(at), fix: Messages.unknownActionFix(options.actions) }]
    }
    if (NON_PATH_ACTIONS.includes(at.rule.action) && (at.rule.resource === "" || PermissionRule.isAbsolute(at.rule.resource))) {
      return [{ kind: "never-matches", rules: [at], message: Messages.neverMatches(at), fix: Messages.neverMatchesFix(at) }]
    }
    // Overriding a built-in default is what config is for; only configured rules are linted here.
    return isBuiltin(at) ? [] : shadowFindings(rules, at, options.location)
  })
}
