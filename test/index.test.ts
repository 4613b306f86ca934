/**
 * The package as a user installs it: `import { Tool } from "toolgate"` resolves through
 * package.json `exports` to the built `dist/` (npm test builds it first), in a real Node process.
 */
import { spawnSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

const script = `
import { Effect, Schema } from "effect"
import { Tool, ToolRegistry, ToolOutputStore, Config, tools } from "toolgate"
const echo = Tool.make({
  description: "Echo.",
  input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }),
  output: Schema.String,
  execute: ({ text }) => Effect.succeed(text),
})
const settled = await Effect.runPromise(Tool.settle(echo, { id: "c", name: "echo", input: { text: "ok" } }, { sessionID: "s", agent: "build", assistantMessageID: "m", toolCallID: "c" }))
console.log(JSON.stringify([settled.content, typeof tools.register, ToolRegistry.Messages.unknownTool("x"), ToolOutputStore.MAX_LINES, Config.DEFAULT_AGENT]))
`

describe("package exports", () => {
  it("lets a user import the public namespaces from the package name", () => {
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" })
    expect(result.stderr).toBe("")
    expect(JSON.parse(result.stdout)).toEqual([[{ type: "text", text: "ok" }], "function", "Unknown tool: x", 2_000, "build"])
  })
})
