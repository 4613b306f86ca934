/**
 * A command handed to a waiting process (cli/warm/) behaves as if it ran in the process started
 * for it: the caller's environment, directory, umask, standard input, exit code and signals; and
 * nothing of an earlier command. Real processes of the built CLI; which process ran a bash command
 * is read by the command itself from /proc.
 */
import { mkdir, readdir, rm } from "node:fs/promises"
import { createConnection } from "node:net"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { CliSignals } from "../../../src/cli/signals.js"
import { ExitCode } from "../../../src/cli/exit-code.js"
import { WarmClient } from "../../../src/cli/warm/client.js"
import { WarmPlace } from "../../../src/cli/warm/place.js"
import { WarmServer } from "../../../src/cli/warm/server.js"
import { WarmWire } from "../../../src/cli/warm/wire.js"
import { ToolCallMarker } from "../../../src/tool-call-marker.js"
import { guardMarker, marker, withCommand, withMarker } from "../../lib/process-group.js"
import { isAncestor, PARENT, SCRIPT, underWaiting, until, waitingProcesses, warmProject } from "../../lib/warm.js"

const umask = () => process.umask().toString(8).padStart(4, "0")

describe("a command handed to a waiting process", () => {
  it.live(
    "runs with the caller's environment, directory and umask, and nothing of an earlier command's",
    () =>
      Effect.gen(function* () {
        const { work, bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const first = yield* bash('echo "FOO=$FOO"; pwd; umask', { env: { FOO: "one" } })
        expect(first.waiting).toBe(true)
        expect(first.code).toBe(ExitCode.SUCCESS)
        expect(first.stdout.split("\n").slice(1, 4)).toEqual(["FOO=one", work, umask()])
        const sub = path.join(work, "sub")
        yield* Effect.promise(() => mkdir(sub))
        const second = yield* bash('echo "FOO=$FOO"; pwd', { cwd: sub })
        expect(second.waiting).toBe(true)
        expect(second.stdout.split("\n").slice(1, 3)).toEqual(["FOO=", sub])
      }),
    120_000,
  )

  it.live(
    "gives the command's exit code and output, and reads the JSON argument from standard input",
    () =>
      Effect.gen(function* () {
        const { toolgate, bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const failed = yield* bash("echo out; echo err >&2; exit 3")
        expect(failed.waiting).toBe(true)
        // As in its own process: the tool ran; the command's code is in the text and in --json.
        expect(failed.code).toBe(ExitCode.SUCCESS)
        expect(failed.stdout).toContain("out\nerr\n")
        expect(failed.stdout).toContain("Command exited with code 3.")
        const json = yield* toolgate(["call", "bash", JSON.stringify({ command: `${PARENT}; exit 4` }), "--json"])
        expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 4 })
        const piped = yield* toolgate(["call", "bash"], { input: JSON.stringify({ command: `${PARENT}; echo piped` }) })
        expect(piped.code).toBe(ExitCode.SUCCESS)
        expect(piped.stdout).toContain(SCRIPT)
        expect(piped.stdout).toContain("piped\n")
      }),
    120_000,
  )

  it.live(
    "is stopped with everything it started by the caller's Ctrl-C, which exits 130",
    () =>
      Effect.gen(function* () {
        const { start, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const token = marker()
        yield* guardMarker(token)
        const started = start(["call", "bash", JSON.stringify({ command: `${PARENT}; sleep 300.${token} & sleep 301.${token}; wait` })])
        yield* until(() => withCommand(`sleep 300.${token}`).length + withCommand(`sleep 301.${token}`).length === 2)
        expect(yield* Effect.promise(() => underWaiting(withCommand(`sleep 301.${token}`)[0] ?? 0))).toBe(true)
        started.child.kill("SIGINT")
        const ended = yield* Effect.promise(() => started.closed)
        expect(ended.code).toBe(ExitCode.SIGNALLED.SIGINT)
        expect(ended.stderr).toContain(CliSignals.Messages.interrupted("SIGINT"))
        expect(withMarker(token)).toEqual([])
      }),
    120_000,
  )

  it.live(
    "is stopped when its caller is killed outright, and the waiting process goes on",
    () =>
      Effect.gen(function* () {
        const { start, bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const token = marker()
        yield* guardMarker(token)
        const started = start(["call", "bash", JSON.stringify({ command: `${PARENT}; sleep 302.${token}` })])
        yield* until(() => withCommand(`sleep 302.${token}`).length === 1)
        expect(yield* Effect.promise(() => underWaiting(withCommand(`sleep 302.${token}`)[0] ?? 0))).toBe(true)
        started.child.kill("SIGKILL")
        yield* until(() => withCommand(`sleep 302.${token}`).length === 0)
        yield* untilWaiting()
        const next = yield* bash("echo next")
        expect(next.stdout).toContain("next\n")
      }),
    120_000,
  )

  it.live(
    "tells its caller when it ended before the command did, and the caller exits 1",
    () =>
      Effect.gen(function* () {
        const { root, start, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const token = marker()
        yield* guardMarker(token)
        const started = start(["call", "bash", JSON.stringify({ command: `sleep 303.${token}` })])
        yield* until(() => withCommand(`sleep 303.${token}`).length === 1)
        const sleeper = withCommand(`sleep 303.${token}`)[0] ?? 0
        expect(yield* Effect.promise(() => underWaiting(sleeper))).toBe(true)
        for (const pid of yield* Effect.promise(() => waitingProcesses(root))) if (yield* Effect.promise(() => isAncestor(pid, sleeper))) process.kill(pid, "SIGKILL")
        const ended = yield* Effect.promise(() => started.closed)
        expect(ended.code).toBe(ExitCode.TOOL_FAILED)
        expect(ended.stderr.split("\n").slice(-2)).toEqual([WarmClient.Messages.ended, ""])
      }),
    120_000,
  )

  it.live(
    "runs in its own process when a variable read at start differs, inside a tool call, with Node flags, or with TOOLGATE_WARM=0",
    () =>
      Effect.gen(function* () {
        const { bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const locale = yield* bash("echo $LANG", { env: { LANG: "C.UTF-8" } })
        expect(locale.code).toBe(ExitCode.SUCCESS)
        expect(locale.waiting).toBe(false)
        expect(locale.stdout).toContain("C.UTF-8\n")
        const off = yield* bash("true", { env: { TOOLGATE_WARM: "0" } })
        expect(off.waiting).toBe(false)
        const nested = yield* bash("true", { env: { [ToolCallMarker.VARIABLE]: "call_outer" } })
        expect(nested.waiting).toBe(false)
        const flagged = yield* bash("true", { node: ["--no-warnings"] })
        expect(flagged.waiting).toBe(false)
      }),
    120_000,
  )

  it.live(
    "refuses a malformed request and a command it does not run, and goes on waiting",
    () =>
      Effect.gen(function* () {
        const { root, bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const folder = path.join(root, "data", WarmPlace.FOLDER)
        const [socket] = (yield* Effect.promise(() => readdir(folder))).filter((name) => name.endsWith(".sock"))
        const ask = (request: object) =>
          Effect.promise(
            () =>
              new Promise<string>((resolve) => {
                const connection = createConnection(path.join(folder, socket ?? ""))
                let answer = ""
                connection.on("data", (chunk) => (answer += chunk.toString()))
                connection.on("close", () => resolve(answer))
                connection.on("error", () => resolve(answer))
                connection.write(`${JSON.stringify(request)}\n`)
              }),
          )
        const valid = { t: "request", version: WarmWire.VERSION, fingerprint: "x", argv: ["call"], script: "", cwd: "/", env: {}, umask: 18, ppid: 1, isTTY: false }
        expect(JSON.parse(yield* ask({ ...valid, env: { A: 1 } }))).toEqual({ t: "refuse", why: WarmServer.Messages.refused.version })
        expect(JSON.parse(yield* ask({ ...valid, argv: ["serve"] }))).toEqual({ t: "refuse", why: WarmServer.Messages.refused.command })
        expect(JSON.parse(yield* ask(valid))).toEqual({ t: "refuse", why: WarmServer.Messages.refused.fingerprint })
        expect((yield* bash("true")).waiting).toBe(true)
      }),
    120_000,
  )

  it.live(
    "ends once its socket is gone (its data folder removed)",
    () =>
      Effect.gen(function* () {
        const { root, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        const pids = yield* Effect.promise(() => waitingProcesses(root))
        expect(pids.length).toBeGreaterThan(0)
        yield* Effect.promise(() => rm(path.join(root, "data", WarmPlace.FOLDER), { recursive: true, force: true }))
        yield* until(async () => (await waitingProcesses(root)).length === 0)
      }),
    120_000,
  )
})
