/**
 * settle: the cost of the tool contract. 100 000 settles of a trivial tool (decode → execute →
 * encode → project) against running the same execute function's effect directly, in one fiber.
 * Target: ≤ 5 µs overhead per call. Then the one call path (`SessionTurn.settle` on a catalog
 * materialized once, as a turn does: registry check, events, output bound, outcome) against
 * `Tool.settle`; target ≤ 5 µs above it.
 */
import { mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Effect, Layer, Schema } from "effect"
import { Runtime } from "../src/runtime.js"
import { SessionTurn } from "../src/session/turn.js"
import { ToolRegistry } from "../src/tool/registry.js"
import { Tool } from "../src/tool/tool.js"

const CALLS = 100_000
const ROUNDS = 5

const input = Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) })
const execute = ({ text }: { readonly text: string }) => Effect.succeed(text)
const echo = Tool.make({ description: "Echo.", input, output: Schema.String, execute })
const context: Tool.Context = { sessionID: "ses_b", agent: "build", assistantMessageID: "msg_b", toolCallID: "call_b" }
const call: Tool.Call = { id: "call_b", name: "echo", input: { text: "hello" } }

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
  return { turnMs: Math.min(...rounds.map((r) => r.turn)), toolMs: Math.min(...rounds.map((r) => r.tool)) }
})
const layer = Runtime.layer({ directory: root, environment: { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: root } })
const { turnMs, toolMs } = await Effect.runPromise(Effect.scoped(Effect.provide(turn, layer as Layer.Layer<Runtime.Services>)))
await rm(root, { recursive: true, force: true })
const aboveUs = ((turnMs - toolMs) * 1_000) / TURN_CALLS
console.log(`one call path: ${TURN_CALLS.toLocaleString("en")} calls, best of ${ROUNDS}`)
console.log(`  SessionTurn.settle ${turnMs.toFixed(1)} ms (${((turnMs * 1_000) / TURN_CALLS).toFixed(2)} µs/call)`)
console.log(`  Tool.settle        ${toolMs.toFixed(1)} ms (${((toolMs * 1_000) / TURN_CALLS).toFixed(2)} µs/call)`)
console.log(`  above Tool.settle  ${aboveUs.toFixed(2)} µs/call (target ≤ 5 µs)`)
console.log(`  ratio              ${(turnMs / toolMs).toFixed(1)}×`)
