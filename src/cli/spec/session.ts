/** `toolgate session`, as help and the flag parser see it (cli/spec.ts). */
export * as SessionSpec from "./session.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "session",
  summary: "List the sessions, see what one changed, revert it, or end it",
  usage: [
    "toolgate session list [flags]",
    "toolgate session diff <id> [flags]",
    "toolgate session revert <id> <messageID> [--dry-run] [flags]",
    "toolgate session unrevert <id> [flags]",
    "toolgate session end <id> [flags]",
  ],
  description: [
    "list shows the sessions of the project: agent, when made, last call, files changed, asks still",
    "waiting for an answer (in a process still running), open or ended, and the folder it runs in.",
    "diff shows the files a session's calls changed; revert puts them back as they were before a",
    "message (a file you changed since is kept and named); unrevert undoes the last revert; end",
    "ends the session: its session approvals go and it is denied everything from then on.",
  ],
  flags: { ...Spec.LOCATION_FLAGS, "dry-run": { type: "boolean", description: "With revert: print what it would do and change nothing" } },
  examples: [
    { command: "toolgate session list", description: "The project's sessions, the most recently active first" },
    { command: "toolgate session diff ses_demo", description: "What the session changed" },
    { command: "toolgate session revert ses_demo msg_2 --dry-run", description: "What reverting to before message msg_2 would do" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
