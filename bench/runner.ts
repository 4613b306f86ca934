/**
 * runner: the turn loop's overhead per step (issue 19). `Runner.loop` in a real Location
 * (`Toolgate.open`, hermetic data folder and home, a config file that allows everything, so nothing
 * asks), against the AI SDK's own loop: `generateText` with `stopWhen: stepCountIs(STEPS + 1)` and
 * a plain tool map whose `read` does the same work directly (`readFileSync` of the file, the same
 * header and numbered lines the read tool returns), no gate. The same model on both sides: the
 * scripted `MockLanguageModelV3` of test/lib/model.ts, STEPS steps that each read two small files
 * (two calls, settled in parallel on both sides), then one step of text only. Per step is a run's
 * time over its STEPS + 1 model steps. Median of ROUNDS after WARMUP warm-ups, the sides
 * interleaved (their order alternating); target ≤ 1.2×. The first run checks that both sides
 * showed the model the same tool results.
 * What the gate side does on top, and is measured: per step the catalog materialized (rules read,
 * every built-in tool's JSON Schema offered to the model, not just `read`), an assistant message
 * id; per call the one call path (stale-call check, input decoded, the path resolved and checked,
 * the permission decision with its audit record in SQLite, output bound, events); and it calls the
 * model with `streamText` (the stream is how it reports text and aborts), where the baseline uses
 * `generateText`. A third row, not the target, runs the baseline's tool map with `streamText` and
 * its `fullStream` read to the end, to show how much of the gap is streaming.
 * It runs the sources under tsx, as `npm run bench` does: every closure made per call is also
 * given a name there (≈ 1.5 µs each, see the settle section), which the built code does not pay.
 */
import { readFileSync } from "node:fs"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { type ModelMessage, type ToolSet, generateText, jsonSchema, stepCountIs, streamText, tool } from "ai"
import { Effect } from "effect"
import { Runner } from "../src/ai/runner.js"
import { Toolgate } from "../src/toolgate.js"
import { resultsShown, scripted, type Step } from "../test/lib/model.js"

const STEPS = 20
const ROUNDS = 15
const WARMUP = 3
const TARGET = 1.2
const MODEL_STEPS = STEPS + 1

const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-runner-"))
const work = path.join(root, "work")
const config = path.join(root, "allow.json")
await mkdir(work)
await writeFile(path.join(work, "small.txt"), "a small file\nof two lines\n")
await writeFile(path.join(work, "notes.txt"), Array.from({ length: 10 }, (_, index) => `note ${index + 1}: something to remember`).join("\n") + "\n")
await writeFile(config, JSON.stringify({ permission: [{ action: "*", resource: "*", effect: "allow" }] }))

const script: ReadonlyArray<Step> = [
  ...Array.from({ length: STEPS }, (_, index) => ({
    calls: [
      { id: `a${index}`, name: "read", input: { path: "small.txt" } },
      { id: `b${index}`, name: "read", input: { path: "notes.txt" } },
    ],
  })),
  { text: "done" },
]
const MESSAGES: ReadonlyArray<ModelMessage> = [{ role: "user", content: "read the files" }]

/** The read tool's page of a small text file, done directly. */
const readDirectly = (file: string): string => {
  const lines = readFileSync(path.join(work, file), "utf8").split("\n")
  if (lines.at(-1) === "") lines.pop()
  return [`Read file ${file}, lines 1-${lines.length}`, ...lines.map((line, index) => `${index + 1}: ${line}`)].join("\n")
}

const plainTools: ToolSet = {
  read: tool({
    description: "Reads a file.",
    inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false }),
    execute: async ({ path: file }) => readDirectly(file),
  }),
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

const check = (condition: boolean, what: string) => {
  if (!condition) throw new Error(`runner bench: ${what}`)
}

interface Timed {
  readonly ms: number
  /** What the model was shown on its second call: the first step's results. */
  readonly shown: Record<string, string>
}

const baseline = async (): Promise<Timed> => {
  const { model, calls } = scripted(script)
  const start = performance.now()
  const result = await generateText({ model, messages: [...MESSAGES], tools: plainTools, stopWhen: stepCountIs(MODEL_STEPS) })
  const ms = performance.now() - start
  check(result.steps.length === MODEL_STEPS && result.text === "done", `generateText ran ${result.steps.length} steps`)
  return { ms, shown: resultsShown(calls[1]!) }
}

const streamed = async (): Promise<Timed> => {
  const { model, calls } = scripted(script)
  const start = performance.now()
  const result = streamText({ model, messages: [...MESSAGES], tools: plainTools, stopWhen: stepCountIs(MODEL_STEPS) })
  for await (const part of result.fullStream) if (part.type === "error") throw part.error
  const steps = await result.steps
  const ms = performance.now() - start
  check(steps.length === MODEL_STEPS, `streamText ran ${steps.length} steps`)
  return { ms, shown: resultsShown(calls[1]!) }
}

const program = Effect.gen(function* () {
  const toolgate = yield* Toolgate.open({ directory: work, config, environment: { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: root } })
  /** One loop on a fresh session (made before the clock starts). */
  const gated = Effect.gen(function* () {
    const session = yield* toolgate.session({ agent: "build" })
    const { model, calls } = scripted(script)
    const start = performance.now()
    const result = yield* toolgate.run(Runner.loop({ session, model, messages: MESSAGES, maxSteps: MODEL_STEPS }))
    const ms = performance.now() - start
    check(result.reason === "done" && result.steps === MODEL_STEPS, `Runner.loop stopped with ${result.reason} after ${result.steps} steps`)
    return { ms, shown: resultsShown(calls[1]!) } satisfies Timed
  })
  const first = { toolgate: yield* gated, baseline: yield* Effect.promise(baseline), streamed: yield* Effect.promise(streamed) }
  for (const side of [first.baseline, first.streamed]) {
    check(JSON.stringify(side.shown) === JSON.stringify(first.toolgate.shown), `the model was shown different results: ${JSON.stringify(side.shown)} against ${JSON.stringify(first.toolgate.shown)}`)
  }
  check(first.toolgate.shown.a0 === readDirectly("small.txt"), `read returned ${first.toolgate.shown.a0}`)
  for (let index = 1; index < WARMUP; index++) {
    yield* gated
    yield* Effect.promise(baseline)
    yield* Effect.promise(streamed)
  }
  const ours: Array<number> = []
  const plain: Array<number> = []
  const stream: Array<number> = []
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      ours.push((yield* gated).ms)
      plain.push((yield* Effect.promise(baseline)).ms)
    } else {
      plain.push((yield* Effect.promise(baseline)).ms)
      ours.push((yield* gated).ms)
    }
    stream.push((yield* Effect.promise(streamed)).ms)
  }
  return { ours, plain, stream }
})

const { ours, plain, stream } = await Effect.runPromise(Effect.scoped(program)).finally(() => rm(root, { recursive: true, force: true }))
const perStep = (values: ReadonlyArray<number>) => median(values) / MODEL_STEPS
const ratio = perStep(ours) / perStep(plain)

console.log(`runner: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, ${STEPS} steps of 2 reads + 1 text step, median of ${ROUNDS} after ${WARMUP} warm-ups`)
console.log(`  Runner.loop (toolgate)          ${perStep(ours).toFixed(3)} ms/step (run ${median(ours).toFixed(1)} ms)`)
console.log(`  generateText, plain tools       ${perStep(plain).toFixed(3)} ms/step (run ${median(plain).toFixed(1)} ms)`)
console.log(`  ratio                           ${ratio.toFixed(2)}× (target ≤ ${TARGET}×: ${ratio <= TARGET ? "met" : "missed"})`)
console.log(`  streamText, plain tools (ref.)  ${perStep(stream).toFixed(3)} ms/step (run ${median(stream).toFixed(1)} ms; toolgate / this ${(perStep(ours) / perStep(stream)).toFixed(2)}×)`)
console.log(`  above generateText              ${(perStep(ours) - perStep(plain)).toFixed(3)} ms/step, ${((perStep(ours) - perStep(plain)) / 2).toFixed(3)} ms/call`)
