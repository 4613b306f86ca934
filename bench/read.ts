/**
 * read: 2 000 lines from line 2 500 000 of a generated 1 GB file (400-byte numbered lines, cached
 * in the OS temp folder), by `ReadLines.page` — the streaming scan behind the `read` tool, called
 * directly with the tool's own formatter, sniffing and line cap — against
 * `sed -n '2500000,2501999p;2502000q'`. 2 000 lines of 400 bytes are far more than one 50 KiB
 * tool page, so the scan is asked for 2 000 lines with the byte budget lifted; the real tool page
 * at that offset is measured too. Our side runs in its own child process so that its peak RSS is
 * its own. Both sides warm, best of 3; both must produce the same 2 000 lines.
 * Targets: time ratio ≤ 1.5, peak RSS ≤ 100 MB.
 */
import { spawnSync } from "node:child_process"
import { statSync } from "node:fs"
import { open, rename } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { ReadLines } from "../src/tool/builtin/read/lines.js"
import { ReadTool } from "../src/tool/builtin/read.js"

const MB = 1024 * 1024
const LINE_BYTES = 400
/** 1 GiB of whole 400-byte lines: 2 684 354 lines. */
const LINES = Math.floor(1024 * MB / LINE_BYTES)
const SIZE = LINES * LINE_BYTES
const FILE = path.join(os.tmpdir(), "toolgate-bench-read-1g.txt")
const OFFSET = 2_500_000
const COUNT = 2_000
const ROUNDS = 3
const SAMPLE_MS = 2
const LINES_PER_WRITE = 10_000

const line = (n: number) => `line ${n} `.padEnd(LINE_BYTES - 1, "x")

/** Writes the file once (to a temp name, then renamed), reusing one of the right size. */
const generate = async () => {
  if (statSync(FILE, { throwIfNoEntry: false })?.size === SIZE) return false
  const partial = `${FILE}.${process.pid}.partial`
  const handle = await open(partial, "w")
  for (let start = 1; start <= LINES; start += LINES_PER_WRITE) {
    const count = Math.min(LINES_PER_WRITE, LINES - start + 1)
    await handle.write(Array.from({ length: count }, (_, index) => `${line(start + index)}\n`).join(""))
  }
  await handle.close()
  await rename(partial, FILE)
  return true
}

const request = (maxBytes: number): ReadLines.Request => ({
  offset: OFFSET,
  limit: COUNT,
  maxBytes,
  sniffBytes: ReadTool.BINARY_SNIFF_BYTES,
  keptLineBytes: ReadTool.MAX_KEPT_LINE_BYTES,
  format: ReadTool.formatLine,
})

const readPage = async (maxBytes: number) => {
  const handle = await open(FILE, "r")
  try {
    return await ReadLines.page(handle, request(maxBytes))
  } finally {
    await handle.close()
  }
}

/** Our side, in a child: one warm-up, then timed runs with RSS sampled throughout. */
const child = async () => {
  await readPage(Number.POSITIVE_INFINITY)
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const before = process.memoryUsage.rss()
  const peak = { rss: before }
  const timer = setInterval(() => {
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss())
  }, SAMPLE_MS)
  const times: number[] = []
  const pages: ReadLines.Page[] = []
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = performance.now()
    pages.push(await readPage(Number.POSITIVE_INFINITY))
    times.push(performance.now() - start)
  }
  const toolStart = performance.now()
  const tool = await readPage(ReadTool.MAX_READ_BYTES)
  const toolMs = performance.now() - toolStart
  clearInterval(timer)
  peak.rss = Math.max(peak.rss, process.memoryUsage.rss())
  const page = pages[0] as ReadLines.Page
  const lines = page.type === "page" ? page.lines.map((text) => text.slice(text.indexOf(": ") + 2)) : []
  return {
    ms: Math.min(...times),
    peak: peak.rss,
    above: peak.rss - before,
    maxRss: process.resourceUsage().maxRSS * 1024,
    lines,
    toolLines: tool.type === "page" ? tool.lines.length : 0,
    toolMs,
  }
}

const runChild = () => {
  const self = fileURLToPath(import.meta.url)
  const tsx = pathToFileURL(path.join(path.dirname(self), "..", "node_modules/tsx/dist/loader.mjs")).href
  const result = spawnSync(process.execPath, ["--expose-gc", "--import", tsx, self, "--child"], { encoding: "utf8", maxBuffer: 64 * MB })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout.trim().split("\n").at(-1) as string) as Awaited<ReturnType<typeof child>>
}

const sed = () => {
  const start = performance.now()
  const result = spawnSync("sed", ["-n", `${OFFSET},${OFFSET + COUNT - 1}p;${OFFSET + COUNT}q`, FILE], { encoding: "utf8", maxBuffer: 64 * MB })
  const ms = performance.now() - start
  if (result.status !== 0) throw new Error(result.stderr)
  return { ms, lines: result.stdout.split("\n").slice(0, -1) }
}

if (process.argv.includes("--child")) {
  console.log(JSON.stringify(await child()))
} else {
  const started = performance.now()
  const made = await generate()
  const generation = made ? `generated in ${((performance.now() - started) / 1000).toFixed(1)} s` : "cached"
  sed()
  const baseline = Array.from({ length: ROUNDS }, sed)
  const ours = runChild()
  const expected = Array.from({ length: COUNT }, (_, index) => line(OFFSET + index))
  const same = ours.lines.length === COUNT && ours.lines.every((text, index) => text === baseline[0]?.lines[index] && text === expected[index])
  if (!same) throw new Error("ReadLines.page and sed returned different lines")
  const sedMs = Math.min(...baseline.map((run) => run.ms))
  console.log(`read: ${COUNT} lines from line ${OFFSET} of a ${(SIZE / MB).toFixed(0)} MB file (${LINES} lines; ${generation}), best of ${ROUNDS}, warm`)
  console.log(`  ReadLines.page             ${ours.ms.toFixed(0)} ms`)
  console.log(`  sed -n                     ${sedMs.toFixed(0)} ms`)
  console.log(`  ratio                      ${(ours.ms / sedMs).toFixed(2)} (target ≤ 1.5)`)
  console.log(`  same ${COUNT} lines as sed     yes`)
  console.log(`  peak RSS of the read       ${(ours.above / MB).toFixed(1)} MB above the level before it (target ≤ 100 MB)`)
  console.log(`  peak RSS of the process    ${(ours.peak / MB).toFixed(1)} MB sampled, ${(ours.maxRss / MB).toFixed(1)} MB maxRSS (node + tsx + effect loaded before reading)`)
  console.log(`  one tool page (50 KiB cap) ${ours.toolLines} lines in ${ours.toolMs.toFixed(0)} ms`)
}
