/** `toolgate approvals`, as help and the flag parser see it (cli/spec.ts). */
export * as ApprovalsSpec from "./approvals.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "approvals",
  summary: "List, revoke or clear the saved approvals of a project",
  usage: ["toolgate approvals list [flags]", "toolgate approvals revoke <id> [flags]", "toolgate approvals clear [--yes] [flags]"],
  description: [
    "What a person allowed \"always\" (the project) or for a session, each with its scope;",
    "revoke takes one back (by its id, or the start of it when only one id starts so), clear takes",
    "back all of them after asking (--yes without a terminal). Runs even with a broken config file.",
  ],
  flags: {
    dir: Spec.DIR,
    config: Spec.CONFIG,
    json: Spec.JSON_OUTPUT,
    yes: { type: "boolean", description: "With clear: remove them without asking (needed when there is no terminal to ask at)" },
  },
  examples: [
    { command: "toolgate approvals list", description: "The saved approvals of the project here" },
    { command: "toolgate approvals revoke psv_01J", description: "Take one back" },
    { command: "toolgate approvals clear --yes", description: "Take back all of them, from a script" },
  ],
  exitCodes: [
    Spec.SUCCESS_CODE,
    Spec.FAILED_CODE,
    [2, "usage error: an unknown or ambiguous id, clear without a terminal or --yes"],
    [4, "clear was answered no"],
  ],
}
