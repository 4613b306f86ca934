import { type ChildProcess, spawn } from "node:child_process"
import { readFile } from "node:fs/promises"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { BashDescendants } from "../../../../src/tool/builtin/bash/descendants.js"
import { guardMarker, marker, withCommand, withMarker } from "../../../lib/process-group.js"

const statLine = (pid: number, comm: string, rest: string) => `${pid} (${comm}) ${rest}`
/** state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime vsize */
const FIELDS = "S 41 40 40 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 777 0"

/** A detached shell (leader of its own group and session) whose children are killed with it at the end of the test. */
const detached = (command: string) =>
  Effect.acquireRelease(
    Effect.sync(() => spawn("bash", ["-c", command], { detached: true, stdio: "ignore" })),
    (child: ChildProcess) =>
      Effect.sync(() => {
        try {
          process.kill(-(child.pid ?? 0), "SIGKILL")
        } catch {
          // Gone.
        }
      }),
  )

const pgidOf = (pid: number) => Effect.promise(() => readFile(`/proc/${pid}/stat`, "utf8")).pipe(Effect.map((text) => BashDescendants.parseStat(text)?.pgid))

describe("BashDescendants.parseStat", () => {
  it("reads the fields after the command name", () =>
    expect(BashDescendants.parseStat(statLine(42, "sleep", FIELDS))).toEqual({ pid: 42, ppid: 41, pgid: 40, state: "S", start: "777" }))

  it("reads a command name with spaces and parentheses", () =>
    expect(BashDescendants.parseStat(statLine(42, "a) (b ) S 1 2 3", FIELDS))).toEqual({ pid: 42, ppid: 41, pgid: 40, state: "S", start: "777" }))

  it("rejects what is not a stat line", () => {
    expect(BashDescendants.parseStat("")).toBeUndefined()
    expect(BashDescendants.parseStat("42 (sleep) S 41")).toBeUndefined()
  })
})

describe.runIf(process.platform === "linux")("BashDescendants.track", () => {
  it.live("finds jobs in groups of their own and processes in sessions of their own, through their parents", () =>
    Effect.gen(function* () {
      const token = marker()
      yield* guardMarker(token)
      const command = `set -m; sleep 1000.${token} & sh -c 'setsid sleep 1001.${token} & wait' & wait`
      const child = yield* detached(command)
      const pid = child.pid ?? 0
      const tree = BashDescendants.track(pid)
      expect(tree.pgid).toBe(pid)
      const [job, session] = yield* Effect.sync(() => [withCommand(`sleep 1000.${token}`), withCommand(`sleep 1001.${token}`)] as const).pipe(
        Effect.repeat({ until: ([a, b]) => a.length === 1 && b.length === 1, schedule: Schedule.spaced(20) }),
      )
      const groups = [pid, yield* pgidOf(job[0] ?? 0), yield* pgidOf(session[0] ?? 0)]
      expect(new Set(groups).size).toBe(3)
      const snapshot = yield* Effect.promise(() => tree.refresh())
      expect(snapshot.alive).toBe(true)
      expect(snapshot.groups).toEqual(expect.arrayContaining(groups))
      // Signalling the groups it found stops everything.
      snapshot.groups.forEach((group) => process.kill(-group, "SIGKILL"))
      yield* Effect.promise(() => tree.refresh()).pipe(Effect.repeat({ until: (next) => !next.alive, schedule: Schedule.spaced(20) }), Effect.timeout(5_000))
      expect(withMarker(token)).toEqual([])
    }))

  it.live("finds nothing of a process it does not know", () =>
    Effect.gen(function* () {
      const token = marker()
      yield* guardMarker(token)
      const outside = yield* detached(`sleep 1000.${token}`)
      const child = yield* detached("sleep 1000")
      const snapshot = yield* Effect.promise(() => BashDescendants.track(child.pid ?? 0).refresh())
      expect(snapshot.groups).toEqual([child.pid])
      expect(snapshot.groups).not.toContain(outside.pid)
    }))

  it.live("a pid without a /proc entry falls back to its group, and a group that does not exist is not alive", () =>
    Effect.gen(function* () {
      // Above the largest pid Linux hands out (2^22).
      const snapshot = yield* Effect.promise(() => BashDescendants.track(4_194_305).refresh())
      expect(snapshot).toEqual({ alive: false, groups: [] })
    }))
})
