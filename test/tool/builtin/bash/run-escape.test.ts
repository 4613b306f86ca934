import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Schedule } from "effect"
import { BashRun } from "../../../../src/tool/builtin/bash/run.js"
import { BashShell } from "../../../../src/tool/builtin/bash/shell.js"
import { guardMarker, marker, withCommand, withMarker } from "../../../lib/process-group.js"
import { tmpdir } from "../../../lib/tmp.js"

/**
 * Processes that leave the command's process group: by `setsid` (a new session), by `set -m` (a
 * job in a group of its own), or as a daemon. Each test names its processes with a unique marker
 * and SIGKILLs whatever carries it when the test ends, pass or fail.
 */

/** A fresh marker whose processes are SIGKILLed when the test ends. */
const guarded = Effect.gen(function* () {
  const token = marker()
  yield* guardMarker(token)
  return token
})

const runIn = (command: string, timeout: number) =>
  Effect.gen(function* () {
    const dir = yield* tmpdir
    const shell = yield* BashShell.resolve()
    const started = Date.now()
    const result = yield* BashRun.run({ command, cwd: dir, timeout, shell, spoolPath: path.join(dir, "shell_test") })
    return { result, elapsed: Date.now() - started }
  })

/** Slack for process start-up, polling and a loaded machine. */
const MARGIN = 1_500

/** A shell loop in its own session that prints `tick-<token>` every 0.1 s; `trap` runs first. */
const writer = (token: string, trap = "") => `setsid sh -c '${trap}while :; do echo tick-${token}; sleep 0.1; done'`

describe("BashRun: the timeout is a hard deadline", () => {
  it.live("a setsid writer left behind by the shell cannot hold the call past the timeout", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result, elapsed } = yield* runIn(`${writer(token)} &`, 1_000)
      expect(result).toMatchObject({ exit: 0, timedOut: true, interrupted: false })
      expect(result.output).toContain(`tick-${token}\n`)
      expect(elapsed).toBeLessThan(1_000 + BashRun.KILL_GRACE_MS + MARGIN)
    }))

  it.live("so does the foreground form, whose setsid forks and exits", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result, elapsed } = yield* runIn(writer(token), 1_000)
      expect(result).toMatchObject({ exit: 0, timedOut: true })
      expect(result.output).toContain(`tick-${token}\n`)
      expect(elapsed).toBeLessThan(1_000 + BashRun.KILL_GRACE_MS + MARGIN)
    }))

  it.live("without a timeout in reach, a pipe held outside the command is abandoned after a bounded time", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result, elapsed } = yield* runIn(writer(token), 60_000)
      expect(result).toMatchObject({ exit: 0, timedOut: false, interrupted: false })
      expect(result.output).toContain(`tick-${token}\n`)
      expect(elapsed).toBeLessThan(BashRun.DRAIN_GRACE_MS + BashRun.FOREIGN_DRAIN_MS + MARGIN)
    }))

  it.live("a setsid writer of a live shell is found through its parent and killed", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result, elapsed } = yield* runIn(`${writer(token)} & sleep 1000`, 1_000)
      expect(result).toMatchObject({ exit: null, signal: "SIGTERM", timedOut: true })
      expect(elapsed).toBeLessThan(1_000 + BashRun.KILL_GRACE_MS + MARGIN)
      expect(withMarker(token)).toEqual([])
    }))

  it.live("one that ignores SIGTERM is killed after the grace, and the call still ends in time", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result, elapsed } = yield* runIn(`${writer(token, `trap "" TERM; `)} & sleep 1000`, 500)
      expect(result.timedOut).toBe(true)
      expect(elapsed).toBeGreaterThanOrEqual(500 + BashRun.KILL_GRACE_MS - 50)
      expect(elapsed).toBeLessThan(500 + BashRun.KILL_GRACE_MS + MARGIN)
      expect(withMarker(token)).toEqual([])
    }))
})

describe("BashRun: a timeout reaches every descendant", () => {
  it.live("a job that set -m put in a group of its own", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result } = yield* runIn(`set -m; sleep 77.${token} & sleep 1000.${token}`, 500)
      expect(result.timedOut).toBe(true)
      expect(withCommand(`sleep 77.${token}`)).toEqual([])
      expect(withMarker(token)).toEqual([])
    }))

  it.live("a grandchild in a session of its own, while its parent lives", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result } = yield* runIn(`sh -c 'setsid sleep 1000.${token} & wait' & sleep 1000`, 500)
      expect(result.timedOut).toBe(true)
      expect(withMarker(token)).toEqual([])
    }))

  it.live("plain background jobs, as before", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const { result, elapsed } = yield* runIn(`sleep 1000.${token} & sleep 1001.${token}`, 500)
      expect(result).toMatchObject({ exit: null, signal: "SIGTERM", timedOut: true })
      expect(elapsed).toBeLessThan(500 + MARGIN)
      expect(withMarker(token)).toEqual([])
    }))

  it.live("interrupting the fiber stops a job in its own group too", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      const fiber = yield* Effect.forkChild(runIn(`set -m; sleep 77.${token} & sleep 1000`, 60_000))
      yield* Effect.sync(() => withCommand(`sleep 77.${token}`).length).pipe(Effect.repeat({ until: (found) => found > 0, schedule: Schedule.spaced(20) }))
      const exit = yield* Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber)))
      expect(Exit.isFailure(exit) && Cause.hasInterrupts(exit.cause)).toBe(true)
      expect(withMarker(token)).toEqual([])
    }))

  it.live("a job in its own group that outlives the shell is a daemon: the call still ends in bounded time", () =>
    Effect.gen(function* () {
      const token = yield* guarded
      // Reparented to init when the shell exits, the job is linked to the command by nothing:
      // it is not found and keeps running (the guard kills it), but it does not hold the call.
      const { result, elapsed } = yield* runIn(`set -m; sleep 1000.${token} & echo started`, 60_000)
      expect(result).toMatchObject({ output: "started\n", exit: 0, timedOut: false })
      expect(elapsed).toBeLessThan(BashRun.DRAIN_GRACE_MS + BashRun.FOREIGN_DRAIN_MS + MARGIN)
    }))
})
