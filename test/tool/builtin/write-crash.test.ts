/**
 * Crash safety of the write tool itself: a child process runs the real runtime (database,
 * permission gate, registry) and calls `write` with 50 MB of new content; it is SIGKILLed at
 * spread-out moments after it is ready. The target must always hold exactly the old or exactly
 * the new content, never a mix or a truncation.
 */
import { createHash } from "node:crypto"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { moduleUrl, runAndKill } from "../../lib/kill.js"
import { tmpdir } from "../../lib/tmp.js"

const MB = 1024 * 1024
const ITERATIONS = 8
const MAX_DELAY_MS = 900
const OLD = "old line\n".repeat((50 * MB) / 9)
const NEW = "the new line\n".repeat((50 * MB) / 13 + 100)


const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex")

/** Spread-out, deterministic delays in [0, MAX_DELAY_MS), so a failure can be replayed. */
const delays = Array.from({ length: ITERATIONS }, (_, index) => ((index + 1) * 7_919) % MAX_DELAY_MS)

const script = (work: string, data: string, home: string) => `import { Effect } from "effect"
const { Runtime } = await import(${moduleUrl("src/runtime.ts")})
const { ToolRegistry } = await import(${moduleUrl("src/tool/registry.ts")})
const { Session } = await import(${moduleUrl("src/session.ts")})
const content = ${JSON.stringify("the new line\n")}.repeat(${(50 * MB) / 13 + 100})
const program = Effect.gen(function* () {
  const registry = yield* ToolRegistry.Service
  const session = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
  const catalog = yield* registry.materialize({ rules: [] })
  process.stdout.write("ready\\n")
  const outcome = yield* catalog.settle({ id: "c", name: "write", input: { path: "big.txt", content } }, { sessionID: session.id, agent: "build", assistantMessageID: "m", toolCallID: "c" })
  process.stdout.write(outcome.type === "success" ? "done\\n" : "failed " + outcome.message + "\\n")
})
await Effect.runPromise(Effect.scoped(Effect.provide(program, Runtime.layer({ directory: ${JSON.stringify(work)}, environment: { env: { TOOLGATE_DATA_DIR: ${JSON.stringify(data)} }, home: ${JSON.stringify(home)} } }))))`

describe("write under SIGKILL", () => {
  it.live("leaves the old or the new content, never a mix, whenever the writing process is killed", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const work = path.join(dir, "work")
      yield* Effect.promise(() => mkdir(path.join(work, ".git"), { recursive: true }))
      const file = path.join(work, "big.txt")
      const expected = new Map([
        [Buffer.byteLength(OLD), sha256(OLD)],
        [Buffer.byteLength(NEW), sha256(NEW)],
      ])
      const seen = new Set<string>()
      for (const delay of delays) {
        yield* Effect.promise(() => writeFile(file, OLD))
        const how = yield* Effect.promise(() => runAndKill(script(work, path.join(dir, "data"), path.join(dir, "home")), delay))
        const after = yield* Effect.promise(() => readFile(file))
        expect(expected.get(after.length)).toBe(sha256(after))
        seen.add(`${how}:${after.length === Buffer.byteLength(OLD) ? "old" : "new"}`)
      }
      // The kills must have landed both before and after the rename at least once to mean anything.
      expect([...seen].some((entry) => entry.endsWith("old"))).toBe(true)
    }), 120_000)
})
