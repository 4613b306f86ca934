/**
 * What an outside review of waiting processes found (docs/decisions.md, "Waiting processes, an
 * outside review (2026-12-06)"), each against the real built CLI and real processes: a caller
 * confined in a way /proc does not show (Landlock), or with a lower priority, never hands its
 * command to a process that is not; a waiting process of another build (a file of it replaced, a
 * package updated) never takes a command; a waiting process holds no descriptor of its caller's
 * caller open; a connection that says nothing is closed; and standard input ends as a pipe's
 * does, after what came before it was read.
 */
import { execFileSync, spawn } from "node:child_process"
import { appendFile, cp, mkdir, readdir, writeFile } from "node:fs/promises"
import { createConnection } from "node:net"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WarmPlace } from "../../../src/cli/warm/place.js"
import { WarmWire } from "../../../src/cli/warm/wire.js"
import { BIN } from "../../lib/cli-project.js"
import * as Landlock from "../../lib/landlock.js"
import { SCRIPT, until, waitingProcesses, warmProject } from "../../lib/warm.js"

if (Landlock.unavailable !== undefined) console.warn(`skipped: a Landlock-confined caller: ${Landlock.unavailable}`)

/** The priority a bash command reads of itself: field 19 of /proc/self/stat. */
const NICE = `echo "nice=$(cut -d' ' -f19 /proc/self/stat)"`

describe("waiting processes, an outside review", () => {
  it.live.skipIf(Landlock.unavailable !== undefined)(
    "keep a caller confined by Landlock in its own process, where its confinement holds",
    () =>
      Effect.gen(function* () {
        const { root, work, bash, untilWaiting } = yield* warmProject()
        // The waiting process and both callers have no_new_privs: the fingerprints match, only Landlock differs.
        const nnp = { wrap: Landlock.wrap("nnp") }
        yield* untilWaiting(100, nnp)
        expect((yield* bash("true", nnp)).waiting).toBe(true)
        // Writes only to its data folder and devices (the project is in the temporary folder too).
        const confined = { wrap: Landlock.wrap("landlock", [path.join(root, "data"), "/dev"]) }
        const ran = yield* bash('echo x > escaped.txt; echo "wrote=$?"', confined)
        expect(ran.waiting).toBe(false)
        expect(ran.stdout).toContain("wrote=1\n")
        expect(yield* Effect.promise(() => readdir(work))).toEqual([])
      }),
    120_000,
  )

  it.live(
    "keep a caller started with a lower priority in its own process",
    () =>
      Effect.gen(function* () {
        const { bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const nice = yield* bash(NICE, { wrap: ["nice", "-n", "7"] })
        expect(nice.waiting).toBe(false)
        expect(nice.stdout).toContain("nice=7\n")
        expect((yield* bash(NICE)).stdout).toContain("nice=0\n")
      }),
    120_000,
  )

  it.live(
    "never give a command to a waiting process of another build: a file of it replaced, a package updated",
    () =>
      Effect.gen(function* () {
        const { root, bash, untilWaiting } = yield* warmProject()
        // A copy of the build, its packages found through NODE_PATH (the same for every caller).
        const install = path.join(root, "install")
        const cli = path.join(install, "cli")
        yield* Effect.promise(() => cp(path.dirname(BIN), cli, { recursive: true }))
        const copy = { bin: path.join(cli, "bin.cjs"), env: { NODE_PATH: path.resolve(path.dirname(BIN), "../../node_modules") } }
        const waitingPid = Effect.promise(() => waitingProcesses(cli))
        yield* untilWaiting(100, copy)
        const before = yield* waitingPid
        expect(before.length).toBe(1)
        // The waiting process's own file changes, the bundle of the commands does not (its digest is the same).
        yield* Effect.promise(() => appendFile(path.join(cli, SCRIPT), "\n"))
        expect((yield* bash("true", copy)).waiting).toBe(false)
        yield* untilWaiting(100, copy)
        // A package manager rewrote its record of the packages above the build.
        yield* Effect.promise(async () => {
          await mkdir(path.join(install, "node_modules"))
          await writeFile(path.join(install, "node_modules", ".package-lock.json"), "{}")
        })
        expect((yield* bash("true", copy)).waiting).toBe(false)
        yield* untilWaiting(100, copy)
      }),
    120_000,
  )

  it.live(
    "hold no descriptor their caller inherited: a reader of the caller's pipe gets its end",
    () =>
      Effect.gen(function* () {
        const { root, work, env } = yield* warmProject()
        // The first command starts the waiting process with its descriptor 200 on the pipe `cat` reads.
        const child = spawn("bash", ["-c", 'exec "$0" "$@" 200>&1', process.execPath, BIN, "call", "bash", JSON.stringify({ command: "echo first" })], { cwd: work, env, stdio: ["ignore", "pipe", "ignore"] })
        const state = { output: "", ended: false }
        child.stdout.on("data", (chunk: Buffer) => (state.output += chunk.toString()))
        child.stdout.on("close", () => (state.ended = true))
        yield* until(async () => (await waitingProcesses(root)).length === 1)
        yield* until(() => state.ended)
        expect(state.output).toContain("first\n")
      }),
    120_000,
  )

  it.live(
    "close a connection that sends no request, or no go after the offer, and serve the next caller",
    () =>
      Effect.gen(function* () {
        const { root, env, bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const folder = path.join(root, "data", WarmPlace.FOLDER)
        const [socket] = (yield* Effect.promise(() => readdir(folder))).filter((name) => name.endsWith(".sock"))
        const connect = (first?: object) => {
          const connection = createConnection(path.join(folder, socket ?? ""))
          const state = { closed: false, answer: "" }
          connection.on("data", (chunk) => (state.answer += chunk.toString()))
          connection.on("close", () => (state.closed = true))
          connection.on("error", () => undefined)
          if (first !== undefined) connection.write(`${JSON.stringify(first)}\n`)
          return state
        }
        const silent = connect()
        yield* until(() => silent.closed)
        // The fingerprint a caller of this build computes, computed by a process started as a caller is.
        const fingerprint = yield* Effect.promise(async () => {
          const script = path.join(root, "fingerprint.mjs")
          const module = pathToFileURL(path.resolve(path.dirname(BIN), "warm", "fingerprint.js")).href
          await writeFile(script, `import { WarmFingerprint } from ${JSON.stringify(module)}; process.stdout.write(WarmFingerprint.of(WarmFingerprint.build(${JSON.stringify(path.dirname(BIN))}) ?? "") ?? "")`)
          return execFileSync(process.execPath, [script], { env, encoding: "utf8" })
        })
        const offered = connect({ t: "request", version: WarmWire.VERSION, fingerprint, argv: ["call"], script: BIN, cwd: "/", env: {}, umask: 18, ppid: process.pid, isTTY: false })
        yield* until(() => offered.closed)
        expect(offered.answer).toContain('"t":"offer"')
        expect((yield* bash("true")).waiting).toBe(true)
      }),
    120_000,
  )

  it.live(
    "answer what a command read before its input ended: `echo <initialize> | toolgate mcp`",
    () =>
      Effect.gen(function* () {
        const { root, toolgate, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const [before] = yield* Effect.promise(() => waitingProcesses(root))
        const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "echo", version: "1" } } }
        const ran = yield* toolgate(["mcp"], { input: `${JSON.stringify(initialize)}\n` })
        expect(ran.code).toBe(0)
        expect(ran.stdout).toContain('"id":1')
        // The session was the waiting process's last command: it ran there.
        yield* until(async () => !(await waitingProcesses(root)).includes(before ?? 0))
      }),
    120_000,
  )
})
