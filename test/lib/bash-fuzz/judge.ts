/**
 * The gate's decision on one line, as the bash tool makes it: the parser's resources evaluated
 * against the small allow list (PermissionEvaluate.evaluateInput, opaque input included), and
 * `external_directory` for every target that is unknown or whose lexical or physical resolution
 * (BashPaths.both, the cwd chain first) has a real path outside the workdir; /dev names that are
 * no file (BashTool.NOT_FILES) never ask. ALLOWED is evaluateInput's allow with no such target.
 */
export * as BashFuzzJudge from "./judge.js"

import { realpathSync } from "node:fs"
import path from "node:path"
import { PermissionEvaluate } from "../../../src/permission/evaluate.js"
import type { PermissionRule } from "../../../src/permission/rule.js"
import { BashTool } from "../../../src/tool/builtin/bash.js"
import type { BashCommand } from "../../../src/tool/builtin/bash/command.js"
import type { BashParse } from "../../../src/tool/builtin/bash/parse.js"
import { BashPaths } from "../../../src/tool/builtin/bash/paths.js"

const rule = (resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action: "bash", resource, effect, source: { kind: "builtin", agent: "fuzz" } })

/** The small allow list; the last match wins. */
export const RULES: ReadonlyArray<PermissionRule.Sourced> = [
  rule("*", "ask"),
  rule("echo *", "allow"),
  rule("git status*", "allow"),
  rule("printf *", "allow"),
  rule("true", "allow"),
  rule("cat *", "allow"),
  rule("ls *", "allow"),
  rule("grep *", "allow"),
]

export interface Decision {
  readonly effect: PermissionRule.Effect
  readonly allowed: boolean
  readonly parsed: BashCommand.Parsed
  /** The targets that need external_directory, as `kind path (cwd …)`. */
  readonly external: ReadonlyArray<string>
  /** Basenames of the first words of the resources the allow list allows: the programs the gate judged. */
  readonly judged: ReadonlySet<string>
}

/** The first word of a resource, without its directory (`/bin/rm -f x` → `rm`). */
export const firstWord = (text: string): string => path.basename(text.trim().split(/\s+/)[0] ?? "")

/** The real path of `at`, through its longest existing prefix. */
const real = (at: string): string => {
  try {
    return realpathSync.native(at)
  } catch {
    const parent = path.dirname(at)
    return parent === at ? at : path.join(real(parent), path.basename(at))
  }
}

const inside = (work: string, at: string): boolean => {
  const relative = path.relative(real(work), real(at))
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
}

/** Whether `target` needs external_directory, run from `work`. */
export const needsExternal = (work: string, target: BashCommand.Target): boolean => {
  if (target.kind === "file" && target.path !== undefined && BashTool.NOT_FILES.test(target.path)) return false
  if (target.path === undefined || /[\r\n]/.test(target.path)) return true
  const spread = (bases: ReadonlyArray<string>, relative: string) => {
    const each = bases.map((base) => BashPaths.both(base, relative))
    return each.every((leads) => leads !== undefined) ? [...new Set(each.flat())] : undefined
  }
  const places = target.cwd.reduce<ReadonlyArray<string> | undefined>((at, cd) => (at === undefined || cd === undefined ? undefined : spread(at, cd)), [work])
  if (places === undefined || places.length > BashTool.MAX_PLACES) return true
  if (!places.every((place) => inside(work, place))) return true
  const leads = spread(places, target.path)
  return leads === undefined || !leads.every((at) => inside(work, at))
}

const describeTarget = (target: BashCommand.Target) => `${target.kind} ${JSON.stringify(target.path ?? null)}${target.cwd.length === 0 ? "" : ` (cwd ${JSON.stringify(target.cwd)})`}`

/**
 * The gate's decision on `line` run in `work` with HOME `home`.
 * @example decide(parser, "echo hi", { work, home }).allowed // true
 */
export const decide = (parser: BashParse.Parser, line: string, where: { readonly work: string; readonly home: string }): Decision => {
  const parsed = parser.parse(line, { home: where.home })
  const resources = parsed.resources.map((resource) => resource.text)
  const { effect } = PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: RULES, session: [], saved: [], opaque: parsed.opaque })
  const external = parsed.targets.filter((target) => needsExternal(where.work, target)).map(describeTarget)
  const judged = new Set(resources.filter((text) => PermissionEvaluate.evaluate("bash", text, RULES).effect === "allow").map(firstWord))
  return { effect, allowed: effect === "allow" && external.length === 0, parsed, external, judged }
}
