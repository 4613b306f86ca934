/**
 * The patterns one path rule stands for, compared with resources as things, not spellings:
 * resources are real paths (links followed), so a rule written through a link (`/tmp/x` on macOS,
 * a linked home, `~/proj` where `proj` is a link) must also match the real form; and a pattern
 * written as a folder (`secret/`) means the folder and everything in it, not only its name.
 * - `spellings("secret/")` → `secret`, `secret/*`
 * - `spellings("/home/me/link/*")` with `link -> real` → `/home/me/link/*`, `/home/me/real/*`
 * Only an absolute pattern (after `~` and `$HOME`) is resolved: its literal part up to the first
 * segment with `*` or `?`, through its deepest existing folder, once, when the rules are read.
 */
export * as PermissionRuleSpellings from "./rule-spellings.js"

import { RealForm } from "../location/real-form.js"
import { PermissionRule } from "./rule.js"

const WILD = /[*?]/

/** The pattern with its literal leading folders resolved through links; the pattern itself when it has none or is not absolute. */
const resolved = (pattern: string): string => {
  if (!pattern.startsWith("/")) return pattern
  const segments = pattern.split("/")
  const wild = segments.findIndex((segment) => WILD.test(segment))
  const literal = wild === -1 ? segments.length : wild
  // A pattern whose first segment is wild (`/*`) has nothing to resolve.
  if (literal <= 1) return pattern
  const head = segments.slice(0, literal).join("/") || "/"
  const real = RealForm.orSelf(head)
  return real === head ? pattern : [real, ...segments.slice(literal)].join("/")
}

/**
 * Every pattern a path rule's written resource stands for (normalized; `~` and `$HOME` as `home`
 * when one is given), the written form first, without duplicates.
 */
export const spellings = (written: string, home: string | undefined): ReadonlyArray<string> => {
  const expanded = home === undefined ? written : PermissionRule.expandHome(written, home)
  const normalized = PermissionRule.normalizePathPattern(expanded)
  const folder = normalized !== "/" && expanded.replaceAll("\\", "/").endsWith("/") && !normalized.endsWith("*")
  const forms = folder ? [normalized, `${normalized}/*`] : [normalized]
  return [...new Set([...forms, ...forms.map(resolved)])]
}

/** A path pattern as a session stores it: normalized, a folder's trailing slash kept (`spellings` reads it). */
export const stored = (written: string): string => {
  const normalized = PermissionRule.normalizePathPattern(written)
  return normalized !== "/" && written.replaceAll("\\", "/").endsWith("/") ? `${normalized}/` : normalized
}

/** A ruleset with each path rule repeated for each of its spellings, in place (rule order and effects kept). */
export const expand = <R extends PermissionRule.Rule>(rules: ReadonlyArray<R>, home: string | undefined): ReadonlyArray<R> =>
  rules.flatMap((rule) => (PermissionRule.isPathAction(rule.action) ? spellings(rule.resource, home).map((resource) => ({ ...rule, resource })) : [rule]))
