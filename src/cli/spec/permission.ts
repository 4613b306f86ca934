/** `toolgate permission`, as help and the flag parser see it (cli/spec.ts). */
export * as PermissionSpec from "./permission.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "permission",
  summary: "Evaluate and explain a permission decision, or audit the rules",
  usage: ["toolgate permission eval <action> <resource>... [flags]", "toolgate permission eval --tool <name> '<json input>' [flags]", "toolgate permission audit [flags]"],
  description: [
    "eval prints the decision the gate would make (allow, ask or deny) without running anything;",
    "with --tool it makes every request the tool would make for that input. --explain names the",
    "deciding rule and its source. audit lists rules that can never apply or allow too much.",
  ],
  flags: {
    ...Spec.LOCATION_FLAGS,
    explain: { type: "boolean", description: "Show the deciding rule of each request, its source and the other rules that matched" },
    tool: { type: "string", value: "name", description: "Evaluate a tool call's requests instead of one action" },
  },
  examples: [
    { command: "toolgate permission eval bash 'git push origin main' --explain", description: "Would this command run, ask or be denied, and why" },
    { command: `toolgate permission eval --tool edit '{"path":".env","old":"a","new":"b"}'`, description: "The requests an edit of .env would make" },
    { command: "toolgate permission audit --agent build", description: "Findings about the build agent's rules" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
