/**
 * cli: whole `toolgate` processes (the built `dist/cli/bin.cjs`) against `node -e 0`, interleaved,
 * median of 10 after 2 warm-ups (the code cache exists, as on any start after the first):
 * - `--version` and `--help` (target ≤ 1.5×),
 * - `call read` of a small file (target ≤ 3×),
 * - `tools --json`,
 * - `mcp` to its first answer: spawn, send `initialize` on stdin, time the first line on stdout
 *   (target ≤ 3×),
 * and `call read` on a first start (no code cache: a fresh data folder each time).
 * Commands go to a waiting process (src/cli/warm/) as they do by default: the warm-ups start it,
 * and the rounds begin a second later, once it has loaded. Each `mcp` session is its waiting
 * process's last command, so an `mcp` round starts a second after the last, the time its
 * successor takes to load here. The same commands in their own process (`TOOLGATE_WARM=0`) are
 * measured too, as the start a first command pays.
 * Hermetic: `HOME` and `TOOLGATE_DATA_DIR` in a temporary folder.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"

const ROUNDS = 10
const WARMUP = 2
const COLD_ROUNDS = 5

const repo = path.join(import.meta.dirname, "..")
execFileSync("npm", ["run", "--silent", "build"], { cwd: repo, stdio: "inherit" })
const BIN = path.join(repo, "dist", "cli", "bin.cjs")

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-cli-"))
const work = path.join(root, "work")
for (const folder of ["work", "home", "data"]) mkdirSync(path.join(root, folder))
writeFileSync(path.join(work, "small.txt"), "a small file\nof two lines\n")
const envWith = (data: string, extra: Readonly<Record<string, string>> = {}) => ({ PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: data, ...extra })
const env = envWith(path.join(root, "data"))
/** Every command in its own process: no waiting process. */
const own = envWith(path.join(root, "data"), { TOOLGATE_WARM: "0" })
/** How long a waiting process takes to load, at most, on this machine: rounds that need one wait this long first. */
const LOAD_MS = 1_000
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

/** One whole process; its wall time in ms. Fails loudly when it does not exit 0. */
const run = (args: ReadonlyArray<string>, environment = env) => {
  const start = performance.now()
  const result = spawnSync(process.execPath, args, { cwd: work, env: environment, encoding: "utf8" })
  const elapsed = performance.now() - start
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`)
  return elapsed
}

const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } } })}\n`

/** `toolgate mcp` from spawn to the first line of its answer to `initialize`; then it is closed. */
const firstAnswer = (environment = env) =>
  new Promise<number>((resolve, reject) => {
    const start = performance.now()
    const child = spawn(process.execPath, [BIN, "mcp"], { cwd: work, env: environment, stdio: ["pipe", "pipe", "pipe"] })
    const stderr: string[] = []
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()))
    child.stdout.once("data", (chunk: Buffer) => {
      const elapsed = performance.now() - start
      if (!chunk.toString().includes('"result"')) reject(new Error(`unexpected answer: ${chunk.toString()}`))
      child.stdin.end()
      child.once("close", () => resolve(elapsed))
    })
    child.once("error", reject)
    child.once("close", (code) => (code === 0 ? undefined : reject(new Error(`toolgate mcp exited ${code}: ${stderr.join("")}`))))
    child.stdin.write(INITIALIZE)
  })

const baseline = () => run(["-e", "0"])

interface Case {
  readonly label: string
  readonly target?: number
  readonly measure: () => number | Promise<number>
  /** Waited before each round (ms). */
  readonly spaced?: number
}

const CASES: ReadonlyArray<Case> = [
  { label: "toolgate --version", target: 1.5, measure: () => run([BIN, "--version"]) },
  { label: "toolgate --help", target: 1.5, measure: () => run([BIN, "--help"]) },
  { label: "toolgate call read (small file)", target: 3, measure: () => run([BIN, "call", "read", '{"path":"small.txt"}', "--session", "ses_bench"]) },
  { label: "toolgate tools --json", measure: () => run([BIN, "tools", "--json"]) },
  { label: "toolgate mcp, first answer", target: 3, measure: () => firstAnswer(), spaced: LOAD_MS },
  { label: "toolgate call read, in its own process (TOOLGATE_WARM=0)", measure: () => run([BIN, "call", "read", '{"path":"small.txt"}', "--session", "ses_bench"], own) },
  { label: "toolgate mcp, first answer, in its own process (TOOLGATE_WARM=0)", measure: () => firstAnswer(own) },
]

const rows: Array<string> = []
for (const item of CASES) {
  for (let index = 0; index < WARMUP; index++) await item.measure()
  await pause(LOAD_MS)
  const ours: Array<number> = []
  const node: Array<number> = []
  for (let index = 0; index < ROUNDS; index++) {
    if (item.spaced !== undefined) await pause(item.spaced)
    node.push(baseline())
    ours.push(await item.measure())
  }
  const ratio = median(ours) / median(node)
  const verdict = item.target === undefined ? "" : ` (target ≤ ${item.target}×: ${ratio <= item.target ? "met" : "missed"})`
  rows.push(`| ${item.label} | ${median(ours).toFixed(1)} ms | ${median(node).toFixed(1)} ms | **${ratio.toFixed(2)}×**${verdict} |`)
}

const cold: Array<number> = []
const coldNode: Array<number> = []
for (let index = 0; index < COLD_ROUNDS; index++) {
  const data = path.join(root, `cold-${index}`)
  coldNode.push(baseline())
  // A fresh data folder: no code cache, and the database is created too.
  cold.push(run([BIN, "call", "read", '{"path":"small.txt"}', "--session", "ses_bench"], envWith(data)))
}
rows.push(`| toolgate call read, first start (no code cache, new database) | ${median(cold).toFixed(1)} ms | ${median(coldNode).toFixed(1)} ms | ${(median(cold) / median(coldNode)).toFixed(2)}× |`)

console.log(`cli: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, median of ${ROUNDS} (first start: ${COLD_ROUNDS})`)
console.log("| | toolgate | `node -e 0` | ratio |")
console.log("| --- | --- | --- | --- |")
rows.forEach((row) => console.log(row))
rmSync(root, { recursive: true, force: true })
