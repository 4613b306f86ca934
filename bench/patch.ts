/**
 * patch: one apply_patch call updating 200 generated files (about 200 lines each, three hunks per
 * file) through the real tool — `Tool.settle` with the real permission gate (the `build` agent,
 * which allows edits inside the Location, so nothing waits for a person), resolution, the plan,
 * the change check and the all-or-nothing commit with fsync — against `git apply` of the
 * equivalent unified diff on an identical copy (a child process, as a person would run it).
 * Both trees are reset between rounds, each measured step starts after a `sync`, the order
 * alternates per round; best of 7; the resulting trees must be identical.
 * Target: ratio ≤ 2.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Effect } from "effect"
import { Session } from "../src/session.js"
import { ApplyPatchTool } from "../src/tool/builtin/apply-patch.js"
import { FileDiff } from "../src/tool/builtin/diff.js"
import { Tool } from "../src/tool/tool.js"
import { harnessLayer } from "../test/lib/file-tools.js"

const FILES = 200
const LINES = 200
const FOLDERS = 10
const CHANGED_LINES = [20, 100, 180]
const CONTEXT = 3
const ROUNDS = 7

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-"))
const work = path.join(root, "work")
const baseline = path.join(root, "baseline")

const names = Array.from({ length: FILES }, (_, file) => `src/part${file % FOLDERS}/module${file}.ts`)
const linesOf = (file: number) => Array.from({ length: LINES }, (_, line) => `export const value_${file}_${line} = ${line * 7} // line ${line} of module ${file}`)
const changed = (text: string) => text.replace("export const", "export let").replace(" // line", " // changed line")

/** The apply_patch hunk of one file: each changed line with three lines of context either side. */
const hunkOf = (name: string, lines: ReadonlyArray<string>) => [
  `*** Update File: ${name}`,
  ...CHANGED_LINES.flatMap((at) => [
    "@@",
    ...lines.slice(at - CONTEXT, at).map((line) => ` ${line}`),
    `-${lines[at]}`,
    `+${changed(lines[at] as string)}`,
    ...lines.slice(at + 1, at + 1 + CONTEXT).map((line) => ` ${line}`),
  ]),
]

const originals = names.map((_, file) => `${linesOf(file).join("\n")}\n`)
const results = names.map((_, file) => `${linesOf(file).map((line, at) => (CHANGED_LINES.includes(at) ? changed(line) : line)).join("\n")}\n`)
const patchText = ["*** Begin Patch", ...names.flatMap((name, file) => hunkOf(name, linesOf(file))), "*** End Patch"].join("\n")
const unifiedDiff = names.map((name, file) => FileDiff.unified(name, originals[file] as string, results[file] as string)).join("")

const git = (cwd: string, ...args: ReadonlyArray<string>) => {
  const result = spawnSync("git", args, { cwd, encoding: "utf8", input: args[0] === "apply" ? unifiedDiff : undefined })
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`)
}

const reset = (folder: string) => Promise.all(names.map(async (name, file) => {
  await mkdir(path.dirname(path.join(folder, name)), { recursive: true })
  await writeFile(path.join(folder, name), originals[file] as string)
}))

const treeOf = (folder: string) => Promise.all(names.map((name) => readFile(path.join(folder, name))))

const program = Effect.gen(function* () {
  const tool = yield* ApplyPatchTool.make
  const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
  const context: Tool.Context = { sessionID: session.id, agent: "build", assistantMessageID: "msg_bench", toolCallID: "call_bench" }
  const call = { id: "call_bench", name: ApplyPatchTool.name, input: { patchText } }
  const tools: number[] = []
  const gits: number[] = []
  const runTool = Effect.gen(function* () {
    const start = performance.now()
    const settled = yield* Tool.settle(tool, call, context)
    tools.push(performance.now() - start)
    const first = settled.content[0]
    if (first?.type !== "text" || !first.text.startsWith(ApplyPatchTool.Messages.success)) throw new Error(`unexpected result: ${JSON.stringify(first).slice(0, 300)}`)
  })
  const runGit = Effect.sync(() => {
    const start = performance.now()
    git(baseline, "apply", "-p0", "-")
    gits.push(performance.now() - start)
  })
  // Flushing before each measured step gives both the same clean page cache.
  const flushed = <A, E, R>(step: Effect.Effect<A, E, R>) => Effect.andThen(Effect.sync(() => spawnSync("sync")), step)
  for (let round = 0; round < ROUNDS; round++) {
    yield* Effect.promise(() => Promise.all([reset(work), reset(baseline)]))
    // Alternate which goes first, so neither always inherits the other's writeback.
    if (round % 2 === 0) yield* Effect.andThen(flushed(runTool), flushed(runGit))
    else yield* Effect.andThen(flushed(runGit), flushed(runTool))
    const [patched, applied] = yield* Effect.promise(() => Promise.all([treeOf(work), treeOf(baseline)]))
    if (!patched.every((bytes, file) => bytes.equals(applied[file] as Buffer) && bytes.toString() === results[file])) throw new Error("apply_patch and git apply produced different trees")
  }
  return { tool: Math.min(...tools), git: Math.min(...gits), tools, gits }
})

try {
  await mkdir(path.join(root, "home"), { recursive: true })
  for (const folder of [work, baseline]) {
    await mkdir(folder, { recursive: true })
    git(folder, "init", "--quiet")
  }
  const { tool, git: gitMs, tools, gits } = await Effect.runPromise(program.pipe(Effect.provide(harnessLayer(root)), Effect.scoped))
  console.log(`patch: ${FILES} files × ${LINES} lines, ${CHANGED_LINES.length} hunks each (${patchText.length} characters of patch), best of ${ROUNDS} (same resulting trees)`)
  console.log(`  ApplyPatchTool via Tool.settle     ${tool.toFixed(0)} ms`)
  console.log(`  git apply (child process)          ${gitMs.toFixed(0)} ms`)
  const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
  console.log(`  rounds (ms): tool ${tools.map((ms) => ms.toFixed(0)).join(" ")} · git ${gits.map((ms) => ms.toFixed(0)).join(" ")}`)
  console.log(`  median ratio                       ${(median(tools) / median(gits)).toFixed(2)}`)
  console.log(`  ratio                              ${(tool / gitMs).toFixed(2)} (target ≤ 2)`)
} finally {
  rmSync(root, { recursive: true, force: true })
}
