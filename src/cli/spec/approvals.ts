/** `toolgate approvals`, as help and the flag parser see it (cli/spec.ts). */
export * as ApprovalsSpec from "./approvals.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "approvals",
  summary: "List, revoke or clear the saved approvals of a project",
  usage: ["toolgate approvals list [flags]", "toolgate approvals revoke <id> [flags]", "toolgate approvals clear [flags]"],
  description: ["What a person allowed \"always\" (the project) or for a session, each with its scope;", "revoke takes one back, clear takes back all of them."],
  flags: { dir: Spec.DIR, config: Spec.CONFIG, json: Spec.JSON_OUTPUT },
  examples: [
    { command: "toolgate approvals list", description: "The saved approvals of the project here" },
    { command: "toolgate approvals revoke psv_01J", description: "Take one back" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
