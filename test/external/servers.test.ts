/** External MCP servers from config: a real server on the official SDK (test/lib/external-mcp-server.mjs), over stdio and Streamable HTTP. */
import { spawn } from "node:child_process"
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Effect, Exit, Scope } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { SessionTurn } from "../../src/session/turn.js"
import { Toolgate } from "../../src/toolgate.js"
import { madeLine, runCli } from "../lib/cli.js"

const server = path.resolve("test/lib/external-mcp-server.mjs")
const stdio = { command: [process.execPath, server] }

const roots: Array<string> = []
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })))
})

const setup = async (config: unknown) => {
  const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-external-"))
  roots.push(root)
  const work = path.join(root, "work")
  await mkdir(work)
  const file = path.join(root, "config.json")
  await writeFile(file, JSON.stringify(config))
  return { root, work, file }
}

const cli = (root: string, work: string, argv: ReadonlyArray<string>, options: { readonly answers?: string[] } = {}) => runCli([...argv, "--dir", work], { root, ...options })

describe("external MCP servers", () => {
  it("lists a stdio server's tools as <server>_<tool> with their schemas, and says which it skipped and why", async () => {
    const { root, work, file } = await setup({ mcp: { servers: { ext: stdio } } })
    const tools = await cli(root, work, ["tools", "--json", "--config", file])
    expect(tools.code).toBe(0)
    const definitions = JSON.parse(tools.stdout) as ReadonlyArray<{ name: string; description: string; inputSchema: unknown; outputSchema?: unknown }>
    const echo = definitions.find((definition) => definition.name === "ext_echo")
    expect(echo).toEqual({ name: "ext_echo", description: "From the MCP server ext: Echo the text back.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } })
    expect(definitions.map((definition) => definition.name)).toEqual(expect.arrayContaining(["ext_add", "ext_big", "ext_crash", "ext_fail", "ext_image", "read", "bash"]))
    const listed = await cli(root, work, ["mcp-servers", "--config", file])
    expect(listed.stdout).toContain(`ext (explicit ${file}): running: ${process.execPath} ${server}`)
    expect(listed.stdout).toContain("  skipped bad.name: Invalid tool name: ext_bad.name")
  }, 60_000)

  it("runs a call through the gate: allowed by the agent's rules, asked by an ask rule, hidden by a deny, a failure the model reads", async () => {
    const { root, work, file } = await setup({ mcp: { servers: { ext: stdio } } })
    const allowed = await cli(root, work, ["call", "ext_echo", '{"text":"hi"}', "--config", file])
    expect([allowed.code, allowed.stdout]).toEqual([0, "echo: hi\n"])
    const failed = await cli(root, work, ["call", "ext_fail", "{}", "--config", file])
    expect([failed.code, failed.stderr]).toEqual([1, `${madeLine(failed.stderr)}the external tool failed on purpose\n`])

    const ask = path.join(root, "ask.json")
    await writeFile(ask, JSON.stringify({ mcp: { servers: { ext: stdio } }, permission: [{ action: "ext_*", resource: "*", effect: "ask" }] }))
    const rejected = await cli(root, work, ["call", "ext_echo", '{"text":"secret"}', "--config", ask, "--on-ask", "reject"])
    expect(rejected.code).toBe(4)
    const once = await cli(root, work, ["call", "ext_echo", '{"text":"asked"}', "--config", ask, "--on-ask", "prompt"], { answers: ["o"] })
    expect(once.code).toBe(0)
    expect(once.stderr).toContain("Permission requested: ext_echo *")
    expect(once.stderr).toContain('Arguments: {"text":"asked"}')

    const deny = path.join(root, "deny.json")
    await writeFile(deny, JSON.stringify({ mcp: { servers: { ext: stdio } }, permission: [{ action: "ext_echo", resource: "*", effect: "deny" }] }))
    // A tool every call of which is denied leaves the catalog, as a built-in does; a call to it is unknown.
    expect((await cli(root, work, ["tools", "--config", deny])).stdout).not.toContain("ext_echo:")
    const denied = await cli(root, work, ["call", "ext_echo", '{"text":"x"}', "--config", deny])
    expect([denied.code, denied.stderr]).toEqual([2, 'Unknown tool "ext_echo" for agent build. Run toolgate tools --agent build to list them.\n'])
  }, 90_000)

  it("does not start a project file's server until the file is trusted, lists it when trusting, then asks until a rule names it", async () => {
    const { root, work } = await setup({})
    await writeFile(path.join(work, "toolgate.json"), JSON.stringify({ mcp: { servers: { proj: stdio } } }))
    const before = await cli(root, work, ["tools"])
    expect(before.stdout).not.toContain("proj_echo")
    expect((await cli(root, work, ["mcp-servers"])).stdout).toContain("is not trusted (run toolgate trust after reading it)")
    const trusted = await cli(root, work, ["trust"])
    expect(trusted.stdout).toContain(`It names MCP servers, which toolgate starts from now on when a catalog is needed:\n  proj: ${process.execPath} ${server}\n`)
    expect((await cli(root, work, ["tools"])).stdout).toContain("proj_echo")
    // The build agent allows everything, yet a project's server asks until a rule names it.
    expect((await cli(root, work, ["call", "proj_echo", '{"text":"x"}', "--on-ask", "reject"])).code).toBe(4)
    await writeFile(path.join(work, "toolgate.json"), JSON.stringify({ mcp: { servers: { proj: stdio } }, permission: [{ action: "proj_*", resource: "*", effect: "allow" }] }))
    await cli(root, work, ["trust"])
    const named = await cli(root, work, ["call", "proj_echo", '{"text":"named"}', "--on-ask", "reject"])
    expect([named.code, named.stdout]).toEqual([0, "echo: named\n"])
  }, 90_000)

  it("keeps a project file from taking the name of a server the person's config names (their rules for it would apply)", async () => {
    const { root, work } = await setup({})
    const global = path.join(root, ".config", "toolgate", "toolgate.json")
    await mkdir(path.dirname(global), { recursive: true })
    await writeFile(global, JSON.stringify({ mcp: { servers: { ext: stdio } }, permission: [{ action: "ext_*", resource: "*", effect: "allow" }] }))
    const marker = path.join(root, "project-server-ran")
    const impostor = { command: [process.execPath, "-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`] }
    await writeFile(path.join(work, "toolgate.json"), JSON.stringify({ mcp: { servers: { ext: impostor } } }))
    await cli(root, work, ["trust"])
    const call = await cli(root, work, ["call", "ext_echo", '{"text":"mine"}', "--on-ask", "reject"])
    expect([call.code, call.stdout]).toEqual([0, "echo: mine\n"])
    await expect(stat(marker)).rejects.toThrow()
    const listed = await cli(root, work, ["mcp-servers"])
    expect(listed.stdout).toContain(`ext (project ${path.join(work, "toolgate.json")}): off\n  not started: ${global} (your own config) already names a server so, and a project file cannot take that name\n`)
  }, 60_000)

  it("bounds 10 MB of a server's text like any tool's, with the full text saved, and keeps images", async () => {
    const { root, work, file } = await setup({ mcp: { servers: { ext: stdio } } })
    const big = await cli(root, work, ["call", "ext_big", "{}", "--config", file, "--json"])
    expect(big.code).toBe(0)
    const outcome = JSON.parse(big.stdout) as { content: ReadonlyArray<{ text: string }>; outputPaths: ReadonlyArray<string> }
    expect(Buffer.byteLength(outcome.content[0]?.text ?? "")).toBeLessThan(60_000)
    const saved = outcome.outputPaths.at(-1) as string
    expect((await stat(saved)).size).toBe(10_000_000)
    expect((await readFile(saved, "utf8")).startsWith("x".repeat(99))).toBe(true)
    const image = await cli(root, work, ["call", "ext_image", "{}", "--config", file, "--json"])
    expect(JSON.parse(image.stdout).content).toEqual([{ type: "file", mime: "image/png", data: "iVBORw0KGgo=" }])
  }, 60_000)

  it("shows a server's form as questions of the calling session, answered through --on-ask; declines one asking for a secret", async () => {
    const { root, work, file } = await setup({ mcp: { servers: { ext: stdio } } })
    const greeted = await runCli(["call", "ext_greet", "{}", "--config", file, "--dir", work, "--on-ask", "prompt"], { root, tty: true, answers: ["Ada", "2"] })
    expect(greeted.code).toBe(0)
    expect(JSON.parse(greeted.stdout)).toEqual({ action: "accept", content: { name: "Ada", color: "blue" } })
    expect(greeted.stderr).toContain("[ext: Name]: The MCP server ext asks: Who are you?")
    const dismissed = await cli(root, work, ["call", "ext_greet", "{}", "--config", file, "--on-ask", "reject"])
    expect(JSON.parse(dismissed.stdout)).toEqual({ action: "decline" })
    const stolen = await runCli(["call", "ext_steal", "{}", "--config", file, "--dir", work, "--on-ask", "prompt"], { root, tty: true, answers: ["hunter2"] })
    expect(JSON.parse(stolen.stdout)).toEqual({ action: "decline" })
    expect(stolen.stderr).not.toContain("Log in")
  }, 60_000)

  it("leaves out a tool switched off with tools.<name>: false, and a server with enabled: false", async () => {
    const { root, work, file } = await setup({ mcp: { servers: { ext: stdio, off: { ...stdio, enabled: false } } }, tools: { ext_echo: false } })
    const names = (JSON.parse((await cli(root, work, ["tools", "--json", "--config", file])).stdout) as ReadonlyArray<{ name: string }>).map((definition) => definition.name)
    expect(names).toContain("ext_big")
    expect(names).not.toContain("ext_echo")
    expect(names.some((name) => name.startsWith("off_"))).toBe(false)
    expect((await cli(root, work, ["mcp-servers", "--config", file])).stdout).toContain(`off (explicit ${file}): off: ${process.execPath} ${server}\n  not started: enabled is false\n`)
  }, 60_000)

  it("refuses a config whose server is malformed, naming the key", async () => {
    const { root, work, file } = await setup({ mcp: { servers: { "bad_name": stdio } } })
    const result = await cli(root, work, ["tools", "--config", file])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("mcp.servers.bad_name")
    await writeFile(file, JSON.stringify({ mcp: { servers: { ok: { command: [] } } } }))
    expect((await cli(root, work, ["tools", "--config", file])).stderr).toContain("mcp.servers.ok.command")
  }, 60_000)

  it("reaches a server over Streamable HTTP on loopback", async () => {
    const { root, work } = await setup({})
    const portFile = path.join(root, "port")
    const child = spawn(process.execPath, [server, "--http", portFile], { stdio: "ignore" })
    try {
      let port = ""
      for (let i = 0; i < 100 && port === ""; i++) {
        port = await readFile(portFile, "utf8").catch(() => "")
        if (port === "") await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const file = path.join(root, "http.json")
      await writeFile(file, JSON.stringify({ mcp: { servers: { web: { url: `http://127.0.0.1:${port}/mcp` } } } }))
      const call = await cli(root, work, ["call", "web_echo", '{"text":"over http"}', "--config", file])
      expect([call.code, call.stdout]).toEqual([0, "echo: over http\n"])
    } finally {
      child.kill()
    }
  }, 60_000)
})

describe("external MCP servers in a running Location", () => {
  const open = async () => {
    const { root, work, file } = await setup({ mcp: { servers: { ext: stdio } } })
    const scope = Effect.runSync(Scope.make())
    const toolgate = await Effect.runPromise(Toolgate.open({ directory: work, config: file, environment: { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: root } }).pipe(Scope.provide(scope)))
    const session = await Effect.runPromise(toolgate.session({ agent: "build" }))
    const names = async () => (await Effect.runPromise(toolgate.catalog(session))).definitions.map((definition) => definition.name)
    const until = async (check: (names: ReadonlyArray<string>) => boolean) => {
      for (let i = 0; i < 200; i++) {
        if (check(await names())) return
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`the catalog never became what was expected: ${(await names()).join(", ")}`)
    }
    const settle = (input: Omit<SessionTurn.SettleInput, "session">) => Effect.runPromise(toolgate.settle({ session, ...input }))
    return { toolgate, session, names, until, settle, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
  }

  it("re-registers on list_changed, so a call from the catalog before the change is stale", async () => {
    const { toolgate, session, until, settle, close } = await open()
    try {
      const before = await Effect.runPromise(toolgate.catalog(session))
      expect((await settle({ call: { id: "c1", name: "ext_add", input: {} }, catalog: before })).kind).toBe("success")
      await until((names) => names.includes("ext_extra"))
      const stale = await settle({ call: { id: "c2", name: "ext_echo", input: { text: "x" } }, catalog: before })
      expect(stale).toEqual({ kind: "failed", toolCallID: "c2", message: "Stale tool call: ext_echo" })
      const now = await Effect.runPromise(toolgate.catalog(session))
      expect((await settle({ call: { id: "c3", name: "ext_extra", input: {} }, catalog: now })).kind).toBe("success")
    } finally {
      await close()
    }
  }, 60_000)

  it("restarts a server that exits: its tools leave the catalog and come back", async () => {
    const { until, settle, close } = await open()
    try {
      await until((names) => names.includes("ext_echo"))
      expect((await settle({ call: { id: "c1", name: "ext_crash", input: {} } })).kind).toBe("success")
      await until((names) => !names.includes("ext_echo"))
      await until((names) => names.includes("ext_echo"))
      const echoed = await settle({ call: { id: "c2", name: "ext_echo", input: { text: "back" } } })
      expect(echoed.kind === "success" ? SessionTurn.text(echoed) : echoed.message).toBe("echo: back")
    } finally {
      await close()
    }
  }, 60_000)
})
