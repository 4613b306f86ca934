/**
 * edit: one exact replacement (an oldString of about 60 characters, once, near the middle) in a
 * 50 MB text file through the real `edit` tool — `Tool.settle` with the real permission gate
 * (the `build` agent, which allows edits inside the Location, so nothing waits for a person),
 * path resolution, the lock, the diff, the change check and the atomic write with fsync — against
 * `readFile` + `String.prototype.replace` + `writeFile`. Best of 5; both must produce the same
 * bytes. Target: ratio ≤ 1.5.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { mkdtempSync, rmSync } from "node:fs"
import { Effect } from "effect"
import { Session } from "../src/session.js"
import { EditTool } from "../src/tool/builtin/edit.js"
import { Tool } from "../src/tool/tool.js"
import { harnessLayer } from "../test/lib/file-tools.js"

const MB = 1024 * 1024
const SIZE = 50 * MB
const ROUNDS = 5
const LINE = "2026-11-30T01:48:59.000Z INFO request handled in 12 ms path=/api/v1/items?page=3\n"
const OLD = "const uniqueMarker = computeTheAnswer(41) + 1 // needle here"
const NEW = "const uniqueMarker = computeTheAnswer(42) // replaced by edit"

const makeText = () => {
  const half = LINE.repeat(Math.ceil(SIZE / 2 / LINE.length))
  return `${half}${OLD}\n${half}`
}

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-bench-"))
const work = path.join(root, "work")

const program = Effect.gen(function* () {
  const text = makeText()
  const tool = yield* EditTool.make
  const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
  const context: Tool.Context = { sessionID: session.id, agent: "build", assistantMessageID: "msg_bench", toolCallID: "call_bench" }
  const call = { id: "call_bench", name: EditTool.name, input: { path: "edit.txt", oldString: OLD, newString: NEW } }
  const editFile = path.join(work, "edit.txt")
  const baselineFile = path.join(work, "baseline.txt")
  const edits: number[] = []
  const baselines: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    yield* Effect.promise(() => writeFile(editFile, text))
    const editStart = performance.now()
    const settled = yield* Tool.settle(tool, call, context)
    edits.push(performance.now() - editStart)
    const first = settled.content[0]
    if (first?.type !== "text" || !first.text.startsWith(EditTool.Messages.edited("edit.txt", 1))) throw new Error(`unexpected result: ${JSON.stringify(first).slice(0, 200)}`)

    yield* Effect.promise(() => writeFile(baselineFile, text))
    const baselineStart = performance.now()
    yield* Effect.promise(async () => {
      const content = await readFile(baselineFile, "utf8")
      await writeFile(baselineFile, content.replace(OLD, NEW))
    })
    baselines.push(performance.now() - baselineStart)

    const [edited, baseline] = yield* Effect.promise(() => Promise.all([readFile(editFile), readFile(baselineFile)]))
    if (!edited.equals(baseline)) throw new Error("edit and baseline produced different content")
  }
  return { edit: Math.min(...edits), baseline: Math.min(...baselines) }
})

try {
  await mkdir(path.join(work, ".git"), { recursive: true })
  await mkdir(path.join(root, "home"), { recursive: true })
  const { edit, baseline } = await Effect.runPromise(program.pipe(Effect.provide(harnessLayer(root)), Effect.scoped))
  console.log(`edit: one exact replacement in a ${SIZE / MB} MB file, best of ${ROUNDS} (same resulting bytes)`)
  console.log(`  EditTool via Tool.settle                 ${edit.toFixed(0)} ms`)
  console.log(`  readFile + String.replace + writeFile    ${baseline.toFixed(0)} ms`)
  console.log(`  ratio                                    ${(edit / baseline).toFixed(2)} (target ≤ 1.5)`)
} finally {
  rmSync(root, { recursive: true, force: true })
}
