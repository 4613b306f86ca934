import { randomBytes } from "node:crypto"
import { readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Schedule } from "effect"
import { BashOutputBuffer } from "../../../../src/tool/builtin/bash/output-buffer.js"
import { BashRun } from "../../../../src/tool/builtin/bash/run.js"
import { BashShell } from "../../../../src/tool/builtin/bash/shell.js"
import { awaitPgid, guard, guardMarker, liveMembers, marker, pgidFile, withMarker } from "../../../lib/process-group.js"
import { tmpdir } from "../../../lib/tmp.js"

/** Base64 text in 76-character lines, like `base64` prints. */
const base64Lines = (bytes: number) => (randomBytes(bytes).toString("base64").match(/.{1,76}/g) ?? []).join("\n") + "\n"

const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))

const runIn = (dir: string, command: string, spoolPath: string, options: Partial<BashRun.Input> = {}) =>
  Effect.flatMap(BashShell.resolve(), (shell) => BashRun.run({ command, cwd: dir, timeout: 60_000, shell, spoolPath, ...options }))

describe("BashRun over 1 MiB", () => {
  it.live("spools every byte to a new 0600 file and keeps the last MiB in memory", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const text = base64Lines(3_000_000)
      yield* Effect.promise(() => writeFile(path.join(dir, "big.txt"), text))
      const spoolPath = path.join(dir, "data", "tool-output", "shell_big")
      const result = yield* runIn(dir, "cat big.txt; echo end >&2", spoolPath)
      const full = `${text}end\n`
      expect(result).toMatchObject({ exit: 0, truncated: true, outputPath: spoolPath })
      expect(result.output).toBe(full.slice(-BashOutputBuffer.LIMIT))
      expect(yield* Effect.promise(() => readFile(spoolPath, "utf8"))).toBe(full)
      expect((yield* Effect.promise(() => stat(spoolPath))).mode & 0o777).toBe(BashOutputBuffer.SPOOL_MODE)
      expect(BashRun.toOutput(result)).toEqual({ exit: 0, timedOut: false, truncated: true, outputPath: spoolPath })
    }))

  it.live("keeps raw bytes in the spool file and decodes the tail with replacement", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const bytes = randomBytes(2_500_000)
      yield* Effect.promise(() => writeFile(path.join(dir, "random.bin"), bytes))
      const spoolPath = path.join(dir, "shell_random")
      const result = yield* runIn(dir, "cat random.bin", spoolPath)
      expect(result).toMatchObject({ exit: 0, truncated: true, outputPath: spoolPath })
      expect((yield* Effect.promise(() => readFile(spoolPath))).equals(bytes)).toBe(true)
      const tail = bytes.subarray(bytes.length - BashOutputBuffer.LIMIT)
      expect(result.output).toBe(tail.subarray(BashOutputBuffer.characterStart(tail)).toString("utf8"))
    }))

  it.live("writes no file while the output fits", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_small")
      const result = yield* runIn(dir, `head -c ${BashOutputBuffer.LIMIT} /dev/zero`, spoolPath)
      expect(result).toMatchObject({ exit: 0, truncated: false })
      expect(result.output.length).toBe(BashOutputBuffer.LIMIT)
      expect(result.outputPath).toBeUndefined()
      expect(yield* exists(spoolPath)).toBe(false)
    }))

  it.live("a spool file that cannot be created still returns the run, with the error and the tail", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_taken")
      yield* Effect.promise(() => writeFile(spoolPath, "someone else's"))
      const result = yield* runIn(dir, `head -c ${BashOutputBuffer.LIMIT + 10} /dev/zero; echo; exit 4`, spoolPath)
      expect(result).toMatchObject({ exit: 4, truncated: true })
      expect(result.outputPath).toBeUndefined()
      expect(result.spoolError).toBeInstanceOf(BashOutputBuffer.SpoolError)
      expect(result.spoolError?.message).toBe(BashOutputBuffer.Messages.spool(spoolPath, "EEXIST"))
      expect(yield* Effect.promise(() => readFile(spoolPath, "utf8"))).toBe("someone else's")
      expect(result.output.endsWith("\0\n")).toBe(true)
      expect(result.output.length).toBe(BashOutputBuffer.LIMIT)
    }))

  it.live("an interrupted run removes its spool file, which nobody can learn about", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      yield* guard(dir)
      const spoolPath = path.join(dir, "shell_interrupted")
      const fiber = yield* Effect.forkChild(runIn(dir, `head -c ${2 * BashOutputBuffer.LIMIT} /dev/zero; echo $$ > '${pgidFile(dir)}'; sleep 1000`, spoolPath))
      const pgid = yield* awaitPgid(dir)
      yield* Effect.suspend(() => exists(spoolPath)).pipe(Effect.repeat({ until: (found) => found, schedule: Schedule.spaced(20) }))
      yield* Fiber.interrupt(fiber)
      expect(liveMembers(pgid)).toEqual([])
      expect(yield* exists(spoolPath)).toBe(false)
    }))

  it.live("an output larger than the spool cap is not saved: the error says so, the file is gone, the tail is kept", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const spoolPath = path.join(dir, "shell_capped")
      const cap = 2 * BashOutputBuffer.LIMIT
      const result = yield* runIn(dir, `head -c ${3 * BashOutputBuffer.LIMIT} /dev/zero; echo end`, spoolPath, { spoolCap: cap })
      expect(result).toMatchObject({ exit: 0, truncated: true })
      expect(result.outputPath).toBeUndefined()
      expect(result.spoolError?.detail).toBe(BashOutputBuffer.Messages.capped(cap))
      expect(BashRun.Messages.notSaved(spoolPath, result.spoolError?.detail ?? "")).toBe(
        `[output truncated; the full output could not be saved to ${spoolPath}: the output is larger than the ${cap}-byte limit]`,
      )
      expect(result.output.endsWith("\0end\n")).toBe(true)
      expect(result.output.length).toBe(BashOutputBuffer.LIMIT)
      expect(yield* exists(spoolPath)).toBe(false)
      expect(BashRun.toOutput(result)).toEqual({ exit: 0, timedOut: false, truncated: true })
    }))

  it.live("a fast writer outside the command fills neither the disk nor the call past the timeout", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const token = marker()
      yield* guardMarker(token)
      const spoolPath = path.join(dir, "shell_runaway")
      const started = Date.now()
      const result = yield* runIn(dir, `setsid yes tick-${token} &`, spoolPath, { timeout: 1_000, spoolCap: 4 * BashOutputBuffer.LIMIT })
      expect(Date.now() - started).toBeLessThan(1_000 + BashRun.KILL_GRACE_MS + BashRun.KILL_WAIT_MS + 1_500)
      expect(result).toMatchObject({ timedOut: true, truncated: true })
      expect(result.spoolError?.detail).toBe(BashOutputBuffer.Messages.capped(4 * BashOutputBuffer.LIMIT))
      expect(yield* exists(spoolPath)).toBe(false)
      // Once the pipe is abandoned, the writer dies of SIGPIPE at its next write.
      yield* Effect.sync(() => withMarker(token).length).pipe(Effect.repeat({ until: (left) => left === 0, schedule: Schedule.spaced(50) }), Effect.timeout(5_000))
    }))
})
