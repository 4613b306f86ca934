import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { readdir, readFile, rm } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FileMutation } from "../../../src/location/file-mutation.js"
import { tmpdir } from "../../lib/tmp.js"

const MB = 1024 * 1024
const ITERATIONS = 15
const MAX_DELAY_MS = 300
const OLD = Buffer.alloc(50 * MB, "old line\n")
const NEW_SIZE = 50 * MB + 1_024
const NEW_FILL = "the new line\n"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href
const module = pathToFileURL(path.join(root, "src/location/file-mutation.ts")).href

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

/** A deterministic sequence of delays in [0, MAX_DELAY_MS), so a failure can be replayed. */
const delays = Array.from({ length: ITERATIONS }, (_, index) => ((index + 1) * 7_919) % MAX_DELAY_MS)

/** The child: builds the new content, says "ready", then writes it atomically over `file`. */
const script = (file: string) => `import { Effect } from "effect"
const { FileMutation } = await import(${JSON.stringify(module)})
const data = Buffer.alloc(${NEW_SIZE}, ${JSON.stringify(NEW_FILL)})
process.stdout.write("ready\\n")
await Effect.runPromise(FileMutation.writeAtomic(${JSON.stringify(file)}, data))
process.stdout.write("done\\n")`

/** Runs the child and SIGKILLs it `delay` ms after it is ready; resolves with whether it finished first. */
const writeAndKill = (file: string, delay: number) =>
  new Promise<boolean>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", tsx, "--input-type=module", "-e", script(file)], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    const output: string[] = []
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output.push(chunk)
      if (chunk.includes("ready")) setTimeout(() => child.kill("SIGKILL"), delay)
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk))
    child.on("error", reject)
    child.on("exit", (code, signal) => {
      const text = output.join("")
      if (signal === "SIGKILL" || text.includes("done")) resolve(text.includes("done"))
      else reject(new Error(`child exited with ${code}: ${text}`))
    })
  })

/** The write behind `edit`: killed mid-write, a 50 MB target is never left half-written. */
describe("FileMutation.writeAtomic under SIGKILL", () => {
  it.live("leaves the old or the new content, never a mix, when the writer is killed at any moment", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const file = path.join(dir, "big.txt")
      const expected = {
        [OLD.length]: sha256(OLD),
        [NEW_SIZE]: sha256(Buffer.alloc(NEW_SIZE, NEW_FILL)),
      }
      const outcomes: string[] = []
      for (const delay of delays) {
        yield* FileMutation.writeAtomic(file, OLD)
        yield* Effect.promise(() => writeAndKill(file, delay))
        const after = yield* Effect.promise(() => readFile(file))
        expect(expected[after.length]).toBeDefined()
        expect(sha256(after)).toBe(expected[after.length])
        outcomes.push(after.length === OLD.length ? "old" : "new")
        const leftovers = (yield* Effect.promise(() => readdir(dir))).filter((name) => name.startsWith(FileMutation.TEMP_PREFIX))
        yield* Effect.promise(() => Promise.all(leftovers.map((name) => rm(path.join(dir, name), { force: true }))))
      }
      expect(outcomes).toHaveLength(ITERATIONS)
    }), 60_000)
})
