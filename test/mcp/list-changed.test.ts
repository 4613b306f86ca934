/**
 * tools/list_changed when a registration changes the Location's catalog, over the SDK's real
 * client and server connected in process (a registration needs code in the serving process; the
 * stdio tests spawn the built CLI for everything else).
 */
import { Effect, Schema, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { Tool } from "../../src/tool/tool.js"
import { connect, ERAS, textOf } from "../lib/mcp-in-process.js"

const echo = Tool.make({
  description: "Echo the text back.",
  input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }),
  output: Schema.String,
  execute: ({ text }) => Effect.succeed(text),
})

describe("toolgate mcp: tools/list_changed", () => {
  for (const [name, era] of ERAS) {
    it(`notifies a ${name} client when a tool is registered in the Location, and lists it`, async () => {
      const { client, toolgate, scope, close } = await connect({ era })
      try {
        const changed = new Promise<void>((resolve) => client.setNotificationHandler("notifications/tools/list_changed", () => resolve()))
        if (name === "2026-07-28 era") await client.listen({ toolsListChanged: true })
        const before = (await client.listTools()).tools.map((tool) => tool.name)
        expect(before).not.toContain("echo")
        await Effect.runPromise(toolgate.register({ echo }).pipe(Scope.provide(scope)))
        await changed
        const after = (await client.listTools()).tools.map((tool) => tool.name)
        expect(after).toEqual([...before, "echo"].sort())
        const result = await client.callTool({ name: "echo", arguments: { text: "hello" } })
        expect(textOf(result)).toBe("hello")
      } finally {
        await close()
      }
    }, 30_000)
  }
})
