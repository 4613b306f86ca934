/**
 * Which file-editing tools a model gets. Some models are trained on `apply_patch` and do better
 * with it than with `edit`/`write`; every other model loses `apply_patch`. The rule is one table:
 * by default a model id containing `gpt-` but neither `oss` nor `gpt-4` gets `apply_patch`;
 * config `models.apply_patch` (wildcard patterns) replaces that default.
 */
export * as ModelTools from "./model-tools.js"

import { Wildcard } from "../permission/wildcard.js"

export const PATCH_TOOLS: ReadonlyArray<string> = ["apply_patch"]
export const EDIT_TOOLS: ReadonlyArray<string> = ["edit", "write"]

const DEFAULT_INCLUDES = "gpt-"
const DEFAULT_EXCLUDES: ReadonlyArray<string> = ["oss", "gpt-4"]

/** Whether `model` gets apply_patch instead of edit and write. */
export const usesApplyPatch = (model: string, patterns?: ReadonlyArray<string>): boolean =>
  patterns === undefined
    ? model.includes(DEFAULT_INCLUDES) && !DEFAULT_EXCLUDES.some((word) => model.includes(word))
    : patterns.some((pattern) => Wildcard.match(model, pattern))

/** Whether the tool `name` is offered to `model`; without a model id every tool is. */
export const offers = (name: string, model: string | undefined, patterns?: ReadonlyArray<string>): boolean => {
  if (model === undefined) return true
  const patch = usesApplyPatch(model, patterns)
  if (PATCH_TOOLS.includes(name)) return patch
  if (EDIT_TOOLS.includes(name)) return !patch
  return true
}
