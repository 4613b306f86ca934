/**
 * toolgate's MCP server and the SDK's real client in one process, over the SDK's in-memory
 * transport: for what needs code in the serving process (registrations) or fine control of the
 * client's answers. Everything else is tested over real stdio against the built CLI.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Client } from "@modelcontextprotocol/client"
import { InMemoryTransport } from "@modelcontextprotocol/server"
import { Effect, Exit, Fiber, Scope } from "effect"
import { McpStdio } from "../../src/mcp/stdio.js"
import { Toolgate } from "../../src/toolgate.js"

export const ERAS = [
  ["2025 era", { mode: "legacy" }],
  ["2026-07-28 era", { mode: { pin: "2026-07-28" } }],
] as const

export type Era = (typeof ERAS)[number][1]

export interface Options {
  readonly era: Era
  /** Explicit config file contents (JSON). */
  readonly config?: unknown
  /** The client's answer to each form; absent: the client declares no elicitation. */
  readonly elicit?: (params: { readonly message: string; readonly requestedSchema: unknown }) => Promise<{ readonly action: "accept" | "decline" | "cancel"; readonly content?: Record<string, string | number | boolean | string[]> }>
}

export interface Connected {
  readonly client: Client
  readonly toolgate: Toolgate.Handle
  readonly scope: Scope.Closeable
  readonly work: string
  readonly close: () => Promise<void>
}

export const connect = async (options: Options): Promise<Connected> => {
  const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-mcp-"))
  const work = path.join(root, "work")
  await mkdir(work)
  const configFile = path.join(root, "config.json")
  if (options.config !== undefined) await writeFile(configFile, JSON.stringify(options.config))
  const environment = { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: path.join(root, "home") }
  const scope = Effect.runSync(Scope.make())
  const toolgate = await Effect.runPromise(
    Toolgate.open({ directory: work, environment, ...(options.config === undefined ? {} : { config: configFile }) }).pipe(Scope.provide(scope)),
  )
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const serving = Effect.runFork(toolgate.run(McpStdio.serve({ transport: serverSide, until: Effect.never, log: () => undefined })).pipe(Effect.scoped))
  const client = new Client({ name: "test", version: "1" }, { versionNegotiation: options.era, capabilities: options.elicit === undefined ? {} : { elicitation: { form: {} } } })
  if (options.elicit !== undefined) {
    const elicit = options.elicit
    client.setRequestHandler("elicitation/create", async (request) => elicit(request.params as never))
  }
  await client.connect(clientSide)
  const close = async () => {
    await client.close()
    await Effect.runPromise(Fiber.interrupt(serving))
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await rm(root, { recursive: true, force: true })
  }
  return { client, toolgate, scope, work, close }
}

/** The text parts of a tools/call result, joined. */
export const textOf = (result: { readonly content?: unknown }) =>
  (result.content as ReadonlyArray<{ readonly type: string; readonly text?: string }>).flatMap((part) => (part.type === "text" ? [part.text ?? ""] : [])).join("\n")
