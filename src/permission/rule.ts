/**
 * What a permission rule is and where it came from. A rule is `{ action, resource, effect }`;
 * a sourced rule also remembers its origin (built-in agent, config file and position, session,
 * saved approval), so `explain` can say why a decision was made and trust can downgrade a
 * project file's allows. Path actions compare absolute rules with absolute resources and
 * relative rules with Location-relative ones.
 */
export * as PermissionRule from "./rule.js"

import path from "node:path"
import { Schema } from "effect"

export const EFFECTS = ["allow", "deny", "ask"] as const

export const Effect = Schema.Literals(EFFECTS)
export type Effect = typeof Effect.Type

export const Rule = Schema.Struct({
  action: Schema.String,
  resource: Schema.String,
  effect: Effect,
  /** `"sandboxed"`: the rule applies only to a bash command that runs in the OS sandbox (sandbox/mode.ts). */
  when: Schema.optionalKey(Schema.Literal("sandboxed")),
}).annotate({ identifier: "Permission.Rule" })
export type Rule = typeof Rule.Type

/** Actions whose resources are file paths. `~` and `$HOME` expand only in these. */
export const PATH_ACTIONS: ReadonlyArray<string> = ["read", "edit", "external_directory"]

/**
 * Actions no tool is named after but tools ask: `external_directory`, asked by every tool that
 * takes a path. The audit's known actions are these and the registered tools' own actions
 * (`ToolRegistry.actions`), so a plugin's action is known as soon as it is registered.
 */
export const SHARED_ACTIONS: ReadonlyArray<string> = ["external_directory"]

export type Source =
  | { readonly kind: "builtin"; readonly agent: string }
  | { readonly kind: "config"; readonly file: string; readonly scope: "global" | "project" | "explicit"; readonly index: number; readonly agent?: string }
  | { readonly kind: "session"; readonly sessionID: string; readonly index: number }
  | { readonly kind: "saved"; readonly id: string }
  /** A rule of the organization's policy (permission/policy.ts), by its position there. */
  | { readonly kind: "policy"; readonly position: number; readonly note?: string }
  | { readonly kind: "unknown-agent"; readonly agent: string }
  | { readonly kind: "default" }

export interface Sourced extends Rule {
  readonly source: Source
  /** A project file's `allow` applied as `ask` because the project is not trusted yet. */
  readonly downgraded?: boolean
  /**
   * A rule of a project file that is not trusted yet (any effect): it may make a decision
   * stricter, never weaker, so it never wins over a deny that would win without it.
   */
  readonly untrusted?: boolean
}

export type Ruleset = ReadonlyArray<Rule>

/** Whether a pattern or resource is an absolute path (POSIX, drive letter, or UNC). */
export const isAbsolute = (text: string): boolean => text.startsWith("/") || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith("\\\\")

export const isPathAction = (action: string): boolean => PATH_ACTIONS.includes(action.toLowerCase())

/** How a rule may write the home directory: `~`, `$HOME`, and `${HOME}` (the shell's other spelling, which matched nothing). */
const HOME_SPELLINGS: ReadonlyArray<string> = ["~", "$HOME", "${HOME}"]

/** `~`, `$HOME`, `${HOME}` and each followed by `/…` become the home directory; anything else is unchanged. */
export const expandHome = (resource: string, home: string): string => {
  for (const spelling of HOME_SPELLINGS) {
    if (resource === spelling) return home
    if (resource.startsWith(`${spelling}/`)) return path.join(home, resource.slice(spelling.length + 1))
  }
  return resource
}

/**
 * A path rule's pattern in the form resources have: backslashes as `/`, `.`, `..` and doubled
 * slashes resolved, no trailing slash. Otherwise `./.env` or `secrets//*` would silently never
 * match. Wildcards are ordinary characters to this normalisation.
 */
export const normalizePathPattern = (pattern: string): string => {
  const normalized = path.posix.normalize(pattern.replaceAll("\\", "/"))
  return normalized.length > 1 && normalized.endsWith("/") ? normalized.slice(0, -1) : normalized
}

/** A human description of where a rule came from, for explain. */
export const describeSource = (source: Source): string => {
  switch (source.kind) {
    case "builtin":
      return `built-in agent ${source.agent}`
    case "config":
      return `${source.file}${source.agent === undefined ? " permission" : ` agent.${source.agent}.permission`}[${source.index}]`
    case "session":
      return `session ${source.sessionID} rule ${source.index}`
    case "saved":
      return `saved approval ${source.id}`
    case "policy":
      return `organization policy rule ${source.position}${source.note === undefined ? "" : ` (${source.note})`}`
    case "unknown-agent":
      return `unknown agent ${source.agent}: everything is denied`
    case "default":
      return "no rule matched: the default is ask"
  }
}
