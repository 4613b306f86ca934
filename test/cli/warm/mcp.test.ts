/**
 * `toolgate mcp` handed to a waiting process (cli/warm/): the MCP SDK's own client over real stdio
 * talks to the caller, which relays the protocol's bytes both ways; the tools run in the waiting
 * process. The session is the waiting process's last command: the socket goes to a successor.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { Effect } from "effect"
import { BIN } from "../../lib/cli-project.js"
import { PARENT, SCRIPT, waitingProcesses, warmProject } from "../../lib/warm.js"

const text = (result: unknown) =>
  ((result as { content?: ReadonlyArray<{ type: string; text?: string }> }).content ?? []).map((part) => part.text ?? "").join("")

describe("toolgate mcp in a waiting process", () => {
  it.live(
    "serves the SDK's client over the caller's stdio, runs its tools there, and leaves a successor waiting",
    () =>
      Effect.gen(function* () {
        const { root, work, env, untilWaiting } = yield* warmProject({ "small.txt": "hello\n" })
        yield* untilWaiting()
        const [before] = yield* Effect.promise(() => waitingProcesses(root))
        const client = new Client({ name: "warm-test", version: "1.0.0" })
        const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--dir", work], cwd: work, env, stderr: "pipe" })
        yield* Effect.acquireRelease(
          Effect.promise(() => client.connect(transport)),
          () => Effect.promise(() => client.close()),
        )
        const listed = yield* Effect.promise(() => client.listTools())
        expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["read", "bash"]))
        const read = yield* Effect.promise(() => client.callTool({ name: "read", arguments: { path: "small.txt" } }))
        expect(text(read)).toContain("1: hello")
        const ran = yield* Effect.promise(() => client.callTool({ name: "bash", arguments: { command: PARENT, description: "which process" } }))
        expect(text(ran)).toContain(SCRIPT)
        yield* Effect.promise(() => client.close())
        // The session's waiting process gave its socket to a successor and ended with the session.
        yield* untilWaiting()
        const after = yield* Effect.promise(() => waitingProcesses(root))
        expect(after).not.toContain(before)
      }),
    120_000,
  )
})
