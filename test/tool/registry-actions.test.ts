/**
 * The actions `permission audit` knows come from what is registered (issue 13, also): in a real
 * Location the built-ins give exactly the built-in actions, and a plugin's action is known once
 * it is registered.
 */
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Tool } from "../../src/tool/tool.js"
import { Builtins } from "../../src/tool/builtins.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { Toolgate } from "../../src/toolgate.js"
import { tmpdir } from "../lib/tmp.js"

/** Without skills or a search key, skill and websearch are not registered (Builtins.ACTIONS still names them). */
const REGISTERED = ["bash", "edit", "external_directory", "glob", "grep", "question", "read", "todowrite", "webfetch"]

const deploy = Tool.make({
  description: "Deploys.",
  input: Schema.Struct({ target: Schema.String.annotate({ description: "Where" }) }),
  output: Schema.String,
  execute: () => Effect.succeed("done"),
})

describe("ToolRegistry.actions", () => {
  it.live("is the built-in tools' actions in a real Location, and grows with a registered tool", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const toolgate = yield* Toolgate.open({ directory: root, environment: { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: root } })
      const actions = toolgate.run(Effect.map(ToolRegistry.Service, (registry) => registry.actions()))
      expect(yield* actions).toEqual(REGISTERED)
      yield* toolgate.register({ deploy })
      expect(yield* actions).toEqual([...REGISTERED, "deploy"].sort())
      expect([...new Set([...Builtins.ACTIONS, ...REGISTERED])].sort()).toEqual([...REGISTERED, "skill", "websearch"].sort())
    }))
})
