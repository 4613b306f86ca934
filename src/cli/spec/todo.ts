/** `toolgate todo`, as help and the flag parser see it (cli/spec.ts). */
export * as TodoSpec from "./todo.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "todo",
  summary: "Show a session's todo list",
  usage: ["toolgate todo <session> [flags]"],
  description: ["Prints the todo list the todowrite tool keeps for a session."],
  flags: { dir: Spec.DIR, config: Spec.CONFIG, json: Spec.JSON_OUTPUT },
  examples: [{ command: "toolgate todo ses_demo --json", description: "The session's todos as JSON" }],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
