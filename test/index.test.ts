/**
 * The package as a user installs it: `import { Tool } from "toolgate"` resolves through
 * package.json `exports` to the built `dist/` (npm test builds it first), in a real Node process.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { ExitCode } from "../src/cli/exit-code.js"
import { Lookup } from "../src/cli/lookup.js"
import { OWN_PROCESS } from "./lib/own-process.js"

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

  it("maps the toolgate executable to a built file that runs the CLI", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { bin: Record<string, string> }
    const home = mkdtempSync(path.join(os.tmpdir(), "toolgate-bin-"))
    try {
      const result = spawnSync(process.execPath, [path.join(root, manifest.bin.toolgate as string), "tools", "--agent", "nobody"], {
        cwd: home,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(home, "data"), ...OWN_PROCESS },
      })
      const unknown = Lookup.Messages.unknown("agent", "nobody", realpathSync(home), ["build", "plan"])
      expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ status: ExitCode.USAGE, stdout: "", stderr: `${unknown}\n` })
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
