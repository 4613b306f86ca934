/**
 * snapshot: a generated 20 000-file tree (small files in nested folders). (1) The first
 * `Snapshot.track` against `git init && git add -A && git write-tree` in a fresh repository on
 * an identical copy (target ≤ 1.3). (2) A `track` after changing one file against
 * `git add <file> && git write-tree` in that repository (target ≤ 2). Each step is timed after a
 * `sync`; the order alternates per round; best of 5 each.
 */
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { Effect } from "effect"
import { Snapshot } from "../src/snapshot/snapshot.js"

const FILES = 20_000
/**
 * Where the trees live: tmpfs when there is one (BENCH_DIR overrides). This machine's disk
 * discards freed blocks synchronously, which made rounds on it swing 1.5–5.7 s for the same
 * work; in memory both sides pay only for what git and we compute and write.
 */
const BASE = process.env.BENCH_DIR ?? (existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir())
const ROUNDS = 5

const generate = (dir: string) => {
  for (let index = 0; index < FILES; index++) {
    const folder = path.join(dir, `a${index % 20}`, `b${Math.floor(index / 20) % 50}`)
    mkdirSync(folder, { recursive: true })
    writeFileSync(path.join(folder, `f${index}.ts`), `export const value${index} = ${index}\n// line two\n`)
  }
}

/** Times `work` after flushing the page cache, so no step inherits another's writeback. */
const time = async (work: () => unknown) => {
  execFileSync("sync")
  const start = performance.now()
  await work()
  return performance.now() - start
}

const git = (cwd: string, ...args: Array<string>) => execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] })

const round = async (source: string, index: number) => {
  const dir = mkdtempSync(path.join(BASE, "toolgate-bench-snapshot-"))
  try {
    const location = path.join(dir, "ours")
    const baseline = path.join(dir, "git")
    cpSync(source, location, { recursive: true })
    cpSync(source, baseline, { recursive: true })
    execFileSync("sync")
    const snapshot = await Effect.runPromise(Effect.provide(Snapshot.Service, Snapshot.layer({ dataDir: path.join(dir, "data"), projectID: `prj_${index}`, location })))
    const ours = () => time(() => Effect.runPromise(snapshot.track))
    const theirs = () =>
      time(() => {
        git(baseline, "init", "-q")
        git(baseline, "add", "-A")
        git(baseline, "write-tree")
      })
    // Alternate who goes first, so the page cache and writeback of the copies favour neither side.
    const [first, firstGit] = index % 2 === 0 ? [await ours(), await theirs()] : [await theirs(), await ours()].reverse() as [number, number]
    const changed = path.join("a3", "b7", "f143.ts")
    writeFileSync(path.join(location, changed), "export const changed = true\n")
    writeFileSync(path.join(baseline, changed), "export const changed = true\n")
    const oneOurs = () => time(() => Effect.runPromise(snapshot.track))
    const oneTheirs = () =>
      time(() => {
        git(baseline, "add", changed)
        git(baseline, "write-tree")
      })
    const [one, oneGit] = index % 2 === 0 ? [await oneOurs(), await oneTheirs()] : ([await oneTheirs(), await oneOurs()].reverse() as [number, number])
    return { first, firstGit, one, oneGit }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const source = mkdtempSync(path.join(BASE, "toolgate-bench-snapshot-src-"))
try {
  generate(source)
  const rounds: Array<Awaited<ReturnType<typeof round>>> = []
  for (let index = 0; index < ROUNDS; index++) rounds.push(await round(source, index))
  const best = (key: keyof (typeof rounds)[number]) => Math.min(...rounds.map((r) => r[key]))
  console.log(`snapshot: ${FILES} files in ${BASE}, best of ${ROUNDS}`)
  for (const key of ["first", "firstGit", "one", "oneGit"] as const) console.log(`  rounds ${key.padEnd(9)} ${rounds.map((r) => r[key].toFixed(0)).join(" ")} ms`)
  console.log(`  first Snapshot.track                 ${best("first").toFixed(0)} ms`)
  console.log(`  git init && add -A && write-tree     ${best("firstGit").toFixed(0)} ms`)
  console.log(`  ratio                                ${(best("first") / best("firstGit")).toFixed(2)} (target ≤ 1.3)`)
  console.log(`  Snapshot.track after a 1-file change ${best("one").toFixed(0)} ms`)
  console.log(`  git add <file> && write-tree         ${best("oneGit").toFixed(0)} ms`)
  console.log(`  ratio                                ${(best("one") / best("oneGit")).toFixed(2)} (target ≤ 2)`)
} finally {
  rmSync(source, { recursive: true, force: true })
}
