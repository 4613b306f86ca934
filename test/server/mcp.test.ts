import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Client } from "@modelcontextprotocol/client"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { Deferred, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ServerServe } from "../../src/server/serve.js"
import { ERAS, MODERN, sessionOfInstructions } from "../lib/mcp-client.js"

const TOKEN = "mcp-over-http-test-token-0123456789"

interface Running {
  readonly url: string
  readonly work: string
  readonly root: string
  readonly stop: () => Promise<void>
}

/** A real `toolgate serve` in this process on a free loopback port, with a temp data dir and home. */
const start = async (config?: unknown): Promise<Running> => {
  const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-serve-mcp-"))
  const work = path.join(root, "work")
  await Promise.all(["work", "home", "data", "outside"].map((name) => mkdir(path.join(root, name))))
  await writeFile(path.join(work, "small.txt"), "one\ntwo\n")
  await writeFile(path.join(root, "outside", "note.txt"), "outside note\n")
  if (config !== undefined) {
    await mkdir(path.join(root, "home", ".config", "toolgate"), { recursive: true })
    await writeFile(path.join(root, "home", ".config", "toolgate", "toolgate.json"), JSON.stringify(config))
  }
  const stop = Effect.runSync(Deferred.make<void>())
  const listening: { resolve: (url: string) => void; reject: (error: unknown) => void; promise?: Promise<string> } = { resolve: () => undefined, reject: () => undefined }
  listening.promise = new Promise<string>((resolve, reject) => Object.assign(listening, { resolve, reject }))
  const done = Effect.runPromise(
    Effect.scoped(
      ServerServe.serve({
        port: 0,
        hostname: "127.0.0.1",
        hostnameGiven: false,
        root: work,
        environment: { env: { TOOLGATE_DATA_DIR: path.join(root, "data"), [`TOOLGATE_SERVER_TOKEN`]: TOKEN }, home: path.join(root, "home") },
        log: () => undefined,
        until: Deferred.await(stop),
        onListening: (url) => listening.resolve(url),
      }),
    ),
  )
  done.catch((error: unknown) => listening.reject(error))
  const url = await listening.promise
  return {
    url,
    work,
    root,
    stop: async () => {
      Effect.runSync(Deferred.succeed(stop, undefined))
      await done
      await rm(root, { recursive: true, force: true })
    },
  }
}

const connect = async (running: Running, era: (typeof ERAS)[number], query = "") => {
  const client = new Client({ name: "toolgate-http-test", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: MODERN } } })
  const transport = new StreamableHTTPClientTransport(new URL(`${running.url}/mcp${query}`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } })
  await client.connect(transport)
  return client
}

describe("ServerMcp: MCP Streamable HTTP at /mcp", () => {
  let running: Running
  beforeAll(async () => {
    running = await start()
  })
  afterAll(() => running.stop())

  for (const era of ERAS)
    it(`serves tools/list and tools/call to a ${era} client through the gate`, async () => {
      const client = await connect(running, era)
      try {
        const { tools } = await client.listTools()
        expect(tools.map((tool) => tool.name)).toContain("read")
        const result = (await client.callTool({ name: "read", arguments: { path: "small.txt" } })) as { content: Array<{ type: string; text: string }>; isError?: boolean }
        expect(result.isError ?? false).toBe(false)
        expect(result.content[0]?.text).toBe("Read file small.txt, lines 1-2\n1: one\n2: two")
      } finally {
        await client.close()
      }
    })

  it("names the shared session in its instructions, and a ?session= endpoint has its own", async () => {
    const shared = await connect(running, "legacy")
    const own = await connect(running, "legacy", "?session=ses_http_own_0001")
    try {
      const sharedSession = sessionOfInstructions(shared.getInstructions())
      expect(sharedSession).toMatch(/^ses_/)
      expect(sessionOfInstructions(own.getInstructions())).toBe("ses_http_own_0001")
    } finally {
      await shared.close()
      await own.close()
    }
  })

  it("refuses a request without the token, and a directory outside the allowed roots", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
    const anonymous = await fetch(`${running.url}/mcp`, { method: "POST", headers, body })
    expect(anonymous.status).toBe(401)
    const outside = await fetch(`${running.url}/mcp?directory=${encodeURIComponent(os.tmpdir())}`, { method: "POST", headers: { ...headers, authorization: `Bearer ${TOKEN}` }, body })
    expect(outside.status).toBe(403)
    expect(((await outside.json()) as { _tag: string })._tag).toBe("ForbiddenError")
  })
})

describe("ServerMcp with mcp.on_ask console", () => {
  it("leaves an ask a 2025-era client cannot show pending in the server's own console, and the call ends as the person answered there", async () => {
    const running = await start({ mcp: { on_ask: "console" } })
    const client = await connect(running, "legacy")
    try {
      const session = sessionOfInstructions(client.getInstructions()) ?? ""
      const note = path.join(running.root, "outside", "note.txt")
      const result = client.callTool({ name: "read", arguments: { path: note } }) as Promise<{ content: Array<{ type: string; text: string }>; isError?: boolean }>
      const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }
      let pending: ReadonlyArray<{ readonly id: string; readonly action: string }> = []
      for (let tries = 0; pending.length === 0 && tries < 200; tries++) {
        pending = ((await (await fetch(`${running.url}/api/session/${session}/permission`, { headers })).json()) as { data: typeof pending }).data
        if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 25))
      }
      expect(pending.map((request) => request.action)).toEqual(["external_directory"])
      const reply = await fetch(`${running.url}/api/session/${session}/permission/${pending[0]?.id}/reply`, { method: "POST", headers, body: JSON.stringify({ reply: "once" }) })
      expect(reply.status).toBe(204)
      const answered = await result
      expect(answered.isError ?? false).toBe(false)
      expect(answered.content[0]?.text).toContain("outside note")
    } finally {
      await client.close()
      await running.stop()
    }
  })
})
