/** `toolgate tools`, as help and the flag parser see it (cli/spec.ts). */
export * as ToolsSpec from "./tools.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "tools",
  summary: "List the tools an agent and model would see",
  usage: ["toolgate tools [flags]"],
  description: ["Prints the catalog an agent would get now: each tool's name and the first line of its", "description, or with --json the whole definitions (name, description, input schema)."],
  flags: { ...Spec.LOCATION_FLAGS, model: Spec.MODEL },
  examples: [
    { command: "toolgate tools", description: "The tools of the default agent here" },
    { command: "toolgate tools --agent plan --model gpt-5 --json", description: "What the plan agent would get with that model, as JSON" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
