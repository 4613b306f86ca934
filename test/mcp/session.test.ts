/** What one MCP session does with asks, in both protocol eras: cascade on decline, questions as forms, the ask timeout. */
import { describe, expect, it } from "vitest"
import { McpSession } from "../../src/mcp/session.js"
import { Tool } from "../../src/tool/tool.js"
import { connect, ERAS, textOf } from "../lib/mcp-in-process.js"

const askBash = { permission: [{ action: "bash", resource: "*", effect: "ask" }] }
const stop = "The person stopped the agent: do not retry this call or work around it; wait for their instructions."

describe("toolgate mcp: calls the model can correct", () => {
  for (const [name, era] of ERAS) {
    it(`${name}: invalid arguments and an unknown tool are error results with toolgate's text, not protocol errors`, async () => {
      const { client, close } = await connect({ era })
      try {
        const invalid = await client.callTool({ name: "read", arguments: { path: 42 } })
        expect(invalid.isError).toBe(true)
        expect(textOf(invalid)).toBe(Tool.Messages.invalidInput(`Expected string\n  at ["path"]`))
        const unknown = await client.callTool({ name: "nope", arguments: {} })
        expect(unknown.isError).toBe(true)
        expect(textOf(unknown)).toContain("nope")
      } finally {
        await close()
      }
    }, 30_000)
  }
})

describe("toolgate mcp: a session's asks", () => {
  for (const [name, era] of ERAS) {
    it(`${name}: declining one ask declines the session's other pending ask, and neither command runs`, async () => {
      const messages: Array<string> = []
      let release: () => void = () => undefined
      const bothAsked = new Promise<void>((resolve) => {
        release = resolve
      })
      const { client, close, work } = await connect({
        era,
        config: askBash,
        elicit: async ({ message }) => {
          messages.push(message)
          if (messages.length === 2) release()
          await bothAsked
          // The first form shown is declined; the other is answered after it, too late.
          return messages.indexOf(message) === 0 ? { action: "decline" } : { action: "accept", content: { decision: "once" } }
        },
      })
      try {
        const call = (file: string) => client.callTool({ name: "bash", arguments: { command: `touch ${file}`, description: `Create ${file}` } })
        const results = await Promise.all([call("one"), call("two")])
        expect(results.map((result) => result.isError)).toEqual([true, true])
        for (const result of results) expect(textOf(result)).toContain(stop)
        expect(messages.some((message) => message.includes("Command: touch one"))).toBe(true)
        expect(messages.some((message) => message.includes("Command: touch two"))).toBe(true)
        const { readdir } = await import("node:fs/promises")
        expect(await readdir(work)).toEqual([])
      } finally {
        await close()
      }
    }, 30_000)

    it(`${name}: the question tool asks through a form and the model reads the answers`, async () => {
      const schemas: Array<unknown> = []
      const { client, close } = await connect({
        era,
        elicit: async ({ message, requestedSchema }) => {
          schemas.push(requestedSchema)
          // The permission ask for the question tool itself comes first when it asks; questions follow.
          const content: Record<string, string> = message.startsWith("toolgate: the agent asks") ? { q1: "SQLite", q1_own: "" } : { decision: "once" }
          return { action: "accept", content }
        },
      })
      try {
        const result = await client.callTool({
          name: "question",
          arguments: { questions: [{ question: "Which database?", header: "Database", options: [{ label: "Postgres", description: "A server" }, { label: "SQLite", description: "A file" }] }] },
        })
        expect(result.isError).not.toBe(true)
        expect(textOf(result)).toContain("SQLite")
        expect(result.structuredContent).toEqual({ answers: [["SQLite"]] })
        expect(schemas).toContainEqual(expect.objectContaining({ properties: expect.objectContaining({ q1: expect.objectContaining({ oneOf: [{ const: "Postgres", title: "Postgres" }, { const: "SQLite", title: "SQLite" }] }) }) }))
      } finally {
        await close()
      }
    }, 30_000)

    it(`${name}: an ask nobody answers within mcp.ask_timeout ends as a reject saying so`, async () => {
      let answer: () => void = () => undefined
      const { client, close, work } = await connect({
        era,
        config: { ...askBash, mcp: { ask_timeout: 300 } },
        elicit: () =>
          new Promise((resolve) => {
            answer = () => resolve({ action: "accept", content: { decision: "once" } })
            // Answered long after the timeout, if at all.
            setTimeout(answer, 1_500)
          }),
      })
      try {
        const result = await client.callTool({ name: "bash", arguments: { command: "touch late", description: "Create late" } })
        expect(result.isError).toBe(true)
        expect(textOf(result)).toContain(`Permission request for bash ended unanswered: ${McpSession.Messages.unanswered(300)}`)
        const { readdir } = await import("node:fs/promises")
        expect(await readdir(work)).toEqual([])
      } finally {
        await close()
      }
    }, 30_000)
  }
})
