/**
 * What a sandboxed command may not even read: the home folder's secrets (`~/.ssh`, `~/.aws`,
 * `~/.config/gcloud`, `~/.gnupg`), toolgate's own data and config folders (the database of
 * approvals and audit, saved output, the config that holds the rules), and every path a `deny`
 * rule for `read` names. A rule names a path when its pattern is one (`secrets/key.pem`,
 * `~/notes`, `/etc/shadow`) or a folder's content (`secrets/*`, `secrets/**`): then the file or
 * folder is covered. Other wildcard patterns (`*.pem`) name no one path; they still judge what
 * the read tools read, but the sandbox does not hide their matches (docs/sandbox.md).
 */
export * as SandboxHidden from "./hidden.js"

import path from "node:path"
import type { PermissionRule } from "../permission/rule.js"
import { Wildcard } from "../permission/wildcard.js"
import { SandboxBwrap } from "./bwrap.js"

export interface Input {
  readonly location: string
  readonly home: string
  /** toolgate's data folder (the database's) and config folders and files. */
  readonly own: ReadonlyArray<string>
  /** The rules that judge the session's calls, in order. */
  readonly rules: ReadonlyArray<PermissionRule.Rule>
}

const isWildcard = (text: string) => text.includes("*") || text.includes("?")

/** The path a read-deny pattern names, or undefined when it names no one path. */
export const pathOf = (pattern: string, location: string, home: string): string | undefined => {
  const folder = pattern.replace(/\/\*\*?$/, "")
  if (folder === "" || isWildcard(folder)) return undefined
  const expanded = folder === "~" ? home : folder.startsWith("~/") ? path.join(home, folder.slice(2)) : folder
  return path.resolve(location, expanded)
}

/** Every path to cover, absolute. */
export const paths = (input: Input): ReadonlyArray<string> => {
  const denied = input.rules.flatMap((rule) =>
    rule.effect === "deny" && Wildcard.match("read", rule.action) ? [pathOf(rule.resource, input.location, input.home)].filter((entry): entry is string => entry !== undefined) : [],
  )
  // Covering the Location or a folder holding it would take the working directory away: never.
  const holdsLocation = (entry: string) => input.location === entry || input.location.startsWith(entry.endsWith("/") ? entry : `${entry}/`)
  return [...new Set([...SandboxBwrap.HOME_SECRETS.map((name) => path.join(input.home, name)), ...input.own, ...denied])].filter((entry) => !holdsLocation(entry))
}
