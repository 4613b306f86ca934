/**
 * Shared by bench/grep.ts and bench/glob.ts: a generated tree of 20 000 files (200 folders of
 * 100, ~10.5 KB each, ~200 MB in all; cached in the OS temp folder, written once), the search
 * tools run in-process through `Tool.settle` with the real permission gate (the tree is the
 * Location, so the `build` agent allows everything and nothing waits), and ripgrep spawned raw
 * as the baseline. Each file has 100 lines; every other line holds COMMON (1 000 000 hits in
 * all), one line in every 250th file holds RARE (80 hits), and every 250th file is a `.md`.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { rgPath } from "@vscode/ripgrep"
import { Effect } from "effect"
import { Session } from "../src/session.js"
import { Tool } from "../src/tool/tool.js"
import { harnessLayer } from "../test/lib/file-tools.js"

export const TREE = path.join(os.tmpdir(), "toolgate-bench-search-20k")
const COMPLETE = `${TREE}.complete-v2`
export const FOLDERS = 200
export const PER_FOLDER = 100
export const FILES = FOLDERS * PER_FOLDER
export const LINES = 100
export const COMMON = "commonword"
export const RARE = "zebraquux"
/** Every RARE_EVERY-th file holds RARE once and is a `.md`. */
export const RARE_EVERY = 250
export const RARE_HITS = FILES / RARE_EVERY
export const COMMON_HITS = FILES * (LINES / 2)
export const MB = 1024 * 1024
const BATCH = 200

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november"]

export const fileName = (index: number) => path.join(`d${String(Math.floor(index / PER_FOLDER)).padStart(3, "0")}`, `f${String(index).padStart(5, "0")}.${index % RARE_EVERY === 0 ? "md" : "ts"}`)

/** ~105-byte lines of pseudo-random words; deterministic per file. */
const content = (index: number) => {
  const seed = { value: index * 2_654_435_761 + 1 }
  const word = () => {
    seed.value = (seed.value * 1_103_515_245 + 12_345) % 2_147_483_648
    return WORDS[seed.value % WORDS.length] as string
  }
  const lines = Array.from({ length: LINES }, (_, line) => {
    const words = Array.from({ length: 16 }, word).join(" ")
    const marker = line % 2 === 0 ? COMMON : "plain"
    const rare = index % RARE_EVERY === 0 && line === 51 ? ` ${RARE}` : ""
    return `${String(line).padStart(3, "0")} ${words} ${marker}${rare}`
  })
  return `${lines.join("\n")}\n`
}

/** Writes the tree once; later runs reuse it. Returns how it came to be. */
export const generate = async (): Promise<string> => {
  if (existsSync(COMPLETE)) return "cached"
  const started = performance.now()
  rmSync(TREE, { recursive: true, force: true })
  for (let folder = 0; folder < FOLDERS; folder += 1) await mkdir(path.join(TREE, `d${String(folder).padStart(3, "0")}`), { recursive: true })
  for (let start = 0; start < FILES; start += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, FILES - start) }, (_, offset) => writeFile(path.join(TREE, fileName(start + offset)), content(start + offset))))
  }
  await writeFile(COMPLETE, "")
  return `generated in ${((performance.now() - started) / 1000).toFixed(1)} s`
}

export const treeBytes = () => Array.from({ length: FILES }, (_, index) => Buffer.byteLength(content(index))).reduce((sum, bytes) => sum + bytes, 0)

export interface Timed<A> {
  readonly ms: number
  readonly value: A
}

/** Runs ripgrep to completion, collecting all of stdout. */
export const rgAll = (args: ReadonlyArray<string>) =>
  new Promise<Timed<Buffer>>((resolve, reject) => {
    const start = performance.now()
    const child = spawn(rgPath, args, { cwd: TREE, stdio: ["ignore", "pipe", "inherit"] })
    const chunks: Buffer[] = []
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk))
    child.on("error", reject)
    child.on("close", (code) => (code === 0 || code === 1 ? resolve({ ms: performance.now() - start, value: Buffer.concat(chunks) }) : reject(new Error(`rg exited with ${code}`))))
  })

/** Runs ripgrep until `count` records start with `prefix`, then kills it: time to the first page. */
export const rgFirst = (args: ReadonlyArray<string>, prefix: string, separator: string, count: number) =>
  new Promise<Timed<number>>((resolve, reject) => {
    const start = performance.now()
    const child = spawn(rgPath, args, { cwd: TREE, stdio: ["ignore", "pipe", "inherit"] })
    const seen = { records: 0, done: false, pending: "" }
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (seen.done) return
      const records = (seen.pending + chunk).split(separator)
      seen.pending = records.pop() ?? ""
      seen.records += records.filter((record) => record.startsWith(prefix)).length
      if (seen.records < count) return
      seen.done = true
      const ms = performance.now() - start
      child.kill("SIGKILL")
      child.on("close", () => resolve({ ms, value: seen.records }))
    })
    child.on("error", reject)
    child.on("close", () => (seen.done ? undefined : resolve({ ms: performance.now() - start, value: seen.records })))
  })

const fastest = <A>(runs: ReadonlyArray<Timed<A>>) => runs.reduce((a, b) => (b.ms < a.ms ? b : a))

/** Best of `rounds` after `warmup` unmeasured runs. */
export const best = async <A>(run: () => Promise<Timed<A>>, rounds: number, warmup = 2): Promise<Timed<A>> => {
  for (let round = 0; round < warmup; round += 1) await run()
  const runs: Timed<A>[] = []
  for (let round = 0; round < rounds; round += 1) runs.push(await run())
  return fastest(runs)
}

/** Best of `rounds` of each side, interleaved (so drift in machine load hits both), after `warmup` rounds. */
export const bestOfBoth = async <A, B>(ours: () => Promise<Timed<A>>, theirs: () => Promise<Timed<B>>, rounds: number, warmup = 2) => {
  const a: Timed<A>[] = []
  const b: Timed<B>[] = []
  for (let round = 0; round < warmup + rounds; round += 1) {
    const [x, y] = [await ours(), await theirs()]
    if (round >= warmup) a.push(x)
    if (round >= warmup) b.push(y)
  }
  return [fastest(a), fastest(b)] as const
}

export type Settle = (input: unknown) => Promise<Timed<Tool.Settled>>

/**
 * Runs `body` with a settle function for the tool `make` builds, the tree as the Location (a
 * fresh harness root whose `work` is a link to the cached tree).
 */
export const withTool = async <A>(make: Effect.Effect<Tool.AnyTool, never, any>, body: (settle: Settle) => Promise<A>): Promise<A> => {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-"))
  try {
    mkdirSync(path.join(root, "home"))
    symlinkSync(TREE, path.join(root, "work"))
    const program = Effect.gen(function* () {
      const tool = yield* make
      const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
      const context: Tool.Context = { sessionID: session.id, agent: "build", assistantMessageID: "msg_bench", toolCallID: "call_bench" }
      const settle: Settle = (input) => {
        const start = performance.now()
        return Effect.runPromise(Tool.settle(tool, { id: "call_bench", name: "tool", input }, context)).then((value) => ({
          ms: performance.now() - start,
          value,
        }))
      }
      return yield* Effect.promise(() => body(settle))
    })
    return await Effect.runPromise(program.pipe(Effect.provide(harnessLayer(root)), Effect.scoped) as Effect.Effect<A>)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

export const textOf = (settled: Tool.Settled) => settled.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n")

/** How a match line of `rg --json` starts. */
export const MATCH = '{"type":"match"'

/** The `path:line` of every match in `rg --json` output, sorted: what both sides of a search bench must agree on. */
export const matchesOf = (json: Buffer) =>
  json
    .toString("utf8")
    .split("\n")
    .filter((line) => line.startsWith(MATCH))
    .map((line) => {
      const data = (JSON.parse(line) as { data: { path: { text: string }; line_number: number } }).data
      return `${data.path.text}:${data.line_number}`
    })
    .sort()
