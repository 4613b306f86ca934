/** `toolgate call`, as help and the flag parser see it (cli/spec.ts). */
export * as CallSpec from "./call.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "call",
  summary: "Run one tool call through the permission gate",
  usage: ["toolgate call <tool> [<json>] [flags]", "echo '<json>' | toolgate call <tool> [flags]"],
  description: [
    "Runs one tool call the way an agent's call runs: the registry, the permission gate, the tool,",
    "and the cut of what goes back to the model (the full text is kept on disk). The input is the",
    "JSON argument, else standard input, else {}. An ask is answered as --on-ask says. Without",
    "--session a new session is made and its id printed on stderr (with --json, as the session field).",
  ],
  flags: {
    ...Spec.LOCATION_FLAGS,
    session: { type: "string", value: "id", description: "The session to call in; created with this id when new", default: "a new session, whose id is printed" },
    message: { type: "string", value: "id", description: "The assistant message the call belongs to (the point `session revert` goes back to)", default: "a new message" },
    model: Spec.MODEL,
    sandbox: Spec.SANDBOX,
    "on-ask": {
      type: "string",
      value: "mode",
      description: "Who answers an ask: prompt (ask at the terminal), once, always, reject (the model reads why), deny",
      default: "prompt at a terminal, else reject",
    },
  },
  examples: [
    { command: `toolgate call read '{"path":"README.md"}'`, description: "Read a file of the current directory" },
    { command: `toolgate call bash '{"command":"npm test","description":"Run the tests"}' --session ses_demo`, description: "Run a command in a named session, asking at the terminal if a rule says ask" },
    { command: `toolgate call edit --on-ask reject --json < input.json`, description: "Edit with the input from a file; an ask is rejected; print the whole outcome as JSON" },
  ],
  exitCodes: [
    Spec.SUCCESS_CODE,
    [1, "the tool failed"],
    [2, "usage error: a tool, agent or flag that does not exist, bad JSON input, a config that cannot be read"],
    [3, "a rule denied the call"],
    [4, "a person declined the call (or dismissed a question)"],
    [5, "an answering --on-ask mode inside a toolgate tool call"],
  ],
}
