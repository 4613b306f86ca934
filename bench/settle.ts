/**
 * settle: the cost of the tool contract. 100 000 settles of a trivial tool (decode → execute →
 * encode → project) against running the same execute function's effect directly, in one fiber.
 * Target: ≤ 5 µs overhead per call.
 */
import { Effect, Schema } from "effect"
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
