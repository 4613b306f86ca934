/** `toolgate session`, as help and the flag parser see it (cli/spec.ts). */
export * as SessionSpec from "./session.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "session",
  summary: "See what a session changed, revert it, or end it",
  usage: [
    "toolgate session diff <id> [flags]",
    "toolgate session revert <id> <messageID> [--dry-run] [flags]",
    "toolgate session unrevert <id> [flags]",
    "toolgate session end <id> [flags]",
  ],
  description: [
    "diff shows the files a session's calls changed; revert puts them back as they were before a",
    "message (a file you changed since is kept and named); unrevert undoes the last revert; end",
    "ends the session: its session approvals go and it is denied everything from then on.",
  ],
  flags: { ...Spec.LOCATION_FLAGS, "dry-run": { type: "boolean", description: "With revert: print what it would do and change nothing" } },
  examples: [
    { command: "toolgate session diff ses_demo", description: "What the session changed" },
    { command: "toolgate session revert ses_demo msg_2 --dry-run", description: "What reverting to before message msg_2 would do" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
