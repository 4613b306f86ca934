/**
 * A session in the file-tools harness (real git, real files, real database): the calls a model
 * makes (edit, write, apply_patch through `Tool.settle`; shell commands as bash records them:
 * `before`, the change, then the call settling) and the person's own edits in between. Every ask
 * of the session is answered once, as a person at the prompt would.
 */
import { chmod, lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { Effect, type Scope } from "effect"
import { Answerer } from "../../src/interaction/answerer.js"
import { InteractionStore } from "../../src/interaction/store.js"
import { Session } from "../../src/session.js"
import { History } from "../../src/snapshot/history.js"
import type { Snapshot } from "../../src/snapshot/snapshot.js"
import type { Sql } from "../../src/storage/sql.js"
import { ApplyPatchTool } from "../../src/tool/builtin/apply-patch.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { WriteTool } from "../../src/tool/builtin/write.js"
import { Tool } from "../../src/tool/tool.js"
import { harnessLayer, makeHarness } from "../lib/file-tools.js"

/** Every file of the Location but `.git`, as `path → content` (latin1, so bytes survive), executables marked `*`. */
export const files = (work: string) =>
  Effect.promise(async () => {
    const entries = await readdir(work, { recursive: true, withFileTypes: true })
    const names = entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(work, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .filter((name) => name !== ".git" && !name.startsWith(".git/"))
      .sort()
    return Object.fromEntries(
      await Promise.all(
        names.map(async (name) => {
          const executable = ((await lstat(path.join(work, name))).mode & 0o111) !== 0
          return [`${name}${executable ? "*" : ""}`, await readFile(path.join(work, name), "latin1")] as const
        }),
      ),
    )
  })

/** Someone's own change to the work tree (the person's, or a shell command's). */
export const put = (work: string, file: string, content: string | Buffer) =>
  Effect.promise(async () => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true })
    await writeFile(path.join(work, file), content)
  })
export const remove = (work: string, file: string) => Effect.promise(() => rm(path.join(work, file), { force: true }))
export const mode = (work: string, file: string, bits: number) => Effect.promise(() => chmod(path.join(work, file), bits))

export interface Scene {
  readonly work: string
  readonly id: string
  readonly history: History.Interface
  readonly edit: (message: string, file: string, oldString: string, newString: string) => Effect.Effect<void, unknown>
  readonly write: (message: string, file: string, content: string) => Effect.Effect<void, unknown>
  readonly patch: (message: string, lines: ReadonlyArray<string>) => Effect.Effect<void, unknown>
  /** A shell command of `message` whose effect is `change`: recorded as bash records it. */
  readonly shell: (message: string, change: Effect.Effect<void>) => Effect.Effect<void, unknown>
  readonly files: Effect.Effect<Record<string, string>>
}

/** Runs `body` in a fresh Location holding `initial`, with a `build` session and its tools. */
export const scene = <A>(initial: Record<string, string | Buffer>, body: (scene: Scene) => Effect.Effect<A, unknown, History.Service | Session.Service | Sql.Service | Snapshot.Service | Scope.Scope>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    const work = harness.work
    for (const [file, content] of Object.entries(initial)) yield* put(work, file, content)
    return yield* Effect.gen(function* () {
      const history = yield* History.Service
      const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
      // The model's calls ask what they ask (edit .env asks read first); the person allows each once.
      yield* Effect.flatMap(InteractionStore.Service, (store) => store.attach(Answerer.policy("once"), session.id))
      const tools = { edit: yield* EditTool.make, write: yield* WriteTool.make, patch: yield* ApplyPatchTool.make }
      const counter = { next: 0 }
      const call = (tool: Tool.AnyTool, message: string, input: unknown) => {
        const id = `call_${counter.next++}`
        return Effect.asVoid(Tool.settle(tool, { id, name: "tool", input }, { sessionID: session.id, agent: "build", assistantMessageID: message, toolCallID: id }))
      }
      return yield* body({
        work,
        id: session.id,
        history,
        edit: (message, file, oldString, newString) => call(tools.edit, message, { path: file, oldString, newString }),
        write: (message, file, content) => call(tools.write, message, { path: file, content }),
        patch: (message, lines) => call(tools.patch, message, { patchText: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") }),
        // settle decides what to close when called, so it is called after the change, not before.
        shell: (message, change) => Effect.andThen(history.before(session.id, message), Effect.andThen(change, Effect.suspend(() => history.settle(session.id)))),
        files: files(work),
      })
    }).pipe(Effect.provide(harnessLayer(harness.root)))
  })
