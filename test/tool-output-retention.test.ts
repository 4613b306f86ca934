import { mkdir, readdir, utimes, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import { TestClock } from "effect/testing"
import { ToolOutputRetention } from "../src/tool-output-retention.js"
import { tmpdir } from "./lib/tmp.js"

const EIGHT_DAYS_AGO = () => new Date(Date.now() - 8 * 24 * 60 * 60 * 1_000)

/** Writes each file (folders made), then ages the `old` ones past the retention. */
const lay = (dir: string, fresh: ReadonlyArray<string>, old: ReadonlyArray<string>) =>
  Effect.promise(async () => {
    for (const name of [...fresh, ...old]) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true })
      await writeFile(path.join(dir, name), name)
    }
    for (const name of old) await utimes(path.join(dir, name), EIGHT_DAYS_AGO(), EIGHT_DAYS_AGO())
  })

const listing = (dir: string) => Effect.promise(() => readdir(dir, { recursive: true }).then((names) => names.map(String).sort()))

describe("ToolOutputRetention", () => {
  it.live("deletes tool_ and shell_ files older than seven days at start, at any depth, and nothing else", () =>
    Effect.gen(function* () {
      const dir = path.join(yield* tmpdir, "tool-output")
      yield* lay(dir, ["tool_fresh", "shell_fresh", "p1/s1/tool_fresh"], ["tool_old", "shell_old", "notes.txt", "p1/s1/tool_old", "p1/s2/shell_old", "p2/s3/notes.txt"])
      const again = yield* Effect.flatMap(ToolOutputRetention.Service, (job) => job.cleanup).pipe(Effect.provide(ToolOutputRetention.layer({ directory: dir })))
      expect(again).toBe(0)
      // The emptied session folder went; folders still holding something stayed.
      expect(yield* listing(dir)).toEqual(["notes.txt", "p1", "p1/s1", "p1/s1/tool_fresh", "p2", "p2/s3", "p2/s3/notes.txt", "shell_fresh", "tool_fresh"])
    }))

  it.live("cleanup removes files that expired since it last ran; a missing folder is nothing to do", () =>
    Effect.gen(function* () {
      const dir = path.join(yield* tmpdir, "tool-output")
      expect(yield* Effect.promise(() => ToolOutputRetention.cleanupAt(dir, Date.now()))).toBe(0)
      const job = Context.get(yield* Layer.build(ToolOutputRetention.layer({ directory: dir })), ToolOutputRetention.Service)
      yield* lay(dir, [], ["a/b/tool_x", "shell_y"])
      expect(yield* job.cleanup).toBe(2)
      expect(yield* listing(dir)).toEqual([])
    }))

  it.effect("runs again every CLEANUP_INTERVAL while the layer lives", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.now())
      const dir = path.join(yield* tmpdir, "tool-output")
      yield* Layer.build(ToolOutputRetention.layer({ directory: dir }))
      yield* lay(dir, [], ["loc/ses/tool_later"])
      yield* TestClock.adjust(ToolOutputRetention.CLEANUP_INTERVAL)
      const remaining = yield* listing(dir).pipe(Effect.repeat({ until: (names) => names.length === 0, schedule: Schedule.recurs(1_000) }))
      expect(remaining).toEqual([])
    }))
})
