/**
 * locations: what one more working directory costs a running toolgate. In one warm process
 * (process services built), the time to open the first Location and a second one, and the RSS
 * each of 100 open Locations adds. Baseline: what the CLI costs per directory instead, one
 * `node -e 0` process (measured in the same run). Targets: a second Location opens in ≤ 20 ms;
 * ≤ 5 MB each.
 */
import { execFileSync } from "node:child_process"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Effect, Layer } from "effect"
import { Locations } from "../src/locations.js"
import { ToolgateProcess } from "../src/process.js"

const COUNT = Number(process.argv[2] ?? 100)
const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-locations-"))
const folders = Array.from({ length: COUNT + 2 }, (_, index) => path.join(root, `project-${index}`))
for (const folder of folders) await mkdir(folder)
const environment = { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: root }

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
const rss = () => {
  globalThis.gc?.()
  return process.memoryUsage().rss / 1024 / 1024
}

const program = Effect.gen(function* () {
  const locations = yield* Locations.Service
  const open = (directory: string) =>
    Effect.gen(function* () {
      const start = process.hrtime.bigint()
      yield* locations.open({ directory })
      return ms(start)
    })
  const first = yield* open(folders[0] as string)
  const second = yield* open(folders[1] as string)
  const before = rss()
  const times: number[] = []
  for (const folder of folders.slice(2)) times.push(yield* open(folder))
  const after = rss()
  return { first, second, median: times.toSorted((a, b) => a - b)[Math.floor(times.length / 2)] as number, perLocationMb: (after - before) / COUNT }
})

const layer = Locations.layer({ environment, idle: 60_000 }).pipe(Layer.provideMerge(ToolgateProcess.layer({ environment })))
const result = await Effect.runPromise(Effect.scoped(Effect.provide(program, layer)))
const nodeStart = process.hrtime.bigint()
execFileSync(process.execPath, ["-e", "0"])
const nodeMs = ms(nodeStart)
await rm(root, { recursive: true, force: true })

console.log(`locations: ${COUNT} Locations open in one process`)
console.log(`  first Location      ${result.first.toFixed(1)} ms`)
console.log(`  second Location     ${result.second.toFixed(1)} ms (target ≤ 20 ms)`)
console.log(`  median of the rest  ${result.median.toFixed(1)} ms`)
console.log(`  RSS per Location    ${result.perLocationMb.toFixed(2)} MB (target ≤ 5 MB)`)
console.log(`  node -e 0           ${nodeMs.toFixed(1)} ms (what a CLI process per directory costs at least)`)
console.log(`  ratio               ${(result.second / nodeMs).toFixed(2)}× a bare node start`)
