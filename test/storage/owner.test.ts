/**
 * Owners of real processes: this one, a child that runs and then exits, a zombie, and owners a
 * pid reuse or a reboot would leave behind. Liveness is judged as the sweep judges it.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { Owner } from "../../src/storage/owner.js"

const LINUX = existsSync("/proc/self/stat")

/** A child process for the test's scope: its pid, and an effect that kills it and waits for its exit. */
const child = (command: string, args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const process = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] })
      const exited = new Promise<void>((resolve) => process.on("exit", () => resolve()))
      return { process, exited }
    }),
    ({ process }) => Effect.sync(() => process.kill("SIGKILL")),
  ).pipe(
    Effect.map(({ process, exited }) => ({
      pid: process.pid as number,
      stdout: process.stdout,
      kill: Effect.promise(() => {
        process.kill("SIGKILL")
        return exited
      }),
    })),
  )

const firstLine = (stream: NodeJS.ReadableStream) =>
  Effect.promise(() => new Promise<string>((resolve) => stream.once("data", (chunk: Buffer) => resolve(chunk.toString().split("\n")[0] as string))))

describe("Owner", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly owner: Owner.Owner; readonly text: string }> = [
    { name: "a pid alone", owner: { pid: 42 }, text: "42" },
    { name: "a pid with its boot, namespace and start", owner: { pid: 42, start: { boot: "3f2a-9c", namespace: "4026531836", ticks: "1234567" } }, text: "42@3f2a-9c/4026531836/1234567" },
  ]
  for (const c of cases)
    it(`stores ${c.name} as text and reads it back`, () => {
      expect(Owner.encode(c.owner)).toBe(c.text)
      expect(Owner.decode(c.text)).toEqual(c.owner)
    })

  it("reads text that is not an owner as none", () => {
    expect(["", "x", "42@a/b", "42@a/b/c", "-1"].map(Owner.decode)).toEqual([undefined, undefined, undefined, undefined, undefined])
  })

  it("knows this process, and finds it alive", () => {
    const here = Owner.current()
    expect(here.pid).toBe(process.pid)
    expect(here.start === undefined).toBe(!LINUX)
    expect(Owner.alive(here)).toBe(true)
    expect(Owner.current()).toBe(here)
  })

  it.live("finds a child alive while it runs and dead once it exited", () =>
    Effect.gen(function* () {
      const sleeper = yield* child("sleep", ["30"])
      const owner = Owner.of(sleeper.pid) as Owner.Owner
      expect(Owner.alive(owner)).toBe(true)
      yield* sleeper.kill
      expect(Owner.alive(owner)).toBe(false)
      expect(Owner.of(sleeper.pid)).toBeUndefined()
    }))

  describe.skipIf(!LINUX)("on Linux", () => {
    const start = () => Owner.current().start as Owner.Start

    it("takes a pid whose start time differs for a reused pid: dead", () => {
      expect(Owner.alive({ pid: process.pid, start: { ...start(), ticks: "1" } })).toBe(false)
    })

    it("takes an owner of an earlier boot for dead, and one of another pid namespace for alive (it cannot be seen from here)", () => {
      expect(Owner.alive({ pid: process.pid, start: { ...start(), boot: "an-earlier-boot" } })).toBe(false)
      expect(Owner.alive({ pid: 999_999_999, start: { ...start(), namespace: "1" } })).toBe(true)
    })

    it.live("takes a zombie for dead", () =>
      Effect.gen(function* () {
        // `sleep 0` exits at once, and the `sleep 30` its shell became never reaps it.
        const parent = yield* child("sh", ["-c", "sleep 0 & echo $!; exec sleep 30"])
        const pid = Number(yield* firstLine(parent.stdout))
        const owner = Owner.of(pid) as Owner.Owner
        yield* Effect.sync(() => readFileSync(`/proc/${pid}/stat`, "latin1")).pipe(
          Effect.repeat({ until: (stat) => stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z"), schedule: Schedule.spaced("10 millis") }),
          Effect.timeout("10 seconds"),
        )
        expect(Owner.alive(owner)).toBe(false)
        yield* parent.kill
      }))
  })
})
