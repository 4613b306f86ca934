/**
 * Pure evaluation. `evaluate` flattens rulesets in order and returns the last rule whose action
 * and resource both match; no match is `ask`, never a silent allow. `evaluateInput` decides one
 * request: a configured deny on any resource wins and saved approvals can never override it; an
 * empty resource list is `ask`; a guarded resource (an opaque request's text, an `edit` of a
 * protected path) is allowed only by a rule or approval that names it, never by a wildcard
 * alone. For path actions, an absolute rule is compared with the resource's absolute form and a
 * relative rule with its Location-relative form.
 */
export * as PermissionEvaluate from "./evaluate.js"

import path from "node:path"
import { ProtectedPath } from "../location/protected-path.js"
import { PatternLanguage } from "./pattern-language.js"
import { PermissionRule } from "./rule.js"
import { Subcommand } from "./subcommand.js"
import { Wildcard } from "./wildcard.js"

export interface Context {
  /** The Location directory, for the absolute and relative forms of path resources. */
  readonly location?: string
  /** Fold case for every action and resource (Windows). */
  readonly caseInsensitive?: boolean
  /** Fold case for path resources (a case-insensitive file system). */
  readonly caseInsensitivePaths?: boolean
  /**
   * The request is for a command that runs in the OS sandbox (sandbox/mode.ts): only then do
   * rules with `when: "sandboxed"` match. Everywhere else (explain without a sandbox, any other
   * request) they match nothing, so such an allow can never let an unsandboxed command through.
   */
  readonly sandboxed?: boolean
}

/** Whether a rule's condition holds in `context`: a rule without `when` always applies. */
const applies = (rule: PermissionRule.Rule, context: Context) => rule.when === undefined || (rule.when === "sandboxed" && context.sandboxed === true)

/** The action whose resources may be protected paths (ProtectedPath): what file tools ask. */
export const PROTECTED_ACTION = "edit"

export const DEFAULT_SOURCE: PermissionRule.Source = { kind: "default" }

/** The rule that stands when nothing matches. */
export const fallback = (action: string): PermissionRule.Sourced => ({ action, resource: "*", effect: "ask", source: DEFAULT_SOURCE })

/** The absolute and Location-relative forms of a path resource (outside the Location both are absolute). */
export const pathForms = (resource: string, location: string): { readonly absolute: string; readonly relative: string } => {
  const absolute = path.resolve(location, resource)
  const relative = path.relative(location, absolute)
  // `..foo` is a file inside; only `..` itself or a `../` prefix leaves the Location.
  const inside = relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)
  return { absolute, relative: inside ? relative || "." : absolute }
}

/**
 * How actions compare: without case, everywhere. A rule's action names a tool, and a person who
 * writes `Bash` or `WebFetch` means the tool: compared by spelling, a deny so written denied nothing.
 */
const ACTIONS: Wildcard.Options = { caseInsensitive: true }

/** Whether `rule` matches `action` on `resource` in `context`. */
export const matches = (rule: PermissionRule.Rule, action: string, resource: string, context: Context = {}): boolean => {
  const folded = { caseInsensitive: context.caseInsensitive === true }
  if (!applies(rule, context) || !Wildcard.match(action, rule.action, ACTIONS)) return false
  if (context.location === undefined || !PermissionRule.isPathAction(action)) return Wildcard.match(resource, rule.resource, folded)
  const forms = pathForms(resource, context.location)
  const target = PermissionRule.isAbsolute(rule.resource) ? forms.absolute : forms.relative
  return Wildcard.match(target, rule.resource, { caseInsensitive: folded.caseInsensitive || context.caseInsensitivePaths === true })
}

export const isDowngraded = (rule: PermissionRule.Rule) => (rule as PermissionRule.Sourced).downgraded === true

/**
 * Whether `rule` comes from a project file that is not trusted yet and is no deny (an allow
 * applied as ask, or an ask): such a rule may not decide over a deny beneath it.
 */
export const isUntrusted = (rule: PermissionRule.Rule) => (isDowngraded(rule) || (rule as PermissionRule.Sourced).untrusted === true) && rule.effect !== "deny"

/**
 * The winner among `matching` (in rule order): the last one — except that an untrusted project's
 * rule (an allow applied as ask, or an ask) never weakens a deny that would win without it.
 */
const winnerOf = <R extends PermissionRule.Rule>(last: R | undefined, lastTrusted: () => R | undefined): R | undefined => {
  if (last === undefined || !isUntrusted(last)) return last
  const beneath = lastTrusted()
  return beneath?.effect === "deny" ? beneath : last
}

/** The last matching rule of the flattened rulesets, in `context`. */
export const evaluateIn = <R extends PermissionRule.Rule>(context: Context, action: string, resource: string, ...rulesets: ReadonlyArray<ReadonlyArray<R>>): R | PermissionRule.Sourced => {
  const rules = rulesets.flat()
  const find = (accept: (rule: R) => boolean) => rules.findLast((rule) => accept(rule) && matches(rule, action, resource, context))
  return winnerOf(find(() => true), () => find((rule) => !isUntrusted(rule))) ?? fallback(action)
}

/**
 * @example Permission.evaluate("edit", "tests/a.ts", [{ action: "edit", resource: "*", effect: "ask" }]).effect // "ask"
 */
export const evaluate = <R extends PermissionRule.Rule>(action: string, resource: string, ...rulesets: ReadonlyArray<ReadonlyArray<R>>): R | PermissionRule.Sourced =>
  evaluateIn({}, action, resource, ...rulesets)

interface CompiledRule {
  readonly rule: PermissionRule.Sourced
  readonly action: Wildcard.Matcher
  readonly resource: Wildcard.Matcher
  /** The resource matcher with case folded, for path resources on a case-insensitive file system. */
  readonly folded: () => Wildcard.Matcher
  readonly absolute: boolean
}

/** A ruleset compiled once for many evaluations; answers exactly as `evaluateIn` would. */
export interface Evaluator {
  readonly evaluate: (action: string, resource: string) => PermissionRule.Sourced
}

/** Distinct actions whose candidate rules are remembered. */
export const ACTION_CACHE_SIZE = 1_024

/**
 * Compiles every pattern once and remembers, per action, which rules can apply to it, so an
 * evaluation tries only those, newest first, and prepares each resource form once.
 */
export const compile = (rulesets: ReadonlyArray<ReadonlyArray<PermissionRule.Sourced>>, context: Context = {}): Evaluator => {
  const options = { caseInsensitive: context.caseInsensitive === true }
  const compiled = rulesets.flat().filter((rule) => applies(rule, context)).map((rule): CompiledRule => {
    let folded: Wildcard.Matcher | undefined
    const resource = Wildcard.matcher(rule.resource, options)
    return {
      rule,
      action: Wildcard.matcher(rule.action, ACTIONS),
      resource,
      folded: () => (folded ??= options.caseInsensitive ? resource : Wildcard.matcher(rule.resource, { caseInsensitive: true })),
      absolute: PermissionRule.isAbsolute(rule.resource),
    }
  })
  const byAction = new Map<string, ReadonlyArray<CompiledRule>>()
  const candidatesOf = (action: string) => {
    const hit = byAction.get(action)
    if (hit !== undefined) return hit
    const prepared = Wildcard.prepare(action, ACTIONS)
    const made = compiled.filter((entry) => entry.action.test(prepared))
    if (byAction.size >= ACTION_CACHE_SIZE) byAction.clear()
    byAction.set(action, made)
    return made
  }
  /** How a compiled rule is tested against this resource: one prepared form, or the path forms. */
  const testerFor = (action: string, resource: string): ((entry: CompiledRule) => boolean) => {
    if (context.location === undefined || !PermissionRule.isPathAction(action)) {
      const prepared = Wildcard.prepare(resource, options)
      return (entry) => entry.resource.test(prepared)
    }
    const fold = options.caseInsensitive || context.caseInsensitivePaths === true
    const forms = pathForms(resource, context.location)
    const absolute = Wildcard.prepare(forms.absolute, { caseInsensitive: fold })
    const relative = Wildcard.prepare(forms.relative, { caseInsensitive: fold })
    return (entry) => (fold ? entry.folded() : entry.resource).test(entry.absolute ? absolute : relative)
  }
  const evaluate = (action: string, resource: string): PermissionRule.Sourced => {
    const candidates = candidatesOf(action)
    const test = testerFor(action, resource)
    const last = candidates.findLast(test)?.rule
    // The common case costs one scan; only an untrusted winner needs a second look beneath it.
    if (last === undefined || !isUntrusted(last)) return last ?? fallback(action)
    return winnerOf(last, () => candidates.findLast((entry) => !isUntrusted(entry.rule) && test(entry))?.rule) ?? fallback(action)
  }
  return { evaluate }
}

export interface Query {
  readonly action: string
  readonly resources: ReadonlyArray<string>
  /** The agent's configured rules (built-in defaults, config files). */
  readonly configured: ReadonlyArray<PermissionRule.Sourced>
  /** Rules the session was created with. */
  readonly session: ReadonlyArray<PermissionRule.Sourced>
  /** Saved approvals of the project, all `allow`. */
  readonly saved: ReadonlyArray<PermissionRule.Sourced>
  readonly context?: Context
  /**
   * The resources are opaque (a shell command the parser could not see into, 07): a rule with
   * `*` or `?` never allows them; only a rule or saved approval naming the exact text does.
   * An `edit` of a protected path is guarded the same way without this flag (see `protectedNames`).
   */
  readonly opaque?: boolean
  /**
   * Only a rule whose action pattern starts with this text allows (the tools of an MCP server a
   * project file named, `github_`): an allow through a broader action (`*`) becomes ask.
   */
  readonly namedBy?: string
  /**
   * The organization's policy (permission/policy.ts), judged on its own (last match wins within
   * it) and then over everything else: the stricter verdict stands. A policy deny is final; a
   * policy ask makes an allow (a rule's, a saved approval's) ask; a policy allow, or no policy
   * rule matching, takes nothing away. A policy never loosens.
   */
  readonly policy?: ReadonlyArray<PermissionRule.Sourced>
}

/**
 * Why an allow was raised to ask for a guarded resource: the action is only allowed by rules
 * naming its prefix (`named`), the resource is an opaque text (`opaque`), a protected path, or a
 * command whose sub-command the program's config may run as one a rule denies or asks about
 * (`subcommand`, permission/subcommand.ts).
 */
export const GUARDS = ["named", "opaque", "protected", "subcommand"] as const
export type Guard = (typeof GUARDS)[number]

export interface Decision {
  readonly effect: PermissionRule.Effect
  readonly decidedBy: "rule" | "saved"
  /**
   * The winning rule for each resource (for deny: only the denied resources). `raised` says which
   * guard turned the winning allow into this ask; the rule's other fields are the allow's.
   */
  readonly matched: ReadonlyArray<{ readonly resource: string; readonly rule: PermissionRule.Sourced; readonly raised?: Guard }>
}

/** Whether a rule names a guarded resource (or action). */
type Names = (rule: PermissionRule.Rule) => boolean

/** How a resource is guarded; `raises` (when present) says whether the winning allow asks at all. */
interface Guarded {
  readonly guard: Guard
  readonly names: Names
  readonly raises?: () => boolean
}

const foldOf = (context: Context): ProtectedPath.Options => ({ caseInsensitive: context.caseInsensitive === true || context.caseInsensitivePaths === true })

/**
 * The protected names (ProtectedPath) of a resource of `action`, apart: those its path inside the
 * Location holds (`inside`), and those of the Location's own folders (`above`: a server's client
 * chooses its directory, and a Location opened inside a repository's `.git` writes `.git/hooks`
 * when it writes `hooks/`). Outside the Location every folder of the path counts (`inside`): an
 * approval of `external_directory /home/me/*` covers the folder, not `/home/me/.bashrc` in it.
 * Only for `edit`, compared as the volume compares names.
 */
const protectedParts = (action: string, resource: string, context: Context): { readonly inside: ReadonlyArray<string>; readonly above: ReadonlyArray<string> } => {
  if (action !== PROTECTED_ACTION || context.location === undefined) return { inside: [], above: [] }
  const { relative } = pathForms(resource, context.location)
  if (path.isAbsolute(relative)) return { inside: ProtectedPath.within(relative, foldOf(context)), above: [] }
  return { inside: ProtectedPath.within(relative, foldOf(context)), above: ProtectedPath.within(context.location, foldOf(context)) }
}

/**
 * The protected names a resource of `action` holds, the Location's own folders included; empty
 * when it is not protected.
 * @example PermissionEvaluate.protectedNames("edit", "sub/.git/config", { location: "/repo" }) // [".git"]
 * @example PermissionEvaluate.protectedNames("edit", "hooks/pre-commit", { location: "/repo/.git" }) // [".git"]
 */
export const protectedNames = (action: string, resource: string, context: Context): ReadonlyArray<string> => {
  const { inside, above } = protectedParts(action, resource, context)
  return ProtectedPath.NAMES.filter((name) => inside.includes(name) || above.includes(name))
}

/** Whether a pattern has wildcards: only a rule without them names exactly one text. */
const isWildcard = (pattern: string) => pattern.includes("*") || pattern.includes("?")

/**
 * How a request's resource is guarded, or undefined when any allow stands: an opaque text is
 * named only by identical text without wildcards (a rule without wildcards may still match
 * other texts, `\` matches `/`); a protected path by a pattern with its protected names as
 * literal segments, read inside the Location (the Location's own path never names anything).
 */
const guardOf = (query: Query, context: Context) => (resource: string): Guarded | undefined => {
  const prefix = query.namedBy
  if (prefix !== undefined) return { guard: "named", names: (rule) => rule.action.startsWith(prefix) }
  if (query.opaque === true) return { guard: "opaque", names: (rule) => rule.resource === resource && !isWildcard(rule.resource) }
  const stand = query.action === Subcommand.ACTION ? Subcommand.standsFor(resource) : undefined
  if (stand !== undefined) return { guard: "subcommand", names: (rule) => namesPrefix(rule.resource, stand.prefix), raises: () => restricts(query, context, stand.pattern) }
  const { inside, above } = protectedParts(query.action, resource, context)
  if ((inside.length === 0 && above.length === 0) || context.location === undefined) return undefined
  const location = context.location
  // Read inside the Location, a pattern names what it spells there (its path up to the Location
  // names nothing); the Location's own protected folders only an absolute pattern spelling them names.
  const names: Names = (rule) => {
    const absolute = PermissionRule.isAbsolute(rule.resource)
    const within = ProtectedPath.names(absolute ? pathForms(rule.resource, location).relative : rule.resource, inside, foldOf(context))
    return within && (above.length === 0 || (absolute && ProtectedPath.names(rule.resource, above, foldOf(context))))
  }
  return { guard: "protected", names }
}

/** Whether `pattern` spells `prefix` as its first words, without a wildcard among them. */
const namesPrefix = (pattern: string, prefix: string) => (pattern === prefix || pattern.startsWith(`${prefix} `)) && !isWildcard(pattern.slice(0, prefix.length))

/** The rules of `rules` for the query's action, in force in `context`, in order. */
const forAction = (query: Query, context: Context, rules: ReadonlyArray<PermissionRule.Sourced>) =>
  rules.filter((rule) => applies(rule, context) && Wildcard.match(query.action, rule.action, { caseInsensitive: context.caseInsensitive === true }))

/**
 * Whether some command `pattern` stands for may be denied or asked about where the resource
 * itself is allowed: a deny of the configured and session rules, or an ask of those and the saved
 * approvals, after the last rule whose pattern takes in every such command (before it, that
 * rule decides them all), and any when none does. Exact (PatternLanguage), not by spelling.
 */
const restricts = (query: Query, context: Context, pattern: string): boolean => {
  const options = { caseInsensitive: context.caseInsensitive === true }
  const ruled = forAction(query, context, [...query.configured, ...query.session])
  const all = [...ruled, ...forAction(query, context, query.saved)]
  // Each rule's inclusion is decided once; the last covering rule of the configured and session
  // rules bounds the denies, that of all rules the asks.
  const covering = all.map((rule) => PatternLanguage.covers([rule.resource], pattern, options))
  const lastCovering = (end: number) => (end === 0 ? -1 : covering.lastIndexOf(true, end - 1))
  const bound = lastCovering(all.length)
  if (bound === -1) return true
  const denyBound = lastCovering(ruled.length)
  return all.some(
    (rule, index) =>
      rule.effect !== "allow" && (index > bound || (rule.effect === "deny" && index < ruled.length && index > denyBound)) && PatternLanguage.intersection([rule.resource, pattern], options) !== undefined,
  )
}

/**
 * The rule that stands for a guarded resource: the last matching rule that is not an allow
 * failing to name it, if that is a trusted allow; otherwise the winner raised to ask. So a
 * wildcard allow (rule or saved approval) becomes ask, a naming allow beneath it still allows,
 * and an ask between them stands. Deny was decided before this and stands.
 */
const standing = (query: Query, context: Context, resource: string, winner: PermissionRule.Sourced, names: Names): PermissionRule.Sourced => {
  if (winner.effect !== "allow" || names(winner)) return winner
  const named = [...query.configured, ...query.session, ...query.saved].findLast(
    (rule) => (rule.effect !== "allow" || names(rule)) && matches(rule, query.action, resource, context),
  )
  return named !== undefined && named.effect === "allow" && !isDowngraded(named) ? named : { ...winner, effect: "ask" }
}

/** Decides one request; see the module docblock for the order of the three rules. */
export const evaluateInput = (query: Query): Decision => {
  const decision = evaluateRules(query)
  return query.policy === undefined || query.policy.length === 0 ? decision : withPolicy(query, decision)
}

/** The stricter of `decision` and the policy's verdict on each resource. */
const withPolicy = (query: Query, decision: Decision): Decision => {
  const policy = compile([query.policy ?? []], query.context ?? {})
  const verdicts = query.resources.map((resource) => ({ resource, rule: policy.evaluate(query.action, resource) })).filter(({ rule }) => rule.source.kind === "policy")
  const denied = verdicts.filter(({ rule }) => rule.effect === "deny")
  if (denied.length > 0) return { effect: "deny", decidedBy: "rule", matched: denied }
  if (decision.effect === "deny") return decision
  const unreadable = query.opaque === true ? unreadableByPolicy(query) : standsForByPolicy(query)
  // A text the gate cannot read may be what the policy denies or asks about under another
  // spelling: it asks, as the policy's, so no answer saves it and no saved approval lets it by.
  if (unreadable !== undefined) return { effect: "ask", decidedBy: "rule", matched: query.resources.map((resource) => ({ resource, rule: unreadable })) }
  const asks = new Map(verdicts.filter(({ rule }) => rule.effect === "ask").map((verdict) => [verdict.resource, verdict] as const))
  if (asks.size === 0) return decision
  return { effect: "ask", decidedBy: "rule", matched: decision.matched.map((entry) => asks.get(entry.resource) ?? entry) }
}

/** The last policy rule that denies or asks about the query's action, as an ask; undefined when the policy restricts nothing of it. */
const unreadableByPolicy = (query: Query): PermissionRule.Sourced | undefined => {
  const context = query.context ?? {}
  const folded = { caseInsensitive: context.caseInsensitive === true }
  const rule = (query.policy ?? []).findLast((rule) => rule.effect !== "allow" && applies(rule, context) && Wildcard.match(query.action, rule.action, folded))
  return rule === undefined ? undefined : { ...rule, effect: "ask" }
}

/**
 * For a command whose sub-command may stand for others (permission/subcommand.ts): the last
 * policy rule that denies or asks about one of them, as an ask; undefined when none does.
 */
const standsForByPolicy = (query: Query): PermissionRule.Sourced | undefined => {
  if (query.action !== Subcommand.ACTION) return undefined
  const context = query.context ?? {}
  const options = { caseInsensitive: context.caseInsensitive === true }
  const patterns = query.resources.flatMap((resource) => Subcommand.standsFor(resource)?.pattern ?? [])
  if (patterns.length === 0) return undefined
  const rule = forAction(query, context, query.policy ?? []).findLast(
    (rule) => rule.effect !== "allow" && patterns.some((pattern) => PatternLanguage.intersection([rule.resource, pattern], options) !== undefined),
  )
  return rule === undefined ? undefined : { ...rule, effect: "ask" }
}

/** Whether the policy made this decision ask or deny (then no answer may save an approval for it). */
export const byPolicy = (decision: Decision): boolean => decision.effect !== "allow" && decision.matched.some(({ rule }) => rule.source.kind === "policy" && rule.effect !== "allow")

const evaluateRules = (query: Query): Decision => {
  const context = query.context ?? {}
  if (query.resources.length === 0) return { effect: "ask", decidedBy: "rule", matched: [] }
  // Compiled once per request: a patch of 200 files is judged by one pass over the rules each.
  const rules = compile([query.configured, query.session], context)
  const denied = query.resources.map((resource) => ({ resource, rule: rules.evaluate(query.action, resource) })).filter(({ rule }) => rule.effect === "deny")
  if (denied.length > 0) return { effect: "deny", decidedBy: "rule", matched: denied }
  const withSaved = query.saved.length === 0 ? rules : compile([query.configured, query.session, query.saved], context)
  const guard = guardOf(query, context)
  const matched = query.resources.map((resource) => {
    const rule = withSaved.evaluate(query.action, resource)
    const guarded = guard(resource)
    if (guarded === undefined || (guarded.raises !== undefined && (rule.effect !== "allow" || !guarded.raises()))) return { resource, rule }
    const stands = standing(query, context, resource, rule, guarded.names)
    return rule.effect === "allow" && stands.effect === "ask" ? { resource, rule: stands, raised: guarded.guard } : { resource, rule: stands }
  })
  const effect = matched.some(({ rule }) => rule.effect !== "allow") ? "ask" : "allow"
  const decidedBy = effect === "allow" && matched.some(({ rule }) => rule.source.kind === "saved") ? "saved" : "rule"
  return { effect, decidedBy, matched }
}

/**
 * Which judged forms of one resource count (webfetch: a URL and the loopback or addresses it
 * reaches): `primary` itself, and each other form whose deciding rule does not also match
 * `primary`. A catch-all (`*`, the default ask) has judged the primary already, and a rule naming
 * the primary (`https://docs.example/* allow`) must not be undone by one its other forms fall under.
 * @example PermissionEvaluate.counted("webfetch", "http://localhost/", [{ form: "http://127.0.0.1/", rule: fallback("webfetch") }]) // []
 */
export const counted = <J extends { readonly form: string; readonly rule: PermissionRule.Rule }>(action: string, primary: string, judged: ReadonlyArray<J>, context: Context = {}): ReadonlyArray<J> =>
  judged.filter(({ form, rule }) => form === primary || !matches(rule, action, primary, context))

/**
 * Whether every input of an action is denied: the action evaluated against "*" and against every
 * resource pattern a rule for it mentions all come out deny. Hides tools (visibility only).
 */
export const deniesEverything = (action: string, ...rulesets: ReadonlyArray<PermissionRule.Ruleset>): boolean => {
  const mentioned = rulesets.flat().filter((rule) => Wildcard.match(action, rule.action)).map((rule) => rule.resource)
  return ["*", ...mentioned].every((resource) => evaluate(action, resource, ...rulesets).effect === "deny")
}
