/**
 * external: the overhead of a tool of an external MCP server called through toolgate (the one
 * call path: catalog check, the gate's ask-or-allow, the SDK client, the output bound) against
 * calling the same server's tool directly with the SDK client, in one run. The server is
 * bench/lib-mcp-echo.mjs (one `echo` tool) over stdio, one process each side. 300 warm-up calls,
 * then 2 000 sequential calls each in 4 alternating blocks; p50 and p99. Target ≤ 1.3× at p50.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { Effect, Exit, Scope } from "effect"
import { Toolgate } from "../src/toolgate.js"

const WARM = 300
const CALLS = 2_000
const BLOCKS = 4
const echoServer = path.join(import.meta.dirname, "lib-mcp-echo.mjs")

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number
}

const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-external-"))
const work = path.join(root, "work")
await mkdir(work)
const config = path.join(root, "config.json")
await writeFile(config, JSON.stringify({ mcp: { servers: { bench: { command: [process.execPath, echoServer] } } } }))

const direct = new Client({ name: "bench", version: "1" })
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [echoServer], stderr: "ignore" }))

const scope = Effect.runSync(Scope.make())
const toolgate = await Effect.runPromise(Toolgate.open({ directory: work, config, environment: { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: root } }).pipe(Scope.provide(scope)))
const session = await Effect.runPromise(toolgate.session({ agent: "build" }))
const catalog = await Effect.runPromise(toolgate.catalog(session))
if (!catalog.definitions.some((definition) => definition.name === "bench_echo")) throw new Error("bench_echo is not in the catalog")

let n = 0
const viaDirect = async () => {
  const result = await direct.callTool({ name: "echo", arguments: { text: `hello ${n++}` } })
  if (result.isError === true) throw new Error("direct echo failed")
}
const viaToolgate = async () => {
  const outcome = await Effect.runPromise(toolgate.settle({ session, catalog, call: { id: `call_${n}`, name: "bench_echo", input: { text: `hello ${n++}` } } }))
  if (outcome.kind !== "success") throw new Error(`toolgate echo failed: ${outcome.message}`)
}
const timed = async (body: () => Promise<void>, count: number, into: Array<number>) => {
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint()
    await body()
    into.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
}

await timed(viaDirect, WARM, [])
await timed(viaToolgate, WARM, [])
const directMs: Array<number> = []
const toolgateMs: Array<number> = []
for (let block = 0; block < BLOCKS; block++) {
  await timed(viaDirect, CALLS / BLOCKS, directMs)
  await timed(viaToolgate, CALLS / BLOCKS, toolgateMs)
}
await direct.close()
await Effect.runPromise(Scope.close(scope, Exit.void))
await rm(root, { recursive: true, force: true })

const row = (label: string, values: ReadonlyArray<number>) => `  ${label.padEnd(44)}p50 ${percentile(values, 50).toFixed(3)} ms  p99 ${percentile(values, 99).toFixed(3)} ms`
console.log(`external: ${CALLS.toLocaleString("en")} sequential calls each after ${WARM} warm-up, ${BLOCKS} alternating blocks, echo over stdio`)
console.log(row("through toolgate (bench_echo, gate + bound)", toolgateMs))
console.log(row("the SDK client directly (echo)", directMs))
const ratio = percentile(toolgateMs, 50) / percentile(directMs, 50)
console.log(`  ratio                                       p50 ${ratio.toFixed(2)}×  p99 ${(percentile(toolgateMs, 99) / percentile(directMs, 99)).toFixed(2)}× (target ≤ 1.3× at p50: ${ratio <= 1.3 ? "met" : "missed"})`)
