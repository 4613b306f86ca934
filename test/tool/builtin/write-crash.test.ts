/**
 * Crash safety of the write tool itself: a child process runs the real runtime (database,
 * permission gate, registry) and calls `write` with 50 MB of new content; it is SIGKILLed at
 * spread-out moments after it is ready. The target must always hold exactly the old or exactly
 * the new content, never a mix or a truncation. Then a child that writes file after file through
 * the library, killed while a write is under way: every file whole, and the database intact.
 */
import { createHash } from "node:crypto"
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FileMutation } from "../../../src/location/file-mutation.js"
import { database, loopScript, moduleUrl, runAndKill } from "../../lib/kill.js"
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

const FILES = 3
const LOOP_ITERATIONS = 5
/** Counted from the first temp file: spread over the write, its rename and what follows. */
const LOOP_MAX_DELAY_MS = 150
const loopDelays = Array.from({ length: LOOP_ITERATIONS }, (_, index) => ((index + 1) * 7_919) % LOOP_MAX_DELAY_MS)
const LOOP_LINES = 50_000
const names = Array.from({ length: FILES }, (_, index) => `f${index}.txt`)
const version = (index: number, which: "A" | "B") => `version ${which}\n${`file ${index} ${which} line\n`.repeat(LOOP_LINES)}`

/** Run in the child: writes the file of this round in the version it does not hold now. */
const flipOne = (work: string) => `(round) => {
  const names = ${JSON.stringify(names)}
  const index = round % names.length
  const now = fs.readFileSync(${JSON.stringify(work)} + "/" + names[index], "latin1").slice(0, 9)
  const which = now === "version A" ? "B" : "A"
  return { name: "write", input: { path: names[index], content: "version " + which + "\\n" + ("file " + index + " " + which + " line\\n").repeat(${LOOP_LINES}) } }
}`

describe("write in a loop under SIGKILL", () => {
  it.live("leaves every file whole and the database intact whenever the writing process is killed", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const place = { work: path.join(dir, "work"), data: path.join(dir, "data"), home: path.join(dir, "home") }
      yield* Effect.promise(() => mkdir(path.join(place.work, ".git"), { recursive: true }))
      yield* Effect.promise(() => Promise.all(names.map((name, index) => writeFile(path.join(place.work, name), version(index, "A")))))
      for (const delay of loopDelays) {
        expect(yield* Effect.promise(() => runAndKill(loopScript(place, flipOne(place.work)), delay, { folder: place.work, prefix: FileMutation.TEMP_PREFIX }))).toBe("killed")
        const held = yield* Effect.promise(() => Promise.all(names.map((name) => readFile(path.join(place.work, name), "latin1"))))
        expect(held.filter((text, index) => text !== version(index, "A") && text !== version(index, "B"))).toEqual([])
        expect(yield* database(place.data)).toEqual({ integrity: "ok", sessions: ["ses_crash"] })
        const left = (yield* Effect.promise(() => readdir(place.work))).filter((name) => !names.includes(name) && name !== ".git")
        expect(left.filter((name) => !name.startsWith(FileMutation.TEMP_PREFIX))).toEqual([])
        yield* Effect.promise(() => Promise.all(left.map((name) => rm(path.join(place.work, name), { force: true }))))
      }
    }), 120_000)
})
