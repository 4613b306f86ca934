/**
 * A real `toolgate serve` in the test's process: `ServerServe.serve` on 127.0.0.1, port 0, with
 * home and data directory under a temp folder, stopped gracefully when the test's scope closes.
 * `api` sends a request over loopback with the token; `raw` sends exactly the headers given
 * (a forged Host or Origin, none at all), through node:http, which fetch would not allow.
 */
import { request as httpRequest } from "node:http"
import type { IncomingHttpHeaders } from "node:http"
import { mkdir, realpath } from "node:fs/promises"
import path from "node:path"
import { Deferred, Effect, Exit, Fiber, Schedule } from "effect"
import { ServerServe } from "../../src/server/serve.js"
import { tmpdir } from "./tmp.js"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  /** The JSON body; `undefined` when there is none (204). */
  readonly body: any
}

export interface Server {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  readonly port: number
  readonly token: string
  /** Where serve started (a real path): the default directory and allowed root. */
  readonly root: string
  /** The temp folder holding home, data and root. */
  readonly base: string
  readonly home: string
  /** What serve logged, one entry a line. */
  readonly log: ReadonlyArray<string>
  /** A request with `Authorization: Bearer <token>`; a body is sent as JSON. */
  readonly api: (path: string, init?: { readonly method?: string; readonly body?: unknown; readonly headers?: Record<string, string> }) => Promise<Answer>
  /** Stops the server as a signal would, and waits until it stopped. */
  readonly stop: Effect.Effect<void>
}

export interface StartOptions {
  /** Extra environment of serve (TOOLGATE_SERVER_TOKEN, say). */
  readonly env?: Readonly<Record<string, string>>
  /** Runs before serve starts, with the folders it will use (config files, project folders). */
  readonly setup?: (folders: { readonly base: string; readonly home: string; readonly root: string }) => Promise<void>
  /** The folders of an earlier server, to start again over its data. */
  readonly folders?: { readonly base: string; readonly home: string; readonly root: string }
  /** The port to bind (default 0: any free one); a restart on the same port keeps a page's origin. */
  readonly port?: number
  /** `--config F`, from the folders. */
  readonly config?: (folders: { readonly base: string; readonly home: string; readonly root: string }) => string
}

/** The token in the line serve prints for `url`. */
export const tokenOf = (log: ReadonlyArray<string>, url: string): string => {
  // A placeholder the console URL leaves as it is (no character of it is percent-encoded).
  const [before, after] = ServerServe.Messages.listening(url, "TOKENxPLACEHOLDER").split("TOKENxPLACEHOLDER") as [string, string]
  const line = log.find((entry) => entry.startsWith(before) && entry.endsWith(after)) ?? ""
  return line.slice(before.length, line.length - after.length)
}

/** Sends one request to `url` (a full URL) and reads the JSON answer. */
export const send = async (url: string, init: RequestInit = {}): Promise<Answer> => {
  const response = await fetch(url, init)
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
}

/** The folders of one server: `base/home`, `base/data`, `base/work` (the root). */
export const folders = Effect.gen(function* () {
  const base = yield* Effect.flatMap(tmpdir, (dir) => Effect.promise(() => realpath(dir)))
  const home = path.join(base, "home")
  const root = path.join(base, "work")
  yield* Effect.promise(async () => {
    await mkdir(home, { recursive: true })
    await mkdir(root, { recursive: true })
  })
  return { base, home, root }
})

/** The environment serve runs with in `base`. */
export const environmentOf = (base: string, home: string, env: Readonly<Record<string, string>> = {}) => ({
  env: { HOME: home, TOOLGATE_DATA_DIR: path.join(base, "data"), ...env },
  home,
})

/** Starts a server for the scope of the test. */
export const start = (options: StartOptions = {}) =>
  Effect.gen(function* () {
    const { base, home, root } = options.folders ?? (yield* folders)
    if (options.setup !== undefined) yield* Effect.promise(() => options.setup?.({ base, home, root }) ?? Promise.resolve())
    const log: string[] = []
    const stopped = yield* Deferred.make<void>()
    const listening = yield* Deferred.make<string>()
    const fiber = yield* Effect.scoped(
      ServerServe.serve({
        port: options.port ?? 0,
        hostname: "127.0.0.1",
        hostnameGiven: false,
        root,
        ...(options.config === undefined ? {} : { config: options.config({ base, home, root }) }),
        environment: environmentOf(base, home, options.env),
        log: (line) => log.push(line),
        until: Deferred.await(stopped),
        onListening: (url) => Deferred.doneUnsafe(listening, Exit.succeed(url)),
      }),
    ).pipe(Effect.forkScoped)
    const stop = Deferred.succeed(stopped, undefined).pipe(Effect.andThen(Fiber.await(fiber)), Effect.asVoid)
    yield* Effect.addFinalizer(() => stop)
    const url = yield* Deferred.await(listening).pipe(Effect.raceFirst(Fiber.join(fiber).pipe(Effect.flatMap(() => Effect.die("serve ended before it listened")))))
    const token = options.env?.TOOLGATE_SERVER_TOKEN ?? tokenOf(log, url)
    const api: Server["api"] = (route, init = {}) =>
      send(`${url}${route}`, {
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
        ...(init.body === undefined ? {} : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) }),
      })
    return { url, port: Number(new URL(url).port), token, root, base, home, log, api, stop } satisfies Server
  })

export interface RawAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: any
}

/** A request with exactly `headers` (no Host when none is given), over node:http. */
export const raw = (port: number, route: string, headers: Readonly<Record<string, string>>, method = "GET") =>
  new Promise<RawAnswer>((resolve, reject) => {
    const hasHost = Object.keys(headers).some((name) => name.toLowerCase() === "host")
    const request = httpRequest({ host: "127.0.0.1", port, path: route, method, headers, setHost: hasHost, agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        const json = (() => {
          try {
            return text === "" ? undefined : (JSON.parse(text) as unknown)
          } catch {
            // Node's own answers (a 400 for a request without Host) are not JSON.
            return text
          }
        })()
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: json })
      })
    })
    request.on("error", reject)
    request.end()
  })

/** Polls `read` until `until` holds for what it returns (a request showing up, say). */
export const waitFor = <A>(read: () => Promise<A>, until: (value: A) => boolean): Effect.Effect<A> =>
  Effect.promise(read).pipe(Effect.repeat({ until, schedule: Schedule.spaced("25 millis") }))

/** The pending permission requests of a session, once there are `count` of them. */
export const pendingOf = (server: Server, sessionID: string, count = 1) =>
  waitFor(() => server.api(`/api/session/${sessionID}/permission`), (answer) => (answer.body?.data?.length ?? 0) >= count).pipe(Effect.map((answer) => answer.body.data as ReadonlyArray<any>))

/** A new session in `directory` (default the root), with `rules` after its agent's. */
export const session = (server: Server, body: Record<string, unknown> = {}) =>
  Effect.promise(() => server.api("/api/session", { body })).pipe(Effect.map((answer) => answer.body.data.id as string))

/** Session rules that ask before every command. */
export const ASK_BASH = [{ action: "bash", resource: "*", effect: "ask" }] as const

/** Starts a call and gives back its answer's promise (it settles when the call does). */
export const call = (server: Server, sessionID: string, name: string, input: unknown, extra: Record<string, unknown> = {}) =>
  server.api(`/api/session/${sessionID}/call`, { body: { ...extra, call: { name, input } } })
