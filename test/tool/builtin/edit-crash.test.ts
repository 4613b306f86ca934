import { createHash } from "node:crypto"
import { readdir, readFile, rm } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FileMutation } from "../../../src/location/file-mutation.js"
import { moduleUrl, runAndKill } from "../../lib/kill.js"
import { tmpdir } from "../../lib/tmp.js"

const MB = 1024 * 1024
const ITERATIONS = 15
const MAX_DELAY_MS = 300
const OLD = Buffer.alloc(50 * MB, "old line\n")
const NEW_SIZE = 50 * MB + 1_024
const NEW_FILL = "the new line\n"


const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

/** A deterministic sequence of delays in [0, MAX_DELAY_MS), so a failure can be replayed. */
const delays = Array.from({ length: ITERATIONS }, (_, index) => ((index + 1) * 7_919) % MAX_DELAY_MS)

/** The child: builds the new content, says "ready", then writes it atomically over `file`. */
const script = (file: string) => `import { Effect } from "effect"
const { FileMutation } = await import(${moduleUrl("src/location/file-mutation.ts")})
const data = Buffer.alloc(${NEW_SIZE}, ${JSON.stringify(NEW_FILL)})
process.stdout.write("ready\\n")
await Effect.runPromise(FileMutation.writeAtomic(${JSON.stringify(file)}, data))
process.stdout.write("done\\n")`

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
        yield* Effect.promise(() => runAndKill(script(file), delay))
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
