/**
 * bound: bounding a 200 MB text result (measure, save in full, preview) against `fs.writeFile`
 * of the same bytes as one ready Buffer — the least any lossless bound must do. Each side runs
 * in its own child process so that peak memory is measured alone. Targets: time ratio ≤ 1.5,
 * peak RSS ≤ input size + 64 MB.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Effect, Layer } from "effect"
import { Config } from "../src/config.js"
import { ToolOutputStore } from "../src/tool-output-store.js"

const MB = 1024 * 1024
const SIZE = 200 * MB
const ROUNDS = 3
const SAMPLE_MS = 2
const LINE = "2026-11-30T01:48:59.000Z INFO request handled in 12 ms path=/api/v1/items?page=3\n"

const makeText = () => LINE.repeat(Math.ceil(SIZE / LINE.length)).slice(0, SIZE)

const gc = () => (globalThis as { gc?: () => void }).gc?.()

/** Peak RSS above the level before `work` started, sampled while it runs. */
const measure = async (work: () => Promise<unknown>) => {
  gc()
  const before = process.memoryUsage.rss()
  let peak = before
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, SAMPLE_MS)
  const start = performance.now()
  await work()
  const ms = performance.now() - start
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage.rss())
  return { ms, peakAboveInput: peak - before }
}

const child = async (mode: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-"))
  try {
    if (mode === "baseline") {
      const buffer = Buffer.from(makeText(), "latin1")
      return await measure(() => writeFile(path.join(dir, "baseline"), buffer))
    }
    const text = makeText()
    text.isWellFormed() // flatten the string before measuring, as a tool's real output would be
    const layer = ToolOutputStore.layer({ directory: dir, projectID: "prj_bench" }).pipe(Layer.provide(Config.layerOf()))
    const store = await Effect.runPromise(Effect.provide(ToolOutputStore.Service, layer))
    const result = { content: [{ type: "text" as const, text }], structured: null, outputPaths: [] }
    return await measure(() => Effect.runPromise(store.bound({ sessionID: "ses_b", toolCallID: "call_b", result })))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const run = (mode: string) => {
  const self = fileURLToPath(import.meta.url)
  const tsx = pathToFileURL(path.join(path.dirname(self), "..", "node_modules/tsx/dist/loader.mjs")).href
  const result = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=4096", "--import", tsx, self, "--child", mode], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout.trim().split("\n").at(-1) as string) as { ms: number; peakAboveInput: number }
}

const modeIndex = process.argv.indexOf("--child")
if (modeIndex !== -1) {
  console.log(JSON.stringify(await child(process.argv[modeIndex + 1] as string)))
} else {
  const rounds = Array.from({ length: ROUNDS }, () => ({ bound: run("bound"), baseline: run("baseline") }))
  const bound = Math.min(...rounds.map((r) => r.bound.ms))
  const baseline = Math.min(...rounds.map((r) => r.baseline.ms))
  const peak = Math.max(...rounds.map((r) => r.bound.peakAboveInput))
  console.log(`bound: ${SIZE / MB} MB of text, best of ${ROUNDS} (each side in its own process)`)
  console.log(`  ToolOutputStore.bound      ${bound.toFixed(0)} ms`)
  console.log(`  fs.writeFile(buffer)       ${baseline.toFixed(0)} ms`)
  console.log(`  ratio                      ${(bound / baseline).toFixed(2)} (target ≤ 1.5)`)
  console.log(`  peak RSS above the input   ${(peak / MB).toFixed(1)} MB (target ≤ 64 MB)`)
}
