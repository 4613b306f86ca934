/**
 * Agents and the configured rules each one gets. `build` allows everything inside the Location
 * and asks for the rest (and for `.env` files); `plan` is `build` that may not edit and asks
 * before every command. An agent defined only in config starts from nothing. An agent that
 * cannot be resolved gets `* * deny`: an unknown agent must never run with someone else's rights.
 * Until a project is trusted, its own config file's `allow` rules apply as `ask` (a repository
 * must not loosen its own rules); its `deny` and `ask` rules apply at once.
 */
export * as Agents from "./agents.js"

import type { Config } from "../config.js"
import { PermissionRule } from "./rule.js"
import { PermissionRuleSpellings } from "./rule-spellings.js"

export const BUILD = "build"
export const PLAN = "plan"
export const BUILTIN: ReadonlyArray<string> = [BUILD, PLAN]

export interface Options {
  readonly home: string
  /** Whether the project has been trusted; until then project-file allows count as asks. */
  readonly trusted: boolean
  /** The Location's real directory: relative path rules are resolved in it too (rule-spellings.ts). */
  readonly location?: string
}

type Triple = readonly [action: string, resource: string, effect: PermissionRule.Effect]

const builtin = (agent: string, triples: ReadonlyArray<Triple>): ReadonlyArray<PermissionRule.Sourced> =>
  triples.map(([action, resource, effect]) => ({ action, resource, effect, source: { kind: "builtin", agent } }))

/**
 * The built-in rules of `build`. Saved tool output needs no rule: a session reads its own
 * without asking, and anyone else's asks like any outside folder (ToolOutputPath).
 */
export const BUILD_RULES: ReadonlyArray<Triple> = [
  ["*", "*", "allow"],
  ["external_directory", "*", "ask"],
  ["read", "*.env", "ask"],
  ["read", "*.env.*", "ask"],
  ["read", "*.env.example", "allow"],
]

/** The built-in rules of `plan`: build's, then no edits and an ask before every command. */
export const PLAN_RULES: ReadonlyArray<Triple> = [...BUILD_RULES, ["edit", "*", "deny"], ["bash", "*", "ask"]]

/** Every agent id the config defines, in first-mention order. */
export const configured = (info: Config.Info): ReadonlyArray<string> => [...new Set(info.files.flatMap((file) => Object.keys(file.agent)))]

/** Every agent there is: the built-in ones, then those the config defines. */
export const names = (info: Config.Info): ReadonlyArray<string> => [...new Set([...BUILTIN, ...configured(info)])]

/** Whether `agent` resolves to a built-in or a configured agent. */
export const exists = (info: Config.Info, agent: string): boolean => BUILTIN.includes(agent) || configured(info).includes(agent)

const fromConfig = (info: Config.Info, agent: string, options: Options): ReadonlyArray<PermissionRule.Sourced> =>
  info.files.flatMap((file) =>
    [...file.permission, ...(file.agent[agent]?.permission ?? [])].flatMap((rule): ReadonlyArray<PermissionRule.Sourced> => {
      const resources = PermissionRuleSpellings.resources(rule.action, rule.resource, options.home, options.location)
      const untrusted = file.scope === "project" && !options.trusted
      const downgrade = untrusted && rule.effect === "allow"
      return resources.map((resource) => ({
        action: rule.action,
        resource,
        effect: downgrade ? "ask" : rule.effect,
        // Kept: a rule for sandboxed commands only must never apply to the others.
        ...(rule.when === undefined ? {} : { when: rule.when }),
        source: { kind: "config", ...rule.source },
        ...(downgrade ? { downgraded: true } : {}),
        ...(untrusted ? { untrusted: true } : {}),
      }))
    }),
  )

/** The configured rules of `agent`, in order: built-in defaults, then each config file's lists. */
export const rules = (info: Config.Info, agent: string, options: Options): ReadonlyArray<PermissionRule.Sourced> => {
  if (agent === BUILD) return [...builtin(BUILD, BUILD_RULES), ...fromConfig(info, agent, options)]
  if (agent === PLAN) return [...builtin(PLAN, PLAN_RULES), ...fromConfig(info, agent, options)]
  if (configured(info).includes(agent)) return fromConfig(info, agent, options)
  return denyAll(agent)
}

/** The rules of an agent that cannot be resolved: everything denied. */
export const denyAll = (agent: string): ReadonlyArray<PermissionRule.Sourced> => [{ action: "*", resource: "*", effect: "deny", source: { kind: "unknown-agent", agent } }]
