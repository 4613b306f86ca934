/**
 * `toolgate serve` as a shell runs it (issue 17, item 1): the real executable in a child process
 * (through tsx, so no build is needed) prints one line with its URL and token, serves over
 * loopback, and on SIGINT or SIGTERM stops gracefully: the call waiting on an ask is declined
 * saying the server stopped, the running command and its group are killed, and it exits 0. Two
 * SIGINTs in a row exit at once, still leaving no command behind. Refusals before binding go
 * through the CLI in process.
 */
import { spawn } from "node:child_process"
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { ServeCommand } from "../../src/cli/command/serve.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Interaction } from "../../src/interaction/interaction.js"
import { Locations } from "../../src/locations.js"
import { Permission } from "../../src/permission/permission.js"
import { ServerServe } from "../../src/server/serve.js"
import { ServerToken } from "../../src/server/token.js"
import { promise, runCli } from "../lib/cli.js"
import { guardMarker, marker, withMarker } from "../lib/process-group.js"
import { ASK_BASH, folders, send, tokenOf, waitFor } from "../lib/server.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const bin = path.join(root, "src/cli/bin.ts")
const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href

const LISTENING = /^toolgate serve: listening on (http:\/\/[^ ]+) /

/** `toolgate serve --port 0` in a child, killed when the test's scope closes if it is still there. */
const serve = Effect.gen(function* () {
  const { base, home, root: cwd } = yield* folders
  const child = spawn(process.execPath, ["--import", tsx, bin, "serve", "--port", "0"], {
    cwd,
    env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(base, "data") },
    stdio: ["ignore", "pipe", "pipe"],
  })
  yield* Effect.addFinalizer(() => Effect.sync(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")))
  const out = { stderr: "", stdout: "" }
  child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      out.stderr += chunk.toString()
      const url = out.stderr.split("\n")[0]?.match(LISTENING)?.[1]
      if (url !== undefined && out.stderr.includes("\n")) resolve(url)
    })
    child.on("exit", (code) => reject(new Error(`serve exited with ${code} before it listened: ${out.stderr}`)))
  })
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const url = yield* Effect.promise(() => listening)
  const token = tokenOf(out.stderr.split("\n"), url)
  const api = (route: string, body?: unknown) =>
    send(`${url}${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  return { child, url, token, cwd, out, exited, api }
})

type Served = Effect.Success<typeof serve>

const newSession = (served: Served, body: Record<string, unknown> = {}) => Effect.promise(() => served.api("/api/session", body)).pipe(Effect.map((answer) => answer.body.data.id as string))

/** A running `sleep` (found by its marker) in one session and an ask waiting in another. */
const busy = (served: Served, command: string, token: string) =>
  Effect.gen(function* () {
    const running = yield* newSession(served)
    const asking = yield* newSession(served, { rules: ASK_BASH })
    const sleeping = served.api(`/api/session/${running}/call`, { call: { name: "bash", input: { command } } }).catch((error: Error) => error)
    const waiting = served.api(`/api/session/${asking}/call`, { call: { id: "call_ask", name: "bash", input: { command: "echo hi" } } }).catch((error: Error) => error)
    yield* waitFor(() => served.api(`/api/session/${asking}/permission`), (answer) => answer.body.data.length === 1)
    yield* Effect.sync(() => withMarker(token).length).pipe(Effect.repeat({ until: (count) => count > 0, schedule: Schedule.spaced("25 millis") }))
    return { sleeping, waiting }
  })

describe("toolgate serve", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    it.live(`stops gracefully on ${signal}: the ask declined, the command killed, exit 0`, () =>
      Effect.gen(function* () {
        const token = marker()
        yield* guardMarker(token)
        const served = yield* serve
        expect(served.out.stderr).toBe(`${ServerServe.Messages.listening(served.url, served.token)}\n`)
        expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
        const { sleeping, waiting } = yield* busy(served, `sleep 441.${token}`, token)
        served.child.kill(signal)
        const code = yield* Effect.promise(() => served.exited)
        const asked = yield* Effect.promise(() => waiting)
        const slept = yield* Effect.promise(() => sleeping)
        expect(code).toBe(ExitCode.SUCCESS)
        expect(asked).toMatchObject({ status: 200 })
        expect((asked as { readonly body: unknown }).body).toEqual({
          kind: "declined",
          toolCallID: "call_ask",
          message: Permission.Messages.unanswered("bash", Interaction.Reasons.serverStopped),
        })
        expect((asked as { readonly body: { readonly message: string } }).body.message).toBe("Permission request for bash ended unanswered: the server stopped")
        expect(slept).toMatchObject({ status: 503, body: { _tag: "LocationClosedError", message: Locations.Messages.closed(served.cwd) } })
        expect(withMarker(token)).toEqual([])
        expect(served.out).toEqual({
          stdout: "",
          stderr: [ServerServe.Messages.listening(served.url, served.token), ServerServe.Messages.stopping, ServerServe.Messages.stopped, ""].join("\n"),
        })
      }))

  it.live("exits at once on a second SIGINT, leaving no command behind", () =>
    Effect.gen(function* () {
      const token = marker()
      yield* guardMarker(token)
      const served = yield* serve
      // The command ignores SIGTERM, so the graceful stop waits for its SIGKILL grace: the second signal comes first.
      const { sleeping } = yield* busy(served, `trap '' TERM; sleep 442.${token}`, token)
      served.child.kill("SIGINT")
      yield* waitFor(() => Promise.resolve(served.out.stderr), (text) => text.includes(ServerServe.Messages.stopping))
      served.child.kill("SIGINT")
      const code = yield* Effect.promise(() => served.exited)
      expect(code).toBe(ExitCode.SIGNALLED.SIGINT)
      expect(withMarker(token)).toEqual([])
      // Its connection was cut by the exit, with no answer.
      expect(yield* Effect.promise(() => sleeping)).toBeInstanceOf(Error)
    }))

  it.live("refuses a bind beyond loopback without TOOLGATE_SERVER_TOKEN with exit 2, before binding", () =>
    Effect.gen(function* () {
      const { root: cwd } = yield* folders
      expect(yield* promise(() => runCli(["serve", "--hostname", "0.0.0.0", "--port", "0"], { root: cwd }))).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `${new ServerServe.ExposedError({ hostname: "0.0.0.0", given: true }).message}\n`,
      })
      expect(yield* promise(() => runCli(["serve", "--hostname", "0.0.0.0", "--port", "0"], { root: cwd, env: { [ServerToken.ENV]: "short" } }))).toEqual({
        code: ExitCode.USAGE,
        stdout: "",
        stderr: `${new ServerServe.TokenError({ detail: ServerToken.Messages.tooShort }).message}\n`,
      })
    }))

  it.live("refuses a bad port and arguments with exit 2, and a port in use with exit 1", () =>
    Effect.gen(function* () {
      const { root: cwd } = yield* folders
      expect(yield* promise(() => runCli(["serve", "--port", "70000"], { root: cwd }))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${ServeCommand.Messages.invalidPort("70000")}\n` })
      expect(yield* promise(() => runCli(["serve", "--port", "-1"], { root: cwd }))).toMatchObject({ code: ExitCode.USAGE, stdout: "" })
      expect(yield* promise(() => runCli(["serve", "here"], { root: cwd }))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${ServeCommand.Messages.tooManyArguments}\n` })
      const taken = yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<ReturnType<typeof createServer>>((resolve) => { const server = createServer(); server.listen(0, "127.0.0.1", () => resolve(server)) })),
        (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve()))),
      )
      const port = (taken.address() as AddressInfo).port
      const inUse = yield* promise(() => runCli(["serve", "--port", String(port)], { root: cwd }))
      expect(inUse.code).toBe(ExitCode.TOOL_FAILED)
      expect(inUse.stderr).toMatch(new RegExp(`^toolgate serve: cannot listen on 127\\.0\\.0\\.1:${port}: .+\\n$`))
    }))

  const ports: ReadonlyArray<readonly [string, number | undefined]> = [
    ["0", 0],
    ["4096", 4096],
    ["65535", 65_535],
    ["65536", undefined],
    ["-1", undefined],
    ["80a", undefined],
    ["", undefined],
    ["123456", undefined],
  ]
  for (const [text, expected] of ports)
    it(`reads --port ${JSON.stringify(text)} as ${expected}`, () => {
      expect(ServeCommand.portOf(text)).toBe(expected)
    })
})
