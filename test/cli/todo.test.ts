import { realpath } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TodoCommand } from "../../src/cli/command/todo.js"
import { Cli } from "../../src/cli/main.js"
import { TodoSpec } from "../../src/cli/spec/todo.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Lookup } from "../../src/cli/lookup.js"
import type { Io } from "../../src/cli/io.js"
import { Session } from "../../src/session.js"
import { Todo } from "../../src/todo.js"
import { promise } from "../lib/cli.js"
import { gateLayer, makeRoot } from "../lib/permission.js"

/**
 * Runs the command as the CLI would (strict flags), with home and data dir under `root`: the same
 * database `gateLayer(root)` writes. Through `TodoCommand.run` itself, so the test does not
 * depend on the command being listed in the catalog.
 */
const todoCli = async (args: ReadonlyArray<string>, root: string) => {
  const out: string[] = []
  const err: string[] = []
  const io: Io.Io = {
    stdout: (text) => out.push(`${text}\n`),
    stderr: (text) => err.push(`${text}\n`),
    stdin: () => Promise.resolve(undefined),
    prompt: () => Promise.resolve(undefined),
    isTTY: false,
    cwd: root,
    env: { HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data") },
  }
  const parsed = Cli.parse(TodoSpec.spec, args)
  if (typeof parsed === "string") throw new Error(parsed)
  const code = await TodoCommand.run(parsed, { io, extra: Layer.empty })
  return { code, stdout: out.join(""), stderr: err.join("") }
}

/** A session of the Location `<root>/work` with `todos` stored for it. */
const seed = (root: string, todos: ReadonlyArray<Todo.Item>) =>
  Effect.gen(function* () {
    const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ id: "ses_cli", agent: "build" }))
    yield* Effect.flatMap(Todo.Service, (service) => service.replace(session.id, todos))
  }).pipe(Effect.provide(Todo.layer.pipe(Layer.provideMerge(gateLayer(root)))), Effect.scoped)

const list: ReadonlyArray<Todo.Item> = [
  { id: "1", content: "Read the spec", status: "completed" },
  { content: "Write the command", status: "in_progress", priority: "high" },
  { content: "Write its test", status: "pending" },
]

describe("toolgate todo", () => {
  it.live("prints a session's list as the model reads it, or the stored items with --json", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* seed(root, list)
      const dir = path.join(root, "work")
      expect(yield* promise(() => todoCli(["ses_cli", "--dir", dir], root))).toEqual({
        code: ExitCode.SUCCESS,
        stdout: "[x] Read the spec\n[~] Write the command\n[ ] Write its test\n2 open\n",
        stderr: "",
      })
      const json = yield* promise(() => todoCli(["ses_cli", "--dir", dir, "--json"], root))
      expect(json.code).toBe(ExitCode.SUCCESS)
      expect(JSON.parse(json.stdout)).toEqual(list)
    }))

  it.live("says so when the session has no todos", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* seed(root, [])
      expect(yield* promise(() => todoCli(["ses_cli", "--dir", path.join(root, "work")], root))).toEqual({
        code: ExitCode.SUCCESS,
        stdout: `${TodoCommand.Messages.empty("ses_cli")}\n`,
        stderr: "",
      })
    }))

  it.live("refuses a session no project has, another project's session (naming it), and a missing or extra argument", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* seed(root, list)
      const real = yield* promise(() => realpath(root))
      expect(yield* promise(() => todoCli(["ses_nobody", "--dir", root], root))).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `${Lookup.Messages.unknown("session", "ses_nobody", real, [])}\n`,
      })
      // Without a repository around them, root and root/work are two projects.
      expect(yield* promise(() => todoCli(["ses_cli", "--dir", root], root))).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `${Session.Messages.foreignProject("ses_cli", path.join(real, "work"))}\n`,
      })
      expect(yield* promise(() => todoCli([], root))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${TodoCommand.Messages.usage}\n` })
      expect(yield* promise(() => todoCli(["ses_cli", "extra"], root))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${TodoCommand.Messages.usage}\n` })
    }))
})
