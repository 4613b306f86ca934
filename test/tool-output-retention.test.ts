import { lutimes, mkdir, readdir, symlink, utimes, writeFile } from "node:fs/promises"
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

/** Every entry under `dir`, relative and sorted; links are listed, not entered. */
const tree = async (dir: string, prefix = ""): Promise<ReadonlyArray<string>> => {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true })
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const relative = path.posix.join(prefix, entry.name)
      return entry.isDirectory() ? [relative, ...(await tree(dir, relative))] : [relative]
    }),
  )
  return nested.flat().sort()
}

const listing = (dir: string) => Effect.promise(() => readdir(dir, { recursive: true }).then((names) => names.map(String).sort()))

describe("ToolOutputRetention", () => {
  it.live("deletes tool_ and shell_ files older than seven days at start at the top level, and nothing else", () =>
    Effect.gen(function* () {
      const dir = path.join(yield* tmpdir, "tool-output")
      yield* lay(dir, ["tool_fresh", "shell_fresh"], ["tool_old", "shell_old", "notes.txt"])
      const again = yield* Effect.flatMap(ToolOutputRetention.Service, (job) => job.cleanup).pipe(Effect.provide(ToolOutputRetention.layer({ directory: dir })))
      expect(again).toBe(0)
      expect(yield* listing(dir)).toEqual(["notes.txt", "shell_fresh", "tool_fresh"])
    }))

  it.live("walks project and session folders: expired files go, folders idle and empty go, links are not followed", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const dir = path.join(root, "tool-output")
      const old = new Date(Date.now() - 8 * 24 * 60 * 60 * 1_000)
      const at = (...parts: ReadonlyArray<string>) => path.join(dir, ...parts)
      yield* Effect.promise(async () => {
        for (const folder of ["prj_a/busy/deeper", "prj_a/idle", "prj_a/recent", "prj_b/idle", "prj_c/new"]) await mkdir(at(folder), { recursive: true })
        await mkdir(path.join(root, "elsewhere"))
        const files = ["tool_old", "notes.txt", "prj_a/busy/tool_old", "prj_a/busy/shell_old", "prj_a/busy/tool_fresh", "prj_a/busy/deeper/tool_old", "prj_a/idle/tool_old", "prj_a/recent/tool_old", "prj_b/idle/shell_old"]
        for (const file of files) await writeFile(at(file), file)
        await writeFile(path.join(root, "elsewhere", "tool_old"), "not saved output")
        await symlink(path.join(root, "elsewhere"), at("prj_a", "busy", "linked"))
        await symlink(path.join(root, "elsewhere"), at("prj_linked"))
        for (const file of files.filter((name) => !name.endsWith("fresh"))) await utimes(at(file), old, old)
        await utimes(path.join(root, "elsewhere", "tool_old"), old, old)
        for (const link of [at("prj_a", "busy", "linked"), at("prj_linked")]) await lutimes(link, old, old)
        for (const folder of ["prj_a/busy/deeper", "prj_a/busy", "prj_a/idle", "prj_b/idle", "prj_a", "prj_b"]) await utimes(at(folder), old, old)
      })
      const again = yield* Effect.flatMap(ToolOutputRetention.Service, (job) => job.cleanup).pipe(Effect.provide(ToolOutputRetention.layer({ directory: dir })))
      expect(again).toBe(0)
      expect(yield* Effect.promise(() => tree(dir))).toEqual([
        "notes.txt",
        "prj_a",
        "prj_a/busy",
        "prj_a/busy/deeper",
        "prj_a/busy/deeper/tool_old",
        "prj_a/busy/linked",
        "prj_a/busy/tool_fresh",
        "prj_a/recent",
        "prj_c",
        "prj_c/new",
        "prj_linked",
      ])
      expect(yield* Effect.promise(() => readdir(path.join(root, "elsewhere")))).toEqual(["tool_old"])
    }))

  it.live("cleanup removes files that expired since it last ran; a missing folder is nothing to do", () =>
    Effect.gen(function* () {
      const dir = path.join(yield* tmpdir, "tool-output")
      expect(yield* Effect.promise(() => ToolOutputRetention.cleanupAt(dir, Date.now()))).toBe(0)
      const job = Context.get(yield* Layer.build(ToolOutputRetention.layer({ directory: dir })), ToolOutputRetention.Service)
      yield* lay(dir, [], ["a/b/tool_x", "shell_y"])
      expect(yield* job.cleanup).toBe(2)
      // The folders were touched just now: they stay until they have been idle for the retention.
      expect(yield* listing(dir)).toEqual(["a", "a/b"])
    }))

  it.effect("runs again every CLEANUP_INTERVAL while the layer lives", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.now())
      const dir = path.join(yield* tmpdir, "tool-output")
      yield* Layer.build(ToolOutputRetention.layer({ directory: dir }))
      yield* lay(dir, [], ["loc/ses/tool_later"])
      yield* TestClock.adjust(ToolOutputRetention.CLEANUP_INTERVAL)
      const remaining = yield* listing(dir).pipe(Effect.repeat({ until: (names) => !names.some((name) => name.includes("tool_")), schedule: Schedule.recurs(1_000) }))
      expect(remaining).toEqual(["loc", "loc/ses"])
    }))
})
