/**
 * End-to-end MCP tests: the built `toolgate mcp` (dist/cli/bin.cjs) in a child process, in a
 * hermetic sandbox (its own data dir, home and working directory under the OS temp dir), driven by
 * the SDK client of either protocol era, or by hand over newline-delimited JSON-RPC.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { OWN_PROCESS } from "./own-process.js"

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
export const BIN = path.join(ROOT, "dist/cli/bin.cjs")

export type Era = "legacy" | "modern"
export const ERAS: ReadonlyArray<Era> = ["legacy", "modern"]
export const MODERN = "2026-07-28"

export interface Sandbox {
  readonly root: string
  /** The working directory the server serves (`--dir`). */
  readonly work: string
  readonly data: string
  readonly home: string
  /** The explicit config file (`--config`), when one was given. */
  readonly config?: string
  readonly env: Readonly<Record<string, string>>
  readonly dispose: () => Promise<void>
}

/** A fresh sandbox; `config` (a JSON value) is written to a file outside the working directory. */
export const sandbox = async (options: { readonly config?: unknown; readonly files?: Readonly<Record<string, string>> } = {}): Promise<Sandbox> => {
  const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-mcp-e2e-"))
  const work = path.join(root, "work")
  const data = path.join(root, "data")
  const home = path.join(root, "home")
  await Promise.all([mkdir(work), mkdir(data), mkdir(home)])
  for (const [name, content] of Object.entries(options.files ?? {})) await writeFile(path.join(work, name), content)
  let config: string | undefined
  if (options.config !== undefined) {
    config = path.join(root, "toolgate.jsonc")
    await writeFile(config, JSON.stringify(options.config, null, 2))
  }
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TOOLGATE_DATA_DIR: data, ...OWN_PROCESS }
  return { root, work, data, home, env, ...(config === undefined ? {} : { config }), dispose: () => rm(root, { recursive: true, force: true }) }
}

/** The `toolgate mcp` arguments for a sandbox. */
export const serverArgs = (box: Sandbox, extra: ReadonlyArray<string> = []) => [BIN, "mcp", "--dir", box.work, ...(box.config === undefined ? [] : ["--config", box.config]), ...extra]

export interface Captured {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the built CLI once with the sandbox's environment (e.g. `tools --json`, `approvals list`). */
export const toolgate = (box: Sandbox, args: ReadonlyArray<string>): Promise<Captured> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: box.work, env: box.env })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

export interface ElicitParams {
  readonly mode?: string
  readonly message: string
  readonly requestedSchema: unknown
}

export type ElicitAnswer = { readonly action: "accept"; readonly content: Readonly<Record<string, unknown>> } | { readonly action: "decline" } | { readonly action: "cancel" }

/** Answers every permission form with `decision` (and optional feedback). */
export const decide = (decision: "once" | "session" | "always" | "reject", feedback?: string) => (): ElicitAnswer => ({
  action: "accept",
  content: { decision, ...(feedback === undefined ? {} : { feedback }) },
})

export interface ConnectOptions {
  readonly era: Era
  /** How to answer forms; `false`: the client does not declare elicitation at all. */
  readonly elicit?: ((params: ElicitParams) => ElicitAnswer | Promise<ElicitAnswer>) | false
  readonly args?: ReadonlyArray<string>
}

export interface Connection {
  readonly client: Client
  readonly transport: StdioClientTransport
  /** Every form the server asked this client to show, in order. */
  readonly elicitations: ElicitParams[]
  readonly instructions: string
  /** The session id the instructions name. */
  readonly instructedSession: string | undefined
  readonly stderr: () => string
  readonly close: () => Promise<void>
}

export const sessionOfInstructions = (instructions: string | undefined) => /toolgate session (ses_\w+)/.exec(instructions ?? "")?.[1]

/** Connects an SDK client of `era` to a new `toolgate mcp` of the sandbox. */
export const connect = async (box: Sandbox, options: ConnectOptions): Promise<Connection> => {
  const elicits = options.elicit !== false
  const client = new Client(
    { name: "toolgate-e2e", version: "1.0.0" },
    {
      capabilities: elicits ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: options.era === "legacy" ? "legacy" : { pin: MODERN } },
    },
  )
  const elicitations: ElicitParams[] = []
  if (elicits) {
    const answer = options.elicit === undefined ? decide("once") : options.elicit
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as unknown as ElicitParams
      elicitations.push(params)
      return (await answer(params)) as never
    })
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: serverArgs(box, options.args), cwd: box.work, env: { ...box.env }, stderr: "pipe" })
  let stderr = ""
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  await client.connect(transport)
  const instructions = client.getInstructions() ?? ""
  return {
    client,
    transport,
    elicitations,
    instructions,
    instructedSession: sessionOfInstructions(instructions),
    stderr: () => stderr,
    close: () => client.close(),
  }
}

/** Connects, runs `body`, and closes the connection whatever happens. */
export const withConnection = async <A>(box: Sandbox, options: ConnectOptions, body: (connection: Connection) => Promise<A>): Promise<A> => {
  const connection = await connect(box, options)
  try {
    return await body(connection)
  } finally {
    await connection.close()
  }
}

export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
  readonly structuredContent?: unknown
  readonly isError?: boolean
  readonly _meta?: Readonly<Record<string, unknown>>
}

export const call = async (
  connection: Connection,
  name: string,
  args: Readonly<Record<string, unknown>>,
  options: { readonly signal?: AbortSignal; readonly onprogress?: (progress: { readonly progress: number; readonly message?: string }) => void } = {},
): Promise<ToolResult> =>
  (await connection.client.callTool({ name, arguments: { ...args } }, { timeout: 120_000, ...options })) as unknown as ToolResult

/** The text of a result's (only) text content. */
export const textOf = (result: ToolResult) =>
  result.content
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("\n")

export const sessionOf = (result: ToolResult) => result._meta?.["toolgate/sessionID"] as string | undefined
export const messageOf = (result: ToolResult) => result._meta?.["toolgate/messageID"] as string | undefined

/** The command lines of every process now running (`ps -eo args`). */
export const processes = (): Promise<ReadonlyArray<string>> =>
  new Promise((resolve, reject) => execFile("ps", ["-eo", "args"], (error, stdout) => (error ? reject(error) : resolve(stdout.split("\n").map((line) => line.trim())))))

/** The running processes whose command line is exactly `sleep <seconds>`. */
export const sleeping = async (seconds: string) => (await processes()).filter((line) => line === `sleep ${seconds}`)

/** Polls `check` every 100 ms until it returns true or `ms` pass; returns whether it did. */
export const eventually = async (check: () => Promise<boolean> | boolean, ms = 10_000): Promise<boolean> => {
  const end = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > end) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** `toolgate mcp` spawned by hand: newline-delimited JSON-RPC on its stdin and stdout. */
export interface Raw {
  readonly child: ChildProcessWithoutNullStreams
  /** Every stdout line so far, verbatim. */
  readonly lines: string[]
  readonly stderr: () => string
  readonly send: (message: unknown) => void
  /** Sends a request with the next id and resolves with its response (the whole JSON-RPC message). */
  readonly request: (method: string, params?: unknown) => Promise<Readonly<Record<string, unknown>>>
  /** Resolves when the process exits. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

export const spawnRaw = (box: Sandbox, extra: ReadonlyArray<string> = []): Raw => {
  const child = spawn(process.execPath, serverArgs(box, extra), { cwd: box.work, env: box.env, stdio: ["pipe", "pipe", "pipe"] })
  const lines: string[] = []
  let buffer = ""
  let stderr = ""
  const waiting = new Map<number, (message: Readonly<Record<string, unknown>>) => void>()
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk
    let index = buffer.indexOf("\n")
    while (index >= 0) {
      const line = buffer.slice(0, index)
      buffer = buffer.slice(index + 1)
      lines.push(line)
      try {
        const message = JSON.parse(line) as Readonly<Record<string, unknown>>
        if (typeof message.id === "number" && ("result" in message || "error" in message)) waiting.get(message.id)?.(message)
      } catch {
        // Not JSON: kept in `lines` for the test to see.
      }
      index = buffer.indexOf("\n")
    }
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })))
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`)
  let next = 1
  const request = (method: string, params?: unknown) =>
    new Promise<Readonly<Record<string, unknown>>>((resolve) => {
      const id = next++
      waiting.set(id, resolve)
      send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })
    })
  return { child, lines, stderr: () => stderr, send, request, exited }
}

/** The 2025-era handshake over a raw connection. */
export const rawInitialize = async (raw: Raw, capabilities: Readonly<Record<string, unknown>> = {}) => {
  const response = await raw.request("initialize", { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "toolgate-e2e-raw", version: "1.0.0" } })
  raw.send({ jsonrpc: "2.0", method: "notifications/initialized" })
  return response
}
