/** A shell-like tool for CLI tests of asking: it asks for `bash <command>` and saves `<first word> *`. */
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { Effect, Layer, Schema } from "effect"
import { Permission } from "../../src/permission/permission.js"
import { ApplicationTools } from "../../src/tool/application-tools.js"
import { Tool } from "../../src/tool/tool.js"
import { promise } from "./cli.js"
import { tmpdir } from "./tmp.js"

export const shell = Layer.effectDiscard(
  Effect.gen(function* () {
    const permission = yield* Permission.Service
    yield* ApplicationTools.register({
      shell: Tool.make({
        description: "Pretends to run a command.",
        input: Schema.Struct({ command: Schema.String.annotate({ description: "The command" }) }),
        output: Schema.String,
        execute: ({ command }, context) =>
          Tool.ask(permission, context, { action: "bash", resources: [command], save: [`${command.split(" ")[0]} *`] }).pipe(Effect.as(`ran ${command}`)),
      }),
    })
  }),
)

/** A repository under a fresh root with `config` as its toolgate.json. */
export const project = (config: unknown) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const dir = path.join(root, "repo")
    yield* promise(() => mkdir(path.join(dir, ".git"), { recursive: true }))
    yield* promise(() => writeFile(path.join(dir, "toolgate.json"), JSON.stringify(config)))
    return { root, dir }
  })

/** Every command asks; `rm *` is denied. */
export const ASK_BASH = { permission: [{ action: "bash", resource: "*", effect: "ask" }, { action: "bash", resource: "rm *", effect: "deny" }] }
