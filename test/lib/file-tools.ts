/**
 * A harness for file tools: a real Location folder `<root>/work` (with `.git`), a real database,
 * the real permission gate with the `build` agent's rules (plus config given by the test), the
 * output store under `<root>/data/tool-output`, the FileAccess and FileMutation services, and a helper that settles a tool call while answering
 * every permission ask with a chosen reply (recording what was asked).
 */
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { Effect, Fiber, Layer, Queue, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import type { Config } from "../../src/config.js"
import { FileMutation } from "../../src/location/file-mutation.js"
import { Permission } from "../../src/permission/permission.js"
import { Session } from "../../src/session.js"
import { History } from "../../src/snapshot/history.js"
import { FileAccess } from "../../src/tool/builtin/file-access.js"
import { Tool } from "../../src/tool/tool.js"
import { ToolOutputStore } from "../../src/tool-output-store.js"
import { gateLayer, type Options } from "./permission.js"
import { tmpdir } from "./tmp.js"

export interface Harness {
  readonly root: string
  /** The Location directory (real path). */
  readonly work: string
  readonly home: string
}

export const harnessLayer = (root: string, config?: Partial<Config.Info>, options: Pick<Options, "caseInsensitive"> = {}) =>
  Layer.mergeAll(FileAccess.layer({ home: path.join(root, "home") }), FileMutation.layer, History.layerWithSnapshot(path.join(root, "data"))).pipe(
    Layer.provideMerge(ToolOutputStore.projectLayer({ directory: path.join(root, "data", "tool-output") })),
    Layer.provideMerge(gateLayer(root, { ...(config === undefined ? {} : { config }), ...options })),
  )

/** Makes the folders and returns their paths; provide `harnessLayer(root)` to the test body. */
export const makeHarness = Effect.gen(function* () {
  const root = yield* tmpdir
  const work = path.join(root, "work")
  yield* Effect.promise(() => mkdir(path.join(work, ".git"), { recursive: true }))
  yield* Effect.promise(() => mkdir(path.join(root, "home"), { recursive: true }))
  return { root, work, home: path.join(root, "home") } satisfies Harness
})

export type Answer = Permission.ReplyInput["reply"] | { readonly reply: "reject"; readonly message: string } | ((request: Permission.Request) => Effect.Effect<Permission.ReplyInput["reply"]>)

/**
 * Settles `tool` with `input` in a fresh `build` session, answering every ask with `answer`
 * (default `once`). Returns the settle result as an Exit-like record and every request asked.
 */
export const settle = (tool: Tool.AnyTool, input: unknown, answer: Answer = "once") =>
  Effect.gen(function* () {
    const bus = yield* Bus.Service
    const permission = yield* Permission.Service
    const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
    const asked: Permission.Request[] = []
    const requests = yield* Queue.unbounded<Permission.Request>()
    const stream = yield* bus.on(Permission.Asked)
    const answerer = yield* stream.pipe(
      Stream.runForEach(({ payload }) =>
        Effect.gen(function* () {
          asked.push(payload)
          yield* Queue.offer(requests, payload)
          const reply = typeof answer === "function" ? yield* answer(payload) : answer
          const input = typeof reply === "string" ? { requestID: payload.id, reply } : { requestID: payload.id, ...reply }
          yield* permission.reply(input).pipe(Effect.catchTag("Permission.NotFoundError", () => Effect.void))
        }),
      ),
      Effect.forkScoped,
    )
    const context: Tool.Context = { sessionID: session.id, agent: "build", assistantMessageID: "msg_test", toolCallID: "call_test" }
    const result = yield* Effect.result(Tool.settle(tool, { id: "call_test", name: "tool", input }, context))
    yield* Fiber.interrupt(answerer)
    return { result, asked }
  })

/** The text parts of a settled result joined, or the failure's message. */
export const textOf = (result: { readonly _tag: "Success"; readonly success: Tool.Settled } | { readonly _tag: "Failure"; readonly failure: { readonly message: string } }) =>
  result._tag === "Success" ? result.success.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n") : result.failure.message
