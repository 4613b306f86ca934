/**
 * The built `toolgate serve` (dist/cli/bin.cjs) as a child process on 127.0.0.1, port 0, with its
 * home and data folder under `base`, until the test's scope ends. For what only a real process
 * shows: the environment its commands inherit, what it writes to stderr.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { send, type Answer } from "./server.js"

export const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "cli", "bin.cjs")

export interface Served {
  readonly child: ChildProcess
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  readonly port: number
  /** Everything it wrote to stdout and stderr so far. */
  readonly output: () => string
  /** A request with the token; a body is sent as JSON. */
  readonly api: (route: string, init?: { readonly method?: string; readonly body?: unknown }) => Promise<Answer>
}

/** The address a starting `toolgate serve` prints (stdout or stderr), and all it has written so far. */
export const listening = (child: ChildProcess): { readonly url: Promise<string>; readonly output: () => string } => {
  let text = ""
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      text += chunk.toString()
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)
      if (found !== null) resolve(found[1] as string)
    }
    child.stdout?.on("data", read)
    child.stderr?.on("data", read)
    child.once("exit", (code) => reject(new Error(`toolgate serve exited ${code}: ${text}`)))
  })
  return { url, output: () => text }
}

/** Starts `toolgate serve --port 0` in `root` with `token` in TOOLGATE_SERVER_TOKEN (and `env`). */
export const serveProcess = (options: { readonly base: string; readonly root: string; readonly token: string; readonly env?: Readonly<Record<string, string>> }) =>
  Effect.gen(function* () {
    yield* Effect.promise(() => mkdir(options.root, { recursive: true }))
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: path.join(options.base, "home"),
      TOOLGATE_DATA_DIR: path.join(options.base, "data"),
      TOOLGATE_SERVER_TOKEN: options.token,
      ...options.env,
    }
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => spawn(process.execPath, [BIN, "serve", "--port", "0"], { cwd: options.root, env, stdio: ["ignore", "pipe", "pipe"] })),
      (spawned) =>
        Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              if (spawned.exitCode !== null || spawned.signalCode !== null) return resolve()
              spawned.once("exit", () => resolve())
              spawned.kill("SIGTERM")
              setTimeout(() => spawned.kill("SIGKILL"), 5_000).unref()
            }),
        ),
    )
    const heard = listening(child)
    const url = yield* Effect.promise(() => heard.url)
    const api: Served["api"] = (route, init = {}) =>
      send(`${url}${route}`, {
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        headers: { authorization: `Bearer ${options.token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      })
    return { child, url, port: Number(new URL(url).port), output: heard.output, api } satisfies Served
  })
