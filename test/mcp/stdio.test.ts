/**
 * `toolgate mcp` over stdio, end to end, in both protocol eras: the catalog a client lists is the
 * one `toolgate tools --json` prints, the instructions name the session, a read in the working
 * directory succeeds with text and structured content, and stdout carries nothing but JSON-RPC.
 */
import { describe, expect, it } from "vitest"
import { call, connect, ERAS, rawInitialize, sandbox, sessionOf, spawnRaw, textOf, toolgate, withConnection } from "../lib/mcp-client.js"

interface Listed {
  readonly name: string
  readonly description?: string
  readonly inputSchema: unknown
  readonly outputSchema?: Readonly<Record<string, unknown>>
}

/** What a 2025-era client sees for an output schema: a non-object root is wrapped in `result`. */
const legacySchema = (schema: Readonly<Record<string, unknown>> | undefined) =>
  schema === undefined || schema.type === "object" ? schema : { type: "object", properties: { result: schema }, required: ["result"] }

describe("toolgate mcp on stdio", () => {
  for (const era of ERAS) {
    describe(`${era} era`, () => {
      it("lists the built-in tools sorted by name with the schemas `toolgate tools --json` prints", async () => {
        const box = await sandbox()
        try {
          const printed = await toolgate(box, ["tools", "--json", "--dir", box.work])
          expect(printed.code).toBe(0)
          const expected = JSON.parse(printed.stdout) as ReadonlyArray<Listed>
          expect(expected.length).toBeGreaterThan(5)
          await withConnection(box, { era }, async (connection) => {
            const { tools } = await connection.client.listTools()
            const names = tools.map((tool) => tool.name)
            expect(names).toEqual([...names].sort())
            expect(names).toEqual(expected.map((tool) => tool.name))
            expect(names).toEqual(expect.arrayContaining(["bash", "edit", "read", "write"]))
            for (const tool of expected) {
              const listed = tools.find((item) => item.name === tool.name)
              expect(listed?.description, tool.name).toBe(tool.description)
              expect(listed?.inputSchema, tool.name).toEqual(tool.inputSchema)
              expect(listed?.outputSchema, tool.name).toEqual(era === "legacy" ? legacySchema(tool.outputSchema) : tool.outputSchema)
            }
          })
        } finally {
          await box.dispose()
        }
      }, 60_000)

      it("names its session in the instructions, and a read in the working directory runs in that session", async () => {
        const box = await sandbox({ files: { "a.txt": "hello\nworld\n" } })
        try {
          await withConnection(box, { era }, async (connection) => {
            expect(connection.instructions).toContain(box.work)
            expect(connection.instructedSession).toMatch(/^ses_/)
            const result = await call(connection, "read", { path: "a.txt" })
            expect(result.isError).not.toBe(true)
            expect(textOf(result)).toContain("1: hello")
            expect(textOf(result)).toContain("2: world")
            const structured = (era === "legacy" ? (result.structuredContent as { result: unknown }).result : result.structuredContent) as Record<string, unknown>
            expect(structured).toMatchObject({ kind: "text", path: "a.txt" })
            expect(structured.content).toBe(textOf(result))
            expect(result._meta?.["toolgate/messageID"]).toMatch(/^msg_/)
            expect(connection.elicitations).toEqual([])
            // The session the calls run in is the one the instructions name.
            expect(sessionOf(result)).toMatch(/^ses_/)
            expect(sessionOf(result)).toBe(connection.instructedSession)
          })
        } finally {
          await box.dispose()
        }
      }, 60_000)

      it("records each call under a new message in the same session", async () => {
        const box = await sandbox({ files: { "a.txt": "hello\n" } })
        try {
          await withConnection(box, { era }, async (connection) => {
            const first = await call(connection, "read", { path: "a.txt" })
            const second = await call(connection, "read", { path: "a.txt" })
            expect(sessionOf(second)).toBe(sessionOf(first))
            expect(second._meta?.["toolgate/messageID"]).not.toBe(first._meta?.["toolgate/messageID"])
          })
          // A new connection is a new session.
          const other = await connect(box, { era })
          try {
            const third = await call(other, "read", { path: "a.txt" })
            expect(sessionOf(third)).toMatch(/^ses_/)
            expect(other.instructedSession).not.toBeUndefined()
          } finally {
            await other.close()
          }
        } finally {
          await box.dispose()
        }
      }, 60_000)
    })
  }

  it("writes nothing but JSON-RPC to stdout through a whole 2025 session", async () => {
    const box = await sandbox({ files: { "a.txt": "hello\n" } })
    try {
      const raw = spawnRaw(box)
      const init = await rawInitialize(raw)
      expect(init).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "toolgate" } } })
      const list = await raw.request("tools/list", {})
      expect((list.result as { tools: ReadonlyArray<{ name: string }> }).tools.map((tool) => tool.name)).toContain("read")
      const read = await raw.request("tools/call", { name: "read", arguments: { path: "a.txt" } })
      const result = read.result as { content: ReadonlyArray<{ text: string }>; isError?: boolean }
      expect(result.isError).not.toBe(true)
      expect(result.content[0]?.text).toContain("1: hello")
      // A call that fails inside the tool, and one for a tool that does not exist, print nothing else either.
      await raw.request("tools/call", { name: "read", arguments: { path: "missing.txt" } })
      await raw.request("tools/call", { name: "no_such_tool", arguments: {} })
      raw.child.stdin.end()
      const exit = await raw.exited
      expect(exit).toEqual({ code: 0, signal: null })
      expect(raw.lines.length).toBeGreaterThanOrEqual(5)
      for (const line of raw.lines) {
        let parsed: unknown
        expect(() => (parsed = JSON.parse(line)), line).not.toThrow()
        expect(parsed, line).toMatchObject({ jsonrpc: "2.0" })
      }
      expect(raw.stderr()).toContain("toolgate mcp: serving session")
    } finally {
      await box.dispose()
    }
  }, 60_000)
})
