/** `toolgate config`, as help and the flag parser see it (cli/spec.ts). */
export * as ConfigSpec from "./config.js"

import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "config",
  summary: "Show which config files are read, the settings they make and each agent's rules",
  usage: ["toolgate config [flags]"],
  description: [
    "Lists the config files of the directory in the order they are read, each with its scope and",
    "whether it was found (the project's: whether it is trusted); then the settings they set and",
    "every agent with how many rules it has. A broken file is named, and the rest still shown.",
  ],
  flags: { dir: Spec.DIR, config: Spec.CONFIG, json: Spec.JSON_OUTPUT },
  examples: [
    { command: "toolgate config", description: "What the config of the current directory is made of" },
    { command: "toolgate config --dir ~/src/app --json", description: "The same for another directory, as JSON" },
  ],
  exitCodes: [Spec.SUCCESS_CODE, Spec.FAILED_CODE, Spec.USAGE_CODE],
}
