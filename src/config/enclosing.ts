/**
 * The project files of the folders that enclose a Location inside its repository. A server's or
 * an MCP client's agent chooses its directory: opened at `repo/secrets`, only
 * `repo/secrets/toolgate.json` was read, so `repo/toolgate.json`'s `edit secrets/** deny` did not
 * hold there (an outside review read and overwrote the secret). Every folder from the Location's
 * parent up to the outermost repository root above it (Project.outermostRoot: a marker the agent
 * made below, `mkdir secrets/.hg`, must not cut the Location off) is looked at, outermost first, and
 * what its project file forbids or asks about holds in the Location too: its `deny` and `ask`
 * rules, with path patterns made absolute from that file's folder (`secrets/**` of `repo/` is
 * `repo/secrets/**`). Its allows and other settings are its own folder's business, not the
 * Location's: they are left out.
 */
export * as ConfigEnclosing from "./enclosing.js"

import path from "node:path"
import { PermissionRule } from "../permission/rule.js"
import type { ConfigValidate } from "./validate.js"

/**
 * The folders enclosing `location` up to `root` (the repository root), outermost first; none when
 * there is no repository or the Location is its root.
 * @example ConfigEnclosing.folders("/repo/a/b", "/repo") // ["/repo", "/repo/a"]
 */
export const folders = (location: string, top: string | undefined): ReadonlyArray<string> => {
  if (top === undefined) return []
  const relative = path.relative(top, location)
  if (relative === "" || relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return []
  const parts = relative.split(path.sep).slice(0, -1)
  return [top, ...parts.map((_, index) => path.join(top, ...parts.slice(0, index + 1)))]
}

const isWildcard = (pattern: string) => pattern.includes("*") || pattern.includes("?")

/** A rule of the file in `folder`, as it holds in a Location below: absolute where it names a path. */
const placed = (folder: string) => (rule: ConfigValidate.SourcedRule): ReadonlyArray<ConfigValidate.SourcedRule> => {
  const relative = !PermissionRule.isAbsolute(rule.resource) && !/^(?:~|\$HOME)(?:[\\/]|$)/.test(rule.resource)
  if (!relative) return [rule]
  const absolute = { ...rule, resource: path.join(folder, rule.resource) }
  if (PermissionRule.isPathAction(rule.action)) return [absolute]
  // `* deny` covers the path actions and the others (bash texts) alike: both readings hold.
  return isWildcard(rule.action) ? [rule, absolute] : [rule]
}

const strict = (folder: string, rules: ReadonlyArray<ConfigValidate.SourcedRule>) => rules.filter((rule) => rule.effect !== "allow").flatMap(placed(folder))

/**
 * What the project file `file` of `folder` imposes on a Location below it: its deny and ask rules
 * (top-level and per agent), placed; nothing else.
 */
export const imposed = (file: ConfigValidate.File, folder: string): ConfigValidate.File => ({
  path: file.path,
  scope: file.scope,
  permission: strict(folder, file.permission),
  agent: Object.fromEntries(Object.entries(file.agent).map(([name, agent]) => [name, { permission: strict(folder, agent.permission) }])),
})
