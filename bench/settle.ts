/**
 * settle: the cost of the tool contract. 100 000 settles of a trivial tool (decode → execute →
 * encode → project) against running the same execute function's effect directly, in one fiber.
 * Target: ≤ 5 µs overhead per call. Then the one call path (`SessionTurn.settle` on a catalog
 * materialized once, as a turn does: registry check, events, output bound, outcome) against
 * `Tool.settle`; target ≤ 5 µs above it. It measures the built code in `dist/` (what `toolgate`
 * runs), built first: under tsx every closure made per call is also given a name, a cost the
 * shipped code does not have.
 */
import { execFileSync } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { Effect, Layer, Schema, Stream } from "effect"
import type { Runtime as RuntimeTypes } from "../src/runtime.js"
import type { Tool as ToolTypes } from "../src/tool/tool.js"

// Typed as the sources, loaded from the build.
execFileSync("npm", ["run", "--silent", "build"], { stdio: "inherit" })
const built = (file: string) => import(pathToFileURL(path.join(import.meta.dirname, "..", "dist", file)).href)
const { Runtime } = (await built("runtime.js")) as typeof import("../src/runtime.js")
const { SessionTurn } = (await built("session/turn.js")) as typeof import("../src/session/turn.js")
const { ToolRegistry } = (await built("tool/registry.js")) as typeof import("../src/tool/registry.js")
const { Tool } = (await built("tool/tool.js")) as typeof import("../src/tool/tool.js")
const { Bus } = (await built("bus.js")) as typeof import("../src/bus.js")

const CALLS = 100_000
const ROUNDS = 5

const input = Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) })
const execute = ({ text }: { readonly text: string }) => Effect.succeed(text)
const echo = Tool.make({ description: "Echo.", input, output: Schema.String, execute })
const context: ToolTypes.Context = { sessionID: "ses_b", agent: "build", assistantMessageID: "msg_b", toolCallID: "call_b" }
const call: ToolTypes.Call = { id: "call_b", name: "echo", input: { text: "hello" } }

const time = (body: Effect.Effect<unknown, unknown>) => {
  const start = process.hrtime.bigint()
  Effect.runSync(body)
  return Number(process.hrtime.bigint() - start) / 1e6
}

const settled = Effect.gen(function* () {
  for (let i = 0; i < CALLS; i++) yield* Tool.settle(echo, call, context)
})
const direct = Effect.gen(function* () {
  for (let i = 0; i < CALLS; i++) yield* execute({ text: "hello" })
})

// Warm up both paths, then take the best of several rounds of each, interleaved.
time(settled)
time(direct)
const results = Array.from({ length: ROUNDS }, () => ({ settle: time(settled), direct: time(direct) }))
const settleMs = Math.min(...results.map((r) => r.settle))
const directMs = Math.min(...results.map((r) => r.direct))
const overheadUs = ((settleMs - directMs) * 1_000) / CALLS

console.log(`settle: ${CALLS.toLocaleString("en")} calls, best of ${ROUNDS}`)
console.log(`  Tool.settle        ${settleMs.toFixed(1)} ms (${((settleMs * 1_000) / CALLS).toFixed(2)} µs/call)`)
console.log(`  execute directly   ${directMs.toFixed(1)} ms (${((directMs * 1_000) / CALLS).toFixed(2)} µs/call)`)
console.log(`  overhead           ${overheadUs.toFixed(2)} µs/call (target ≤ 5 µs)`)
console.log(`  ratio              ${(settleMs / directMs).toFixed(1)}×`)

// The one call path, in a real Location (temporary data dir and working directory).
const TURN_CALLS = 20_000
const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-settle-"))
const turn = Effect.gen(function* () {
  const registry = yield* ToolRegistry.Service
  yield* registry.register({ echo })
  const session = yield* SessionTurn.session({ agent: "build" })
  const catalog = yield* SessionTurn.catalog(session)
  const once = SessionTurn.settle({ session, catalog, message: "msg_b", call })
  const loop = (count: number) =>
    Effect.gen(function* () {
      for (let i = 0; i < count; i++) yield* once
    })
  const timed = <R>(body: Effect.Effect<unknown, unknown, R>) =>
    Effect.gen(function* () {
      const start = process.hrtime.bigint()
      yield* body
      return Number(process.hrtime.bigint() - start) / 1e6
    })
  yield* loop(2_000)
  const rounds = []
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({ turn: yield* timed(loop(TURN_CALLS)), tool: yield* timed(Effect.gen(function* () {
      for (let i = 0; i < TURN_CALLS; i++) yield* Tool.settle(echo, call, context)
    })) })
  }
  const turnMs = Math.min(...rounds.map((r) => r.turn))
  const toolMs = Math.min(...rounds.map((r) => r.tool))
  // What a surface that listens pays: one subscriber draining every event (not the target).
  const bus = yield* Bus.Service
  yield* Effect.forkScoped(Stream.runDrain(yield* bus.subscribe))
  const listened = []
  for (let round = 0; round < ROUNDS; round++) listened.push(yield* timed(loop(TURN_CALLS)))
  return { turnMs, toolMs, listenedMs: Math.min(...listened) }
})
const layer = Runtime.layer({ directory: root, environment: { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: root } })
const { turnMs, toolMs, listenedMs } = await Effect.runPromise(Effect.scoped(Effect.provide(turn, layer as Layer.Layer<RuntimeTypes.Services>)))
await rm(root, { recursive: true, force: true })
const aboveUs = ((turnMs - toolMs) * 1_000) / TURN_CALLS
console.log(`one call path: ${TURN_CALLS.toLocaleString("en")} calls, best of ${ROUNDS}`)
console.log(`  SessionTurn.settle ${turnMs.toFixed(1)} ms (${((turnMs * 1_000) / TURN_CALLS).toFixed(2)} µs/call)`)
console.log(`  Tool.settle        ${toolMs.toFixed(1)} ms (${((toolMs * 1_000) / TURN_CALLS).toFixed(2)} µs/call)`)
console.log(`  above Tool.settle  ${aboveUs.toFixed(2)} µs/call (target ≤ 5 µs)`)
console.log(`  ratio              ${(turnMs / toolMs).toFixed(1)}×`)
console.log(`  with a bus subscriber draining every event: ${((listenedMs * 1_000) / TURN_CALLS).toFixed(2)} µs/call`)
