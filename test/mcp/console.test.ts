/**
 * `mcp.on_ask: "console"` end to end (issue 18): the built `toolgate mcp` over real stdio with the
 * SDK's client declaring no elicitation. Its stderr names the console (127.0.0.1, the token in the
 * fragment); over real HTTP with that token the ask the call waits on is listed and answered, and
 * the call ends as the person decided: once runs it, reject declines it, and nobody answering
 * within `mcp.ask_timeout` declines it naming the console. When mcp stops, so does the console.
 */
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { McpConsole } from "../../src/mcp/console.js"
import { McpSession } from "../../src/mcp/session.js"
import { PermissionRequest } from "../../src/permission/request.js"
import { McpCommand } from "../../src/cli/command/mcp.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { ConsoleUrl } from "../../src/server/console-url.js"
import { ServerWire } from "../../src/server/wire.js"
import { call, type Connection, connect, ERAS, eventually, sandbox, spawnRaw, rawInitialize, textOf } from "../lib/mcp-client.js"

const STOPPED = "The person stopped the agent: do not retry this call or work around it; wait for their instructions."

/** A sandbox whose config leaves asks to the console, with a file outside its working directory (reading it asks). */
const outside = async (askTimeout = 60_000) => {
  const box = await sandbox({ config: { mcp: { on_ask: "console", ask_timeout: askTimeout } } })
  const dir = path.join(box.root, "outside")
  await mkdir(dir)
  const file = path.join(dir, "note.txt")
  await writeFile(file, "outside note\n")
  return { box, file }
}

/** The console's address and token, from the line mcp printed. */
const consoleOf = async (stderr: () => string) => {
  const [before] = McpConsole.Messages.listening("\u0000").split("\u0000") as [string]
  const found = await eventually(() => stderr().split("\n").some((line) => line.startsWith(before)))
  expect(found, stderr()).toBe(true)
  const link = stderr().split("\n").find((line) => line.startsWith(before))?.slice(before.length) ?? ""
  const url = new URL(link)
  const token = new URLSearchParams(url.hash.slice(1)).get(ConsoleUrl.FRAGMENT_KEY) ?? ""
  return { link, origin: url.origin, token }
}

const api = async (origin: string, token: string, route: string, body?: unknown) => {
  const response = await fetch(`${origin}${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
}

/**
 * Calls `read` on the outside file, waits until its ask is pending in the console, and replies `reply`.
 * Given `progress`, it also waits for the client to have been told where to answer: a person who
 * answers before mcp got round to saying so was never waited for, and nothing is sent then.
 */
const answered = async (connection: Connection, file: string, reply: "once" | "reject", progress?: string[]) => {
  const { origin, token } = await consoleOf(connection.stderr)
  const session = connection.instructedSession ?? ""
  const result = call(connection, "read", { path: file }, { onprogress: (update) => void progress?.push(update.message ?? "") })
  let pending: ReadonlyArray<{ readonly id: string; readonly action: string }> = []
  expect(await eventually(async () => ((pending = (await api(origin, token, `/api/session/${session}/permission`)).body.data), pending.length === 1))).toBe(true)
  if (progress !== undefined) expect(await eventually(() => progress.length > 0)).toBe(true)
  expect(pending[0]?.action).toBe("external_directory")
  expect(await api(origin, token, `/api/session/${session}/permission/${pending[0]?.id}/reply`, { reply })).toEqual({ status: 204, body: undefined })
  return result
}

/** Connects to `/api/event` and reads its first frame (`server.connected`): later events are live ones. */
const subscribe = async (origin: string, token: string) => {
  const response = await fetch(`${origin}/api/event`, { headers: { authorization: `Bearer ${token}` } })
  const reader = (response.body ?? new ReadableStream<Uint8Array>()).getReader()
  const decoder = new TextDecoder()
  let text = ""
  const until = async (found: (text: string) => boolean) => {
    while (!found(text)) {
      const chunk = await reader.read()
      if (chunk.done) break
      text += decoder.decode(chunk.value, { stream: true })
    }
    return text
  }
  await until((read) => read.includes("\n\n"))
  return {
    /** Reads until a frame whose event is of `type` arrived; the frames read so far. */
    event: (type: string) => until((read) => read.includes(`"type":${JSON.stringify(type)}`)),
    close: () => reader.cancel(),
  }
}

/** Whether anything listens at `origin`. */
const listening = (origin: string) =>
  fetch(`${origin}/health`).then(
    () => true,
    () => false,
  )

describe("mcp.on_ask console", () => {
  for (const era of ERAS)
    it(`${era} era: a reply of once in the console runs the call; closing stdin stops the console`, async () => {
      const { box, file } = await outside()
      try {
        const connection = await connect(box, { era, elicit: false })
        const { link, origin } = await consoleOf(connection.stderr)
        expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
        expect(link).toMatch(new RegExp(`^${origin}/#token=[A-Za-z0-9_-]{43}$`))
        const events = await subscribe(origin, new URLSearchParams(new URL(link).hash.slice(1)).get(ConsoleUrl.FRAGMENT_KEY) ?? "")
        const asked = events.event(ServerWire.EVENT_NAMES["permission.asked"] ?? "")
        const progress: string[] = []
        const result = await answered(connection, file, "once", progress)
        // While it waited, the client (which asked for progress) was told where: the address without its token.
        expect(progress).toEqual([McpSession.Messages.waitingInConsole(`${origin}/`)])
        // The stream at /api/event carried the ask the call waited on.
        expect(await asked).toContain(`"sessionID":"${connection.instructedSession}"`)
        expect(result.isError).not.toBe(true)
        expect(textOf(result)).toContain("1: outside note")
        const pid = connection.transport.pid
        // The console page still connected to /api/event does not keep mcp (nor its listener) alive.
        await connection.close()
        expect(await eventually(async () => !(await listening(origin)))).toBe(true)
        await events.close().catch(() => undefined)
        expect(await eventually(() => { try { process.kill(pid ?? 0, 0); return false } catch { return true } })).toBe(true)
      } finally {
        await box.dispose()
      }
    }, 60_000)

  it("a reply of reject in the console declines the call", async () => {
    const { box, file } = await outside()
    try {
      const connection = await connect(box, { era: "modern", elicit: false })
      try {
        const result = await answered(connection, file, "reject")
        expect(result.isError).toBe(true)
        expect(textOf(result)).toBe([PermissionRequest.Messages.declined("external_directory"), STOPPED].join("\n"))
      } finally {
        await connection.close()
      }
    } finally {
      await box.dispose()
    }
  }, 60_000)

  it("an ask nobody answers within mcp.ask_timeout is declined, naming the console without its token", async () => {
    const timeout = 1_500
    const { box, file } = await outside(timeout)
    try {
      const connection = await connect(box, { era: "legacy", elicit: false })
      try {
        const { origin, token } = await consoleOf(connection.stderr)
        const result = await call(connection, "read", { path: file })
        expect(result.isError).toBe(true)
        const reason = McpSession.Messages.consoleUnanswered(timeout, ConsoleUrl.of(origin))
        expect(reason).toBe(`nobody answered in the toolgate console (${origin}/) within 2 s`)
        expect(textOf(result)).toBe([PermissionRequest.Messages.unanswered("external_directory", reason), STOPPED].join("\n"))
        expect(textOf(result)).not.toContain(token)
        expect((await api(origin, token, `/api/session/${connection.instructedSession}/permission`)).body.data).toEqual([])
      } finally {
        await connection.close()
      }
    } finally {
      await box.dispose()
    }
  }, 60_000)

  it("SIGINT stops mcp and its console, leaving no listener", async () => {
    const { box } = await outside()
    try {
      const raw = spawnRaw(box)
      await rawInitialize(raw)
      const { origin, token } = await consoleOf(raw.stderr)
      expect((await api(origin, token, "/api/session")).status).not.toBe(401)
      raw.child.kill("SIGINT")
      const exit = await raw.exited
      expect(exit).toEqual({ code: ExitCode.SIGNALLED.SIGINT, signal: null })
      expect(await listening(origin)).toBe(false)
    } finally {
      await box.dispose()
    }
  }, 60_000)

  it("inside a toolgate tool call starts no console and rejects, saying why", async () => {
    const { box, file } = await outside()
    try {
      const raw = spawnRaw({ ...box, env: { ...box.env, TOOLGATE_TOOL_CALL: "call_outer" } })
      await rawInitialize(raw)
      const read = await raw.request("tools/call", { name: "read", arguments: { path: file } })
      const result = read.result as { content: ReadonlyArray<{ text: string }>; isError?: boolean }
      expect(result.isError).toBe(true)
      expect(result.content[0]?.text).toContain("this MCP client cannot show approval forms (elicitation), so it was refused.")
      raw.child.stdin.end()
      expect(await raw.exited).toEqual({ code: 0, signal: null })
      const [before] = McpConsole.Messages.listening("\u0000").split("\u0000") as [string]
      expect(raw.stderr().split("\n").filter((line) => line.startsWith(before))).toEqual([])
      expect(raw.stderr().split("\n")).toContain(McpCommand.Messages.consoleInsideToolCall)
    } finally {
      await box.dispose()
    }
  }, 60_000)

  it("says what it prints verbatim", () => {
    expect(McpConsole.Messages.listening("http://127.0.0.1:1/#token=t")).toBe(
      "toolgate mcp: asks this client cannot show wait for a person in the toolgate console: http://127.0.0.1:1/#token=t",
    )
    expect(McpCommand.Messages.consoleInsideToolCall).toBe(
      'toolgate mcp: mcp.on_ask is "console", but inside a toolgate tool call the agent would read the console\'s token here: no console is started and asks are rejected',
    )
  })
})
