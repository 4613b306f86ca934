/** `toolgate log`, as help and the flag parser see it (cli/spec.ts). */
export * as LogSpec from "./log.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "log",
  summary: "Show the permission decisions recorded for the project",
  usage: ["toolgate log [--session <id>] [--since <time>] [flags]"],
  description: [
    "Prints the audit log of the project, oldest first, one line per decision: when, the session,",
    "the action, the decision (allow, ask or deny; how an ask ended, with the reply), the rules that",
    "decided and where they come from, and the resources. Times are UTC.",
  ],
  flags: {
    dir: Spec.DIR,
    config: Spec.CONFIG,
    session: { type: "string", value: "id", description: "Only the decisions of this session", default: "every session" },
    since: {
      type: "string",
      value: "time",
      description: "Only the decisions from then on: a UTC date or time (2025-06-01, 2025-06-01T12:00:00Z) or an age (30s, 10m, 2h, 3d, 1w)",
      default: "the whole log",
    },
    json: Spec.JSON_OUTPUT,
  },
  examples: [
    { command: "toolgate log --since 1h", description: "What was decided in the last hour" },
    { command: "toolgate log --session ses_demo --json", description: "One session's decisions, as JSON" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
