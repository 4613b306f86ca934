/**
 * A waiting process runs its commands' common path before it waits, in a throwaway project and
 * data folder of its own (the temporary folder, removed after): the first call in a process pays
 * for compiling its functions, loading the SQLite addon and preparing what every later call
 * reuses, and without this the caller's command would be that first call. Nothing of the
 * person's is read or written: home, config and data are the throwaway folder's.
 */
export * as WarmUp from "./warm-up.js"

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { PassThrough, Writable } from "node:stream"
import type { Bundle } from "../bundle.js"
import type { Io } from "../io.js"
import { Cli } from "../main.js"

/** What runs, in order; `call read` twice, as the second call of a process is the one a caller gets. */
export const COMMANDS: ReadonlyArray<ReadonlyArray<string>> = [
  ["call", "read", '{"path":"small.txt"}', "--session", "ses_warmup"],
  ["call", "read", '{"path":"small.txt"}', "--session", "ses_warmup"],
  ["tools", "--json"],
  ["mcp"],
]

/** What `mcp` is sent: the start of a session, the catalog and one call. */
const MCP_REQUESTS = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "toolgate-warm-up", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read", arguments: { path: "small.txt" } } },
]
/** The answer that ends the session. */
const LAST_ANSWER = '"id":3'
/** The longest the `mcp` warm-up runs. */
export const MCP_MS = 3_000

/** A protocol channel that sends `MCP_REQUESTS` and ends once the last is answered. */
const mcpChannel = (): Io.Channel => {
  const input = new PassThrough()
  let answered = ""
  const done = () => input.end()
  const timer = setTimeout(done, MCP_MS)
  const output = new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      answered += chunk.toString("utf8")
      if (answered.includes(LAST_ANSWER)) {
        clearTimeout(timer)
        done()
      }
      callback()
    },
  })
  input.write(MCP_REQUESTS.map((request) => `${JSON.stringify(request)}\n`).join(""))
  return { input, output }
}

/** Runs `COMMANDS`; their exit codes (undefined for one that threw), which only tests read. */
export const run = async (commands: Bundle.Commands): Promise<ReadonlyArray<number | undefined>> => {
  const codes: Array<number | undefined> = []
  const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-warm-up-"))
  try {
    const project = path.join(root, "project")
    mkdirSync(project)
    writeFileSync(path.join(project, "small.txt"), "a small file\n")
    const env = { HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data"), TOOLGATE_CONFIG_DIR: path.join(root, "config"), TOOLGATE_WARM: "0", PATH: process.env.PATH ?? "/usr/bin:/bin" }
    for (const argv of COMMANDS) {
      const channel = argv[0] === "mcp" ? mcpChannel() : undefined
      const io: Io.Io = {
        stdout: () => undefined,
        stderr: () => undefined,
        stdin: () => Promise.resolve(undefined),
        prompt: () => Promise.resolve(undefined),
        isTTY: false,
        cwd: project,
        env,
        ...(channel === undefined ? {} : { channel: () => channel }),
      }
      codes.push(await Cli.run(argv, { io, load: (name) => commands.load(name) }).catch(() => undefined))
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  return codes
}
