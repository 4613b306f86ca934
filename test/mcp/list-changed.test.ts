/**
 * tools/list_changed when a registration changes the Location's catalog, over the SDK's real
 * client and server connected in process (a registration needs code in the serving process; the
 * stdio tests spawn the built CLI for everything else).
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Client } from "@modelcontextprotocol/client"
import { InMemoryTransport } from "@modelcontextprotocol/server"
import { Effect, Exit, Fiber, Schema, Scope } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { McpStdio } from "../../src/mcp/stdio.js"
import { Tool } from "../../src/tool/tool.js"
import { Toolgate } from "../../src/toolgate.js"

const echo = Tool.make({
  description: "Echo the text back.",
  input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }),
  output: Schema.String,
  execute: ({ text }) => Effect.succeed(text),
})

const roots: Array<string> = []
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })))
})

const ERAS = [
  ["2025 era", { mode: "legacy" }],
  ["2026-07-28 era", { mode: { pin: "2026-07-28" } }],
] as const

describe("toolgate mcp: tools/list_changed", () => {
  for (const [era, versionNegotiation] of ERAS) {
    it(`notifies a ${era} client when a tool is registered in the Location, and lists it`, async () => {
      const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-mcp-list-changed-"))
      roots.push(root)
      const work = path.join(root, "work")
      await mkdir(work)
      const environment = { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: path.join(root, "home") }
      const scope = Effect.runSync(Scope.make())
      const toolgate = await Effect.runPromise(Toolgate.open({ directory: work, environment }).pipe(Scope.provide(scope)))
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      const serving = Effect.runFork(toolgate.run(McpStdio.serve({ transport: serverSide, until: Effect.never, log: () => undefined })).pipe(Effect.scoped))
      const client = new Client({ name: "test", version: "1" }, { versionNegotiation })
      try {
        const changed = new Promise<void>((resolve) => client.setNotificationHandler("notifications/tools/list_changed", () => resolve()))
        await client.connect(clientSide)
        if (era === "2026-07-28 era") await client.listen({ toolsListChanged: true })
        const before = (await client.listTools()).tools.map((tool) => tool.name)
        expect(before).not.toContain("echo")
        await Effect.runPromise(toolgate.register({ echo }).pipe(Scope.provide(scope)))
        await changed
        const after = (await client.listTools()).tools.map((tool) => tool.name)
        expect(after).toEqual([...before, "echo"].sort())
        const result = await client.callTool({ name: "echo", arguments: { text: "hello" } })
        expect(result.content).toEqual([{ type: "text", text: "hello" }])
      } finally {
        await client.close()
        await Effect.runPromise(Fiber.interrupt(serving))
        await Effect.runPromise(Scope.close(scope, Exit.void))
      }
    }, 30_000)
  }
})
