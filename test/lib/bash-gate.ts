/**
 * The bash gate as the issue reproductions configure it: ask for everything, allow `echo *` and
 * `git status*` (and whatever a test adds), deny what a test denies. `decide` parses a line and
 * evaluates its resources as the permission service does, opaque cap included.
 */
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import type { PermissionRule } from "../../src/permission/rule.js"
import type { BashCommand } from "../../src/tool/builtin/bash/command.js"
import { BashParse } from "../../src/tool/builtin/bash/parse.js"

export const parser = await BashParse.load()

export const HOME = "/home/me"

export const rule = (resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action: "bash", resource, effect, source: { kind: "builtin", agent: "test" } })

/** The configuration of the issue's reproductions. */
export const ISSUE_RULES: ReadonlyArray<PermissionRule.Sourced> = [rule("*", "ask"), rule("echo *", "allow"), rule("git status*", "allow")]

export const decide = (command: string, rules: ReadonlyArray<PermissionRule.Sourced> = ISSUE_RULES) => {
  const parsed = parser.parse(command, { home: HOME })
  const resources = parsed.resources.map((resource) => resource.text)
  return { parsed, effect: PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: rules, session: [], saved: [], opaque: parsed.opaque }).effect }
}

/** A line parsed with HOME as the home directory. */
export const parse = (command: string) => parser.parse(command, { home: HOME })

export const file = (path: string | undefined, ...cwd: ReadonlyArray<string | undefined>): BashCommand.Target => ({ kind: "file", path, cwd })
export const directory = (path: string | undefined, ...cwd: ReadonlyArray<string | undefined>): BashCommand.Target => ({ kind: "directory", path, cwd })

/** Compares targets whatever `path: undefined` looks like (absent or present). */
export const normalized = (targets: ReadonlyArray<BashCommand.Target>) => targets.map((target) => ({ kind: target.kind, path: target.path, cwd: target.cwd }))

/** The targets a program's words name, without the folders it writes its input's names into (BashInputWrites, tested on their own). */
export const named = (targets: ReadonlyArray<BashCommand.Target>) => normalized(targets.filter((target) => target.fed !== true))

/** The folders a command writes what its input names into (`tar x`, `patch`, `git apply`). */
export const fed = (targets: ReadonlyArray<BashCommand.Target>) => normalized(targets.filter((target) => target.fed === true))
