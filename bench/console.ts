/**
 * console: the web console in real Chromium (playwright-core, Debian's chromium) on the built
 * `toolgate serve` (a child process), loaded over loopback.
 * 1. ASKS times (default 200, after 3 not counted), one at a time: a call that asks is sent; a raw
 *    SSE reader in this process (the baseline: the event stream alone) and the open console page
 *    (a MutationObserver stamping when the ask's card appears) each record when they see it.
 *    p50/p99 from the ask (the request's `createdAt`, stamped by the server when the gate asks) to
 *    the event on the raw reader and to the card visible (target ≤ 100 ms p99), and of the whole
 *    call start → visible. The ask is then answered `once` over HTTP.
 * 2. The bundle: bytes and gzip bytes of dist/console (target ≤ 100 KB gzip), against Preact's
 *    own minified build as the baseline.
 * Clocks: both sides use performance.timeOrigin + performance.now() (the machine's clock).
 * Hermetic: HOME and TOOLGATE_DATA_DIR in a temporary folder. `--asks N` scales it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import { gzipSync } from "node:zlib"
import { chromium } from "playwright-core"

const flag = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const ASKS = flag("asks", 200)
const TOKEN = "bench-console-token-0123456789abcdef"
const now = () => performance.timeOrigin + performance.now()

const repo = path.join(import.meta.dirname, "..")
execFileSync("npm", ["run", "--silent", "build"], { cwd: repo, stdio: "inherit" })
const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-console-"))
const work = path.join(root, "work")
for (const folder of ["work", "home", "data"]) mkdirSync(path.join(root, folder))
const env = { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: path.join(root, "data"), TOOLGATE_SERVER_TOKEN: TOKEN }

const started = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    let text = ""
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString()
      const found = /listening on (http:\/\/[^\s]+)/.exec(text)
      if (found !== null) resolve(found[1] as string)
    })
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${text}`)))
  })
const server = spawn(process.execPath, [path.join(repo, "dist/cli/bin.cjs"), "serve", "--port", "0"], { cwd: work, env, stdio: ["ignore", "ignore", "pipe"] })
const url = await started(server)
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }
const api = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(`${url}${route}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  return response.status === 204 ? undefined : ((await response.json()) as any)
}

// The baseline: the event stream read raw, stamping each ask as it arrives.
const seenBySse = new Map<string, number>()
const askedAt = new Map<string, number>()
const waiters = new Map<string, (id: string) => void>()
const stream = new AbortController()
void (async () => {
  const response = await fetch(`${url}/api/event`, { headers, signal: stream.signal })
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
      const event = JSON.parse(data.slice(6)) as { type: string; data: { id: string; sessionID: string; createdAt: number } }
      if (event.type !== "permission.v2.asked") continue
      seenBySse.set(event.data.id, now())
      askedAt.set(event.data.id, event.data.createdAt)
      waiters.get(event.data.sessionID)?.(event.data.id)
    }
  }
})().catch(() => undefined)

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
})
const page = await browser.newPage()
await page.goto(`${url}/#token=${TOKEN}`)
await page.waitForSelector('[data-testid="no-asks"]')
await page.evaluate(() => {
  const scope = globalThis as unknown as { seen: Record<string, number>; document: any; MutationObserver: any }
  scope.seen = {}
  // No named function here: the transpiler would wrap it in a helper the page does not have.
  new scope.MutationObserver(() => {
    for (const card of scope.document.querySelectorAll('[data-testid="ask"]')) if (!(card.dataset.id in scope.seen)) scope.seen[card.dataset.id] = performance.timeOrigin + performance.now()
  }).observe(scope.document.body, { childList: true, subtree: true })
})

const quantile = (values: ReadonlyArray<number>, q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? Number.NaN
const toEvent: number[] = []
const toVisible: number[] = []
const callToVisible: number[] = []
const WARMUP = 3
const session = (await api("POST", "/api/session", { rules: [{ action: "bash", resource: "*", effect: "ask" }] })).data.id as string
for (let index = 0; index < WARMUP + ASKS; index++) {
  const asked = new Promise<string>((resolve) => waiters.set(session, resolve))
  const start = now()
  const call = api("POST", `/api/session/${session}/call`, { call: { name: "bash", input: { command: `echo ${index}`, description: "bench" } } })
  const id = await asked
  const visible = await page.waitForFunction((request) => (globalThis as unknown as { seen: Record<string, number> }).seen[request], id, { polling: "raf" }).then((handle) => handle.jsonValue() as Promise<number>)
  const created = askedAt.get(id) as number
  if (index >= WARMUP) {
    toEvent.push((seenBySse.get(id) as number) - created)
    toVisible.push(visible - created)
    callToVisible.push(visible - start)
  }
  await api("POST", `/api/session/${session}/permission/${id}/reply`, { reply: "once" })
  await call
}
stream.abort()
await browser.close()
server.kill("SIGINT")
await new Promise((resolve) => server.once("exit", resolve))
rmSync(root, { recursive: true, force: true })

const bundle = path.join(repo, "dist", "console")
const files = readdirSync(bundle).map((file) => readFileSync(path.join(bundle, file)))
const bytes = files.reduce((sum, file) => sum + file.length, 0)
const gzipped = files.reduce((sum, file) => sum + gzipSync(file, { level: 9 }).length, 0)
const preact = readFileSync(createRequire(import.meta.url).resolve("preact"))
const fmt = (ms: number) => `${ms.toFixed(1)} ms`
console.log(`console: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${ASKS} asks`)
console.log("| measure | p50 | p99 |")
console.log("| --- | --- | --- |")
console.log(`| ask → event on a raw SSE reader (baseline) | ${fmt(quantile(toEvent, 0.5))} | ${fmt(quantile(toEvent, 0.99))} |`)
console.log(`| ask → visible in the console | ${fmt(quantile(toVisible, 0.5))} | ${fmt(quantile(toVisible, 0.99))} (target ≤ 100 ms: ${quantile(toVisible, 0.99) <= 100 ? "met" : "missed"}) |`)
console.log(`| ratio console / raw reader | **${(quantile(toVisible, 0.5) / Math.max(quantile(toEvent, 0.5), 0.5)).toFixed(2)}×** | **${(quantile(toVisible, 0.99) / Math.max(quantile(toEvent, 0.99), 0.5)).toFixed(2)}×** |`)
console.log(`| call sent → visible (the call's own work before it asks included) | ${fmt(quantile(callToVisible, 0.5))} | ${fmt(quantile(callToVisible, 0.99))} |`)
console.log("")
console.log(`| bundle | bytes | gzip |`)
console.log(`| --- | --- | --- |`)
console.log(`| dist/console (page, script, style) | ${bytes.toLocaleString("en")} | ${gzipped.toLocaleString("en")} (target ≤ 100 KB: ${gzipped <= 100 * 1024 ? "met" : "missed"}) |`)
console.log(`| preact's own build (baseline) | ${preact.length.toLocaleString("en")} | ${gzipSync(preact, { level: 9 }).length.toLocaleString("en")} |`)
