/**
 * The patterns one path rule stands for, compared with resources as things, not spellings:
 * resources are real paths (links followed), so a rule written through a link (`/tmp/x` on macOS,
 * a linked home, `~/proj` where `proj` is a link) must also match the real form; and a pattern
 * written as a folder (`secret/`) means the folder and everything in it, not only its name.
 * - `spellings("secret/")` → `secret`, `secret/*`
 * - `spellings("/home/me/link/*")` with `link -> real` → `/home/me/link/*`, `/home/me/real/*`
 * An absolute pattern (after `~` and `$HOME`) is resolved: its literal part up to the first
 * segment with `*` or `?`, through its deepest existing folder, once, when the rules are read.
 * So is a relative one when the Location is given: `secret/` with `secret -> vault` also means
 * `vault`, `vault/*` (resources inside are Location-relative), or the absolute real form when the
 * link leads out of the Location. A command rule (`bash`) also stands for its form with blanks as
 * the gate writes them (`commandForm`), and a URL rule (`webfetch`) for its canonical URL
 * (PermissionUrlPattern).
 */
export * as PermissionRuleSpellings from "./rule-spellings.js"

import path from "node:path"
import { RealForm } from "../location/real-form.js"
import { PermissionRule } from "./rule.js"
import { PermissionUrlPattern } from "./url-pattern.js"

const WILD = /[*?]/

/** A relative pattern resolved in the Location: Location-relative while its real form stays inside, absolute past it. */
const resolvedIn = (pattern: string, location: string): string => {
  const absolute = resolved(path.posix.join(location, pattern))
  if (absolute === path.posix.join(location, pattern)) return pattern
  if (absolute === location) return "."
  return absolute.startsWith(`${location}/`) ? absolute.slice(location.length + 1) : absolute
}

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
export const spellings = (written: string, home: string | undefined, location?: string): ReadonlyArray<string> => {
  const expanded = home === undefined ? written : PermissionRule.expandHome(written, home)
  const normalized = PermissionRule.normalizePathPattern(expanded)
  const folder = normalized !== "/" && expanded.replaceAll("\\", "/").endsWith("/") && !normalized.endsWith("*")
  const forms = folder ? [normalized, `${normalized}/*`] : [normalized]
  const relative = (form: string) => location !== undefined && !form.startsWith("/") && !WILD.test(form.split("/")[0] ?? "")
  return [...new Set([...forms, ...forms.map((form) => (relative(form) ? resolvedIn(form, location as string) : resolved(form)))])]
}

/** A path pattern as a session stores it: normalized, a folder's trailing slash kept (`spellings` reads it). */
export const stored = (written: string): string => {
  const normalized = PermissionRule.normalizePathPattern(written)
  return normalized !== "/" && written.replaceAll("\\", "/").endsWith("/") ? `${normalized}/` : normalized
}

/** The action whose rules are command patterns, matched against commands as the bash gate spells them. */
export const COMMAND_ACTION = "bash"

/**
 * A command pattern as the gate spells a command: every run of blanks outside quotes one space,
 * none at the ends. The gate joins a command's words with one space, so `git  push *` (two
 * spaces) would match no command.
 * @example PermissionRuleSpellings.commandForm(" git  push\t*") // "git push *"
 */
export const commandForm = (written: string): string => {
  let quote: string | undefined
  let out = ""
  for (const char of written) {
    if (quote === undefined && (char === " " || char === "\t")) {
      if (!out.endsWith(" ")) out += " "
      continue
    }
    if (char === quote) quote = undefined
    else if (quote === undefined && (char === "'" || char === '"')) quote = char
    out += char
  }
  return out.trim()
}

/** Every pattern a rule's written resource stands for: a path rule's spellings, a command rule's written and gate forms. */
export const resources = (action: string, written: string, home: string | undefined, location?: string): ReadonlyArray<string> => {
  // Actions compare without case (evaluate.ts): `Bash` and `WebFetch` are the tools.
  const tool = action.toLowerCase()
  if (PermissionRule.isPathAction(tool)) return spellings(written, home, location)
  if (tool === COMMAND_ACTION) return [...new Set([written, commandForm(written)])]
  // A URL rule also stands for its canonical form, which is what webfetch matches (url-pattern.ts).
  const url = tool === PermissionUrlPattern.WEB_ACTION ? PermissionUrlPattern.canonical(written) : undefined
  return url === undefined ? [written] : [written, url]
}

/** A ruleset with each path or command rule repeated for each of its spellings, in place (rule order and effects kept). */
export const expand = <R extends PermissionRule.Rule>(rules: ReadonlyArray<R>, home: string | undefined, location?: string): ReadonlyArray<R> =>
  rules.flatMap((rule) => resources(rule.action, rule.resource, home, location).map((resource) => ({ ...rule, resource })))
