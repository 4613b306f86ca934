import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber } from "effect"
import { BashRun } from "../../../../src/tool/builtin/bash/run.js"
import { BashShell } from "../../../../src/tool/builtin/bash/shell.js"
import { awaitPgid, guard, liveMembers, recorded } from "../../../lib/process-group.js"
import { tmpdir } from "../../../lib/tmp.js"

/** A temporary directory whose recorded process group is SIGKILLed when the test ends, pass or fail. */
const guarded = Effect.gen(function* () {
  const dir = yield* tmpdir
  yield* guard(dir)
  return dir
})

const input = (dir: string, command: string, timeout: number) =>
  Effect.map(BashShell.resolve(), (shell): BashRun.Input => ({
    command: recorded(dir, command),
    cwd: dir,
    timeout,
    shell,
    spoolPath: path.join(dir, "shell_test"),
  }))

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = Date.now()
    const value = yield* effect
    return { value, elapsed: Date.now() - started }
  })

describe("BashRun stopping", () => {
  it.live("a timeout kills the whole group, background jobs included", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const result = yield* BashRun.run(yield* input(dir, "echo started; sleep 1000 & sleep 1000", 300))
      expect(result).toMatchObject({ output: "started\n", exit: null, signal: "SIGTERM", timedOut: true, interrupted: false })
      expect(BashRun.render(result)).toBe(`started\n\n${BashRun.Messages.timedOut(300)}`)
      expect(liveMembers(yield* awaitPgid(dir))).toEqual([])
    }))

  it.live("a grandchild that ignores SIGTERM is killed after the grace", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const { value: result, elapsed } = yield* timed(BashRun.run(yield* input(dir, "(trap '' TERM; sleep 1000) & sleep 1000", 300)))
      expect(result.timedOut).toBe(true)
      expect(elapsed).toBeGreaterThanOrEqual(300 + BashRun.KILL_GRACE_MS - 50)
      expect(liveMembers(yield* awaitPgid(dir))).toEqual([])
    }))

  it.live("a shell that traps SIGTERM and carries on is killed after the grace", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const command = "trap 'echo caught' TERM; echo ready; while :; do sleep 0.1; done"
      const result = yield* BashRun.run(yield* input(dir, command, 300))
      expect(result).toMatchObject({ exit: null, signal: "SIGKILL", timedOut: true })
      // Between the two, bash may report the foreground sleep it lost ("Terminated").
      expect([result.output.startsWith("ready\n"), result.output.endsWith("caught\n")]).toEqual([true, true])
      expect(liveMembers(yield* awaitPgid(dir))).toEqual([])
    }))

  it.live("stop ends the run with the output so far and kills the group", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const stop = yield* Deferred.make<void>()
      // The group id is recorded after the echo, so "before" is in the pipe when the test stops the run.
      const command = `echo before; ${recorded(dir, "sleep 1000 & sleep 1000")}`
      const fiber = yield* Effect.forkChild(BashRun.run({ ...(yield* input(dir, "", 60_000)), command, stop: Deferred.await(stop) }))
      const pgid = yield* awaitPgid(dir)
      yield* Deferred.succeed(stop, undefined)
      const result = yield* Fiber.join(fiber)
      expect(result).toMatchObject({ output: "before\n", exit: null, signal: "SIGTERM", timedOut: false, interrupted: true })
      expect(BashRun.render(result)).toBe("before\n\nCommand stopped by user.")
      expect(liveMembers(pgid)).toEqual([])
    }))

  it.live("interrupting the fiber kills the group before the interruption completes", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const fiber = yield* Effect.forkChild(BashRun.run(yield* input(dir, "sleep 1000 & (trap '' TERM; sleep 1000) & sleep 1000", 60_000)))
      const pgid = yield* awaitPgid(dir)
      const exit = yield* Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber)))
      expect(Exit.isFailure(exit) && Cause.hasInterrupts(exit.cause)).toBe(true)
      expect(liveMembers(pgid)).toEqual([])
    }))

  it.live("a stop after the command finished changes nothing", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const result = yield* BashRun.run({ ...(yield* input(dir, "echo done", 60_000)), stop: Effect.sleep(60_000) })
      expect(result).toMatchObject({ output: "done\n", exit: 0, interrupted: false, timedOut: false })
    }))
})

describe("BashRun background jobs", () => {
  it.live("a background job that still holds the output is stopped once the shell exits", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const result = yield* BashRun.run(yield* input(dir, "sleep 1000 & echo started", 60_000))
      expect(result).toMatchObject({ output: "started\n", exit: 0, timedOut: false, interrupted: false })
      expect(liveMembers(yield* awaitPgid(dir))).toEqual([])
    }))

  it.live("a background job's output within the drain grace is kept", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const result = yield* BashRun.run(yield* input(dir, "(sleep 0.1; echo late) & echo early", 60_000))
      expect(result).toMatchObject({ output: "early\nlate\n", exit: 0 })
    }))

  it.live("a background job that writes for ever is stopped, and what it wrote is kept", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const result = yield* BashRun.run(yield* input(dir, "(while :; do echo tick; sleep 0.05; done) & echo started", 60_000))
      expect(result.exit).toBe(0)
      // The job may print before the shell does; every line is whole.
      expect(new Set(result.output.split("\n"))).toEqual(new Set(["started", "tick", ""]))
      expect(result.output.endsWith("\n")).toBe(true)
      expect(liveMembers(yield* awaitPgid(dir))).toEqual([])
    }))

  it.live("a background job whose output is redirected away keeps running", () =>
    Effect.gen(function* () {
      const dir = yield* guarded
      const result = yield* BashRun.run(yield* input(dir, "sleep 1000 > /dev/null 2>&1 & echo $!", 60_000))
      expect(result.exit).toBe(0)
      expect(liveMembers(yield* awaitPgid(dir))).toEqual([Number(result.output.trim())])
    }))
})
