/**
 * mcp: `toolgate mcp` (the built `dist/cli/bin.cjs`, spawned as an MCP host spawns it) against a
 * minimal stdio server built with the same SDK that exposes one `echo` tool
 * (bench/lib-mcp-echo.mjs, plain node), both driven by the SDK's `Client` over
 * `StdioClientTransport`, in one run:
 * 1. Startup: spawn → connect → the first `tools/list` answered, both servers interleaved, median.
 *    2025 era (`initialize`, the main figure) and the 2026-07-28 era (the client probes with
 *    `server/discover` on a short-lived sibling process, then starts the real one). Target ≤ 2×.
 * 2. Round trip: one connection each (2025 era, tools listed first, as a host does, so the client
 *    validates `structuredContent`), after a warm-up, sequential `callTool` of toolgate `read` on a
 *    10-line file in the working directory against `echo` of that file's text, in alternating
 *    blocks; p50 and p99 of each. Target p50 and p99 ≤ 1.5×.
 * 3. grep of the 20 000-file tree (bench/lib-search-tree.ts) through MCP (`--dir` the tree, the
 *    rare word of bench/grep.ts: 80 matches, under the default limit of 100, checked against
 *    ripgrep's) against `rg --json` spawned raw with the tool's own arguments, all output
 *    collected; interleaved, median. Target ≤ 1.3×.
 * Hermetic: every spawn gets `TOOLGATE_DATA_DIR` and `HOME` in a temporary folder (one data dir
 * for all toolgate spawns: the database exists after the warm-up, as for a host that restarts it).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { GrepTool } from "../src/tool/builtin/grep.js"
import { FILES, generate, matchesOf, MB, RARE, RARE_HITS, rgAll, TREE, treeBytes } from "./lib-search-tree.js"

const STARTUP_ROUNDS = 10
const STARTUP_WARMUP = 2
const CALLS = 2_000
const CALL_WARMUP = 300
const BLOCKS = 4
const GREP_ROUNDS = 9
const GREP_WARMUP = 2

type Era = "legacy" | "modern"
const ERA_MODE = { legacy: "legacy", modern: { pin: "2026-07-28" } } as const

const repo = path.join(import.meta.dirname, "..")
execFileSync("npm", ["run", "--silent", "build"], { cwd: repo, stdio: "inherit" })
const BIN = path.join(repo, "dist", "cli", "bin.cjs")
const ECHO = path.join(import.meta.dirname, "lib-mcp-echo.mjs")

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-mcp-"))
const work = path.join(root, "work")
for (const folder of ["work", "home", "data"]) mkdirSync(path.join(root, folder))
const SMALL = "small.txt"
const smallText = Array.from({ length: 10 }, (_, line) => `line ${line + 1} of a small file that the benchmark reads over MCP`).join("\n") + "\n"
writeFileSync(path.join(work, SMALL), smallText)
const env = { PATH: process.env.PATH ?? "", TOOLGATE_DATA_DIR: path.join(root, "data"), HOME: path.join(root, "home") }

interface Server {
  readonly label: string
  readonly args: ReadonlyArray<string>
}
const toolgate = (dir: string): Server => ({ label: "toolgate mcp", args: [BIN, "mcp", "--dir", dir] })
const echo: Server = { label: "minimal echo server", args: [ECHO] }

const stderrOf = new WeakMap<Client, () => string>()
/** Spawns and connects; the server's stderr is kept (shown only if something fails). */
const open = async (server: Server, era: Era) => {
  const client = new Client({ name: "toolgate-bench", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: ERA_MODE[era] } })
  const transport = new StdioClientTransport({ command: process.execPath, args: [...server.args], env, stderr: "pipe" })
  const stderr: string[] = []
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")))
  stderrOf.set(client, () => stderr.join(""))
  await client.connect(transport)
  return client
}

const ms = (start: number) => performance.now() - start
const median = (values: ReadonlyArray<number>) => percentile(values, 50)
/** Nearest-rank percentile. */
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number
}
const ratio = (ours: number, theirs: number) => `${(ours / theirs).toFixed(2)}×`
const verdict = (value: number, target: number) => (value <= target ? "met" : "missed")

interface Startup {
  readonly connect: number
  readonly list: number
  readonly total: number
}
/** spawn → connect → first tools/list answered; then closed (the close is not timed). */
const startup = async (server: Server, era: Era): Promise<Startup> => {
  const start = performance.now()
  const client = await open(server, era)
  const connect = ms(start)
  const tools = await client.listTools()
  const total = ms(start)
  await client.close()
  if (tools.tools.length === 0) throw new Error(`${server.label} listed no tools`)
  return { connect, list: total - connect, total }
}

const startupRounds = async (era: Era) => {
  const ours: Startup[] = []
  const theirs: Startup[] = []
  for (let round = 0; round < STARTUP_WARMUP + STARTUP_ROUNDS; round += 1) {
    // Alternate which goes first, so drift in machine load hits both.
    const pair = round % 2 === 0 ? [await startup(toolgate(work), era), await startup(echo, era)] : [await startup(echo, era), await startup(toolgate(work), era)].reverse()
    if (round < STARTUP_WARMUP) continue
    ours.push(pair[0] as Startup)
    theirs.push(pair[1] as Startup)
  }
  const of = (runs: ReadonlyArray<Startup>) => ({ connect: median(runs.map((r) => r.connect)), list: median(runs.map((r) => r.list)), total: median(runs.map((r) => r.total)), min: Math.min(...runs.map((r) => r.total)), max: Math.max(...runs.map((r) => r.total)) })
  return { toolgate: of(ours), echo: of(theirs) }
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as ReadonlyArray<{ type: string; text?: string }>).flatMap((part) => (part.type === "text" && part.text !== undefined ? [part.text] : [])).join("\n")

const timedCall = async (client: Client, name: string, args: Record<string, unknown>) => {
  const start = performance.now()
  const result = await client.callTool({ name, arguments: args })
  return { ms: ms(start), result }
}

// 1. Startup.
const legacyStartup = await startupRounds("legacy")
const modernStartup = await startupRounds("modern").then(
  (value) => ({ ok: true, value }) as const,
  (error: unknown) => ({ ok: false, error: String(error) }) as const,
)

// 2. Round trip, both connections open, alternating blocks.
const ours = await open(toolgate(work), "legacy")
const theirs = await open(echo, "legacy")
await ours.listTools()
await theirs.listTools()
const readArgs = { path: SMALL }
const echoArgs = { text: smallText }
const first = await ours.callTool({ name: "read", arguments: readArgs })
if (first.isError === true || !textOf(first).includes("line 10 of a small file")) throw new Error(`read failed: ${textOf(first)}\n${stderrOf.get(ours)?.()}`)
const echoed = await theirs.callTool({ name: "echo", arguments: echoArgs })
if (textOf(echoed) !== smallText) throw new Error("echo did not echo")
const readBytes = Buffer.byteLength(JSON.stringify(first))
const echoBytes = Buffer.byteLength(JSON.stringify(echoed))
for (let call = 0; call < CALL_WARMUP; call += 1) {
  await ours.callTool({ name: "read", arguments: readArgs })
  await theirs.callTool({ name: "echo", arguments: echoArgs })
}
const readMs: number[] = []
const echoMs: number[] = []
const blockMedians: Array<{ read: number; echo: number }> = []
for (let block = 0; block < BLOCKS; block += 1) {
  const reads: number[] = []
  const echoes: number[] = []
  const runReads = async () => {
    for (let call = 0; call < CALLS / BLOCKS; call += 1) reads.push((await timedCall(ours, "read", readArgs)).ms)
  }
  const runEchoes = async () => {
    for (let call = 0; call < CALLS / BLOCKS; call += 1) echoes.push((await timedCall(theirs, "echo", echoArgs)).ms)
  }
  if (block % 2 === 0) await runReads().then(runEchoes)
  else await runEchoes().then(runReads)
  readMs.push(...reads)
  echoMs.push(...echoes)
  blockMedians.push({ read: median(reads), echo: median(echoes) })
}
await ours.close()
await theirs.close()

// 3. grep of the tree through MCP against raw ripgrep.
const generation = await generate()
const rgArgs = GrepTool.ripgrepArgs({ pattern: RARE }, { path: TREE, directory: true }, undefined)
const grepClient = await open(toolgate(TREE), "legacy")
await grepClient.listTools()
const grepMcp: number[] = []
const grepRg: number[] = []
let grepResult: Awaited<ReturnType<Client["callTool"]>> | undefined
let rgOutput: Buffer | undefined
for (let round = 0; round < GREP_WARMUP + GREP_ROUNDS; round += 1) {
  const runMcp = async () => {
    const { ms: took, result } = await timedCall(grepClient, "grep", { pattern: RARE })
    grepResult = result
    return took
  }
  const runRg = async () => {
    const { ms: took, value } = await rgAll(rgArgs)
    rgOutput = value
    return took
  }
  const [mcpMs, rgMs] = round % 2 === 0 ? [await runMcp(), await runRg()] : [await runRg(), await runMcp()].reverse()
  if (round < GREP_WARMUP) continue
  grepMcp.push(mcpMs as number)
  grepRg.push(rgMs as number)
}
await grepClient.close()
if (grepResult === undefined || rgOutput === undefined) throw new Error("grep did not run")
const grepOutput = grepResult.structuredContent as GrepTool.Output
const mcpMatches = grepOutput.matches.map((match) => `${match.path}:${match.line}`).sort()
const rgMatches = matchesOf(rgOutput)
if (mcpMatches.length !== RARE_HITS || grepOutput.truncated || JSON.stringify(mcpMatches) !== JSON.stringify(rgMatches)) {
  throw new Error(`through MCP grep found ${mcpMatches.length} matches (truncated: ${grepOutput.truncated}), ripgrep ${rgMatches.length}`)
}
const grepFirstLine = textOf(grepResult).split("\n")[0]
rmSync(root, { recursive: true, force: true })

// Report.
const f1 = (value: number) => value.toFixed(1)
const f2 = (value: number) => value.toFixed(2)
const pad = (label: string) => label.padEnd(44)
const showStartup = (era: string, result: Awaited<ReturnType<typeof startupRounds>>) => {
  const { toolgate: t, echo: e } = result
  console.log(`  ${era}`)
  console.log(`    ${pad("toolgate mcp")}${f1(t.total)} ms (medians: connect ${f1(t.connect)}, then tools/list ${f1(t.list)}; range ${f1(t.min)}–${f1(t.max)})`)
  console.log(`    ${pad("minimal echo server")}${f1(e.total)} ms (medians: connect ${f1(e.connect)}, then tools/list ${f1(e.list)}; range ${f1(e.min)}–${f1(e.max)})`)
  console.log(`    ${pad("ratio")}${ratio(t.total, e.total)} (target ≤ 2×: ${verdict(t.total / e.total, 2)})`)
}
console.log(`mcp: toolgate mcp (dist) against a minimal SDK server with one echo tool, over stdio, Node.js ${process.version}`)
console.log(`startup: spawn → connect → first tools/list answered, median of ${STARTUP_ROUNDS} after ${STARTUP_WARMUP} warm-up, interleaved`)
showStartup("2025 era (initialize)", legacyStartup)
if (modernStartup.ok) showStartup("2026-07-28 era (server/discover on a sibling process, then the real one)", modernStartup.value)
else console.log(`  2026-07-28 era: failed (${modernStartup.error})`)

const readP50 = percentile(readMs, 50)
const readP99 = percentile(readMs, 99)
const echoP50 = percentile(echoMs, 50)
const echoP99 = percentile(echoMs, 99)
console.log(`round trip: ${CALLS.toLocaleString("en")} sequential callTool each after ${CALL_WARMUP} warm-up, ${BLOCKS} alternating blocks, one connection each (2025 era)`)
console.log(`  ${pad(`toolgate read ${SMALL} (${readBytes} B result)`)}p50 ${f2(readP50)} ms  p99 ${f2(readP99)} ms  (block p50s ${blockMedians.map((b) => f2(b.read)).join(", ")})`)
console.log(`  ${pad(`echo of its text (${echoBytes} B result)`)}p50 ${f2(echoP50)} ms  p99 ${f2(echoP99)} ms  (block p50s ${blockMedians.map((b) => f2(b.echo)).join(", ")})`)
console.log(`  ${pad("ratio")}p50 ${ratio(readP50, echoP50)}  p99 ${ratio(readP99, echoP99)} (target ≤ 1.5×: p50 ${verdict(readP50 / echoP50, 1.5)}, p99 ${verdict(readP99 / echoP99, 1.5)})`)

const mcpMedian = median(grepMcp)
const rgMedian = median(grepRg)
console.log(`grep: ${FILES.toLocaleString("en")} files, ${(treeBytes() / MB).toFixed(0)} MB (${generation}), pattern ${RARE}, warm, median of ${GREP_ROUNDS} after ${GREP_WARMUP} warm-up, interleaved`)
console.log(`  ${pad("toolgate grep through MCP")}${f1(mcpMedian)} ms (range ${f1(Math.min(...grepMcp))}–${f1(Math.max(...grepMcp))}); "${grepFirstLine}", not truncated (limit 100)`)
console.log(`  ${pad("rg --json, all output")}${f1(rgMedian)} ms (range ${f1(Math.min(...grepRg))}–${f1(Math.max(...grepRg))}); ${RARE_HITS} matches, the same`)
console.log(`  ${pad("ratio")}${ratio(mcpMedian, rgMedian)} (target ≤ 1.3×: ${verdict(mcpMedian / rgMedian, 1.3)})`)
