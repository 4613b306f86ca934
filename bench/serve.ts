/**
 * serve: the built `toolgate serve` (dist/cli/bin.cjs) in a child process, loaded from this process
 * over loopback HTTP.
 * 1. Load: SESSIONS concurrent sessions × CALLS calls each, cycling read of a small file, grep
 *    and `bash echo`; ASKING_SHARE of the sessions have a rule that makes bash ask, and an SSE
 *    client on `/api/event` answers every `permission.v2.asked` with `once`. Throughput, p50/p99
 *    of every call, p50/p99 of ask → event → reply → result, the server's RSS before and after,
 *    and its open descriptors before and after (nothing may leak).
 * 2. Overhead, sequential, interleaved, median of ROUNDS: `read` of the small file over HTTP
 *    against a bare Hono route (@hono/node-server, its own process) returning the same bytes
 *    (target ≤ 2× at p50); `grep` over HTTP against spawning `rg --json` with the tool's
 *    arguments (target ≤ 1.3×).
 * Hermetic: HOME and TOOLGATE_DATA_DIR in a temporary folder. `--sessions N --calls N` scale it.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { rgPath } from "@vscode/ripgrep"
import { GrepTool } from "../src/tool/builtin/grep.js"

const flag = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const SESSIONS = flag("sessions", 200)
const CALLS = flag("calls", 50)
const ASKING_SHARE = 0.1
const ROUNDS = flag("rounds", 200)
const TOKEN = "bench-serve-token-0123456789abcdef"
/** Node's default `server.keepAliveTimeout`, which toolgate serve keeps. */
const KEEP_ALIVE_MS = 5_000

const repo = path.join(import.meta.dirname, "..")
execFileSync("npm", ["run", "--silent", "build"], { cwd: repo, stdio: "inherit" })
const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-serve-"))
const work = path.join(root, "work")
for (const folder of ["work", "home", "data", "work/src"]) mkdirSync(path.join(root, folder))
const SMALL = "a small file\nof two lines\n"
writeFileSync(path.join(work, "small.txt"), SMALL)
for (let index = 0; index < 200; index++) writeFileSync(path.join(work, "src", `file-${index}.ts`), `export const value${index} = ${index}\n// needle ${index % 10 === 0 ? "here" : "not"}\n`.repeat(20))
const env = { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: path.join(root, "data"), TOOLGATE_SERVER_TOKEN: TOKEN }

/** Starts a child that prints its URL on stderr; resolves with the URL. */
const started = (child: ChildProcess, pattern: RegExp) =>
  new Promise<string>((resolve, reject) => {
    let text = ""
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString()
      const found = pattern.exec(text)
      if (found !== null) resolve(found[1] as string)
    })
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${text}`)))
  })

const server = spawn(process.execPath, [path.join(repo, "dist/cli/bin.cjs"), "serve", "--port", "0"], { cwd: work, env, stdio: ["ignore", "ignore", "pipe"] })
const url = await started(server, /listening on (http:\/\/[^\s]+)/)
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }
const api = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(`${url}${route}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  return { status: response.status, body: response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>) }
}

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0) / 1024
const descriptors = () => readdirSync(`/proc/${server.pid}/fd`).length
const quantile = (values: ReadonlyArray<number>, q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? Number.NaN
const median = (values: ReadonlyArray<number>) => quantile(values, 0.5)

// Warm: one session, one of each call, so start-up costs are not in the load.
const warm = (await api("POST", "/api/session", {})).body?.data as { id: string }
for (const call of [{ name: "read", input: { path: "small.txt" } }, { name: "grep", input: { pattern: "needle here" } }, { name: "bash", input: { command: "echo warm", description: "warm" } }])
  await api("POST", `/api/session/${warm.id}/call`, { call })
const rssBefore = rss()
const fdsBefore = descriptors()

// The SSE answerer: replies once to every ask, recording when each was announced.
const announced = new Map<string, number>()
const events = new AbortController()
const answering = (async () => {
  const response = await fetch(`${url}/api/event`, { headers, signal: events.signal })
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ""
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value
    const frames = buffer.split("\n\n")
    buffer = frames.pop() ?? ""
    for (const frame of frames) {
      const data = frame.split("\n").find((line) => line.startsWith("data: "))
      if (data === undefined) continue
      const event = JSON.parse(data.slice("data: ".length)) as { type: string; data: { id: string; sessionID: string } }
      if (event.type !== "permission.v2.asked") continue
      announced.set(event.data.id, performance.now())
      void api("POST", `/api/session/${event.data.sessionID}/permission/${event.data.id}/reply`, { reply: "once" })
    }
  }
})().catch((error: unknown) => {
  if (!events.signal.aborted) throw error
})
await new Promise((resolve) => setTimeout(resolve, 200))

const CYCLE = [
  (index: number) => ({ name: "read", input: { path: "small.txt" }, asks: false, index }),
  (index: number) => ({ name: "grep", input: { pattern: "needle here" }, asks: false, index }),
  (index: number) => ({ name: "bash", input: { command: `echo call ${index}`, description: "echo" }, asks: true, index }),
]
const latencies: number[] = []
const askLatencies: number[] = []
let failures = 0
const asking = Math.round(SESSIONS * ASKING_SHARE)
const loadStart = performance.now()
await Promise.all(
  Array.from({ length: SESSIONS }, async (_, sessionIndex) => {
    const asks = sessionIndex < asking
    const created = await api("POST", "/api/session", asks ? { rules: [{ action: "bash", resource: "*", effect: "ask" }] } : {})
    const session = (created.body?.data as { id: string }).id
    for (let index = 0; index < CALLS; index++) {
      const call = (CYCLE[index % CYCLE.length] as (index: number) => { name: string; input: unknown; asks: boolean })(index)
      const start = performance.now()
      const outcome = await api("POST", `/api/session/${session}/call`, { call: { name: call.name, input: call.input } })
      const end = performance.now()
      latencies.push(end - start)
      if (outcome.body?.kind !== "success") failures++
      if (asks && call.asks) askLatencies.push(end - start)
    }
  }),
)
const loadMs = performance.now() - loadStart
events.abort()
await answering
await new Promise((resolve) => setTimeout(resolve, 500))
const rssAfter = rss()
const fdsAfter = descriptors()
// The load's clients leave idle keep-alive connections, which the server closes after Node's
// keepAliveTimeout (5 s): what is open once they are gone is what a call could have leaked.
await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS + 1_000))
const fdsSettled = descriptors()

// Overhead: a bare Hono route returning the read's exact bytes, in a process of its own.
const readBody = JSON.stringify((await api("POST", `/api/session/${warm.id}/call`, { call: { name: "read", input: { path: "small.txt" } } })).body)
const bareScript = `
import { serve } from "@hono/node-server"; import { Hono } from "hono";
const body = ${JSON.stringify(readBody)};
const app = new Hono(); app.post("/read", (c) => c.body(body, 200, { "content-type": "application/json" }));
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => console.error("listening on http://127.0.0.1:" + info.port));`
const barePath = path.join(repo, "bench", ".bare-hono.mjs")
writeFileSync(barePath, bareScript)
const bare = spawn(process.execPath, [barePath], { cwd: repo, stdio: ["ignore", "ignore", "pipe"] })
const bareUrl = await started(bare, /listening on (http:\/\/[^\s]+)/)
const readOurs: number[] = []
const readBare: number[] = []
const grepOurs: number[] = []
const grepRg: number[] = []
const rgArgs = GrepTool.ripgrepArgs({ pattern: "needle here" }, { path: work, directory: true }, undefined)
for (let round = 0; round < ROUNDS; round++) {
  let start = performance.now()
  await api("POST", `/api/session/${warm.id}/call`, { call: { name: "read", input: { path: "small.txt" } } })
  readOurs.push(performance.now() - start)
  start = performance.now()
  await (await fetch(`${bareUrl}/read`, { method: "POST", headers, body: "{}" })).text()
  readBare.push(performance.now() - start)
  if (round % 5 !== 0) continue
  start = performance.now()
  await api("POST", `/api/session/${warm.id}/call`, { call: { name: "grep", input: { pattern: "needle here" } } })
  grepOurs.push(performance.now() - start)
  start = performance.now()
  spawnSync(rgPath, rgArgs, { cwd: work, maxBuffer: 64 * 1024 * 1024 })
  grepRg.push(performance.now() - start)
}
bare.kill()
rmSync(barePath, { force: true })
server.kill("SIGINT")
await new Promise((resolve) => server.once("exit", resolve))
rmSync(root, { recursive: true, force: true })

const calls = SESSIONS * CALLS
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`
console.log(`serve: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`)
console.log(`| load | value |`)
console.log(`| --- | --- |`)
console.log(`| calls | ${calls.toLocaleString("en")} (${SESSIONS} sessions × ${CALLS}, read / grep / bash echo; ${asking} sessions ask for bash, answered over SSE) |`)
console.log(`| throughput | ${(calls / (loadMs / 1000)).toFixed(0)} calls/s (${(loadMs / 1000).toFixed(1)} s) |`)
console.log(`| call latency p50 / p99 | ${fmt(quantile(latencies, 0.5))} / ${fmt(quantile(latencies, 0.99))} |`)
console.log(`| ask → event → reply → result p50 / p99 | ${fmt(quantile(askLatencies, 0.5))} / ${fmt(quantile(askLatencies, 0.99))} (${askLatencies.length} asks, ${announced.size} seen on SSE) |`)
console.log(`| calls not success | ${failures} |`)
console.log(`| server RSS before / after | ${rssBefore.toFixed(0)} MB / ${rssAfter.toFixed(0)} MB |`)
console.log(`| server open descriptors before / after / ${(KEEP_ALIVE_MS + 1_000) / 1000} s later | ${fdsBefore} / ${fdsAfter} / ${fdsSettled} (the difference: the load's idle keep-alive connections) |`)
console.log("")
console.log(`| overhead (median of ${ROUNDS}) | toolgate | baseline | ratio |`)
console.log(`| --- | --- | --- | --- |`)
console.log(`| read small file over HTTP vs bare Hono route, same bytes | ${fmt(median(readOurs))} | ${fmt(median(readBare))} | **${(median(readOurs) / median(readBare)).toFixed(2)}×** (target ≤ 2×) |`)
console.log(`| grep over HTTP vs rg --json spawned | ${fmt(median(grepOurs))} | ${fmt(median(grepRg))} | **${(median(grepOurs) / median(grepRg)).toFixed(2)}×** (target ≤ 1.3×) |`)
