/** `toolgate trust` and `toolgate untrust`, as help and the flag parser see them (cli/spec.ts). */
export * as TrustSpec from "./trust.js"

import { Spec } from "../spec.js"

export const trust: Spec.Spec = {
  name: "trust",
  summary: "Trust the project's config file as it is now: its allow rules apply",
  usage: ["toolgate trust [flags]"],
  description: [
    "Shows the project config file (and what changed since it was last trusted, and the MCP servers",
    "it would start), then trusts exactly that content. Until then its allow rules apply as ask.",
    "Only a person may run it: inside a toolgate tool call it is refused.",
  ],
  flags: { dir: Spec.DIR, config: Spec.CONFIG },
  examples: [{ command: "toolgate trust", description: "Trust .toolgate/toolgate.json of the current directory" }],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE, [5, "run inside a toolgate tool call"]],
}

export const untrust: Spec.Spec = {
  name: "untrust",
  summary: "Stop trusting the project's config file: its allows become asks",
  usage: ["toolgate untrust [flags]"],
  description: ["Takes back toolgate trust: the project file's allow rules apply as ask again."],
  flags: { dir: Spec.DIR, config: Spec.CONFIG },
  examples: [{ command: "toolgate untrust --dir ~/src/app", description: "Stop trusting that project's config" }],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
