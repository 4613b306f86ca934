/**
 * `toolgate run` (issue 19, item 4) end to end: the built CLI as a child process, a model behind
 * a local OpenAI-compatible endpoint on loopback (test/lib/openai-server.ts) reached through
 * `@ai-sdk/openai-compatible`, real files, bash and database. Asks are answered by `--on-ask`.
 */
import { createServer } from "node:net"
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { RunCommand } from "../../src/cli/command/run.js"
import { RunView } from "../../src/cli/run-view.js"
import { modelServer, toolResult } from "../lib/openai-server.js"
import { alive } from "../lib/process-group.js"
import { project as runProject } from "../lib/run-project.js"

const project = runProject({ "notes.txt": "first line\n" })

const sessionOf = (stderr: string) => /Session (ses_\w+):/.exec(stderr)?.[1] ?? ""

/** A port nothing listens on: bound, then closed. */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const probe = createServer()
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    }),
)

const TODOS = { todos: [{ content: "Read the notes", status: "completed" }, { content: "Write the summary", status: "in_progress" }] }

describe("toolgate run", () => {
  it.live("streams the model's text, shows each call on one line and the todo list, asks through --on-ask, and names the session at the end", () =>
    Effect.gen(function* () {
      const { work, run } = yield* project
      const model = yield* modelServer([
        { text: "Looking at the notes.", calls: [{ id: "r1", name: "read", input: { path: "notes.txt" } }, { id: "w1", name: "write", input: { path: "out.txt", content: "summary\n" } }] },
        { calls: [{ id: "b1", name: "bash", input: { command: "echo hello", description: "Say hello" } }, { id: "t1", name: "todowrite", input: TODOS }] },
        { text: "All done." },
      ])
      const ran = yield* run(["run", "Summarise the notes", "--model", "local-model", "--base-url", model.baseURL, "--on-ask", "once"])
      expect(ran.stderr).not.toContain("    at ")
      expect(ran.code).toBe(0)
      expect(ran.stdout).toBe("Looking at the notes.\nAll done.\n")
      const lines = ran.stderr.split("\n")
      expect(lines).toContain("• read notes.txt → ok")
      expect(lines).toContain("• write out.txt → ok")
      expect(lines).toContain("• bash echo hello → ok")
      expect(lines).toContain(RunView.Messages.todo)
      expect(lines).toContain("[x] Read the notes")
      const session = sessionOf(ran.stderr)
      expect(lines).toContain(RunView.Messages.finished("done", 3, 45, session))
      expect(yield* Effect.promise(() => readFile(path.join(work, "out.txt"), "utf8"))).toBe("summary\n")
      // what the endpoint was sent: the prompt, the catalog, then each result in call order
      expect(model.sent.map((sent) => sent.model)).toEqual(["local-model", "local-model", "local-model"])
      expect(model.sent[0]!.messages.at(-1)).toEqual({ role: "user", content: "Summarise the notes" })
      expect(model.sent[0]!.tools?.map((entry) => entry.function.name)).toContain("read")
      expect(toolResult(model.sent[1]!, "r1")).toContain("first line")
      expect(toolResult(model.sent[2]!, "b1")).toContain("hello")
    }),
  )

  it.live("without a terminal an ask is rejected: the run stops with exit 4 and the model is not called again", () =>
    Effect.gen(function* () {
      const { work, run } = yield* project
      const model = yield* modelServer([{ calls: [{ id: "b1", name: "bash", input: { command: "echo hello > said.txt", description: "Say hello" } }] }, { text: "not reached" }])
      const ran = yield* run(["run", "Say hello", "--model", "m", "--base-url", model.baseURL])
      expect(ran.code).toBe(4)
      expect(model.sent).toHaveLength(1)
      expect(existsSync(path.join(work, "said.txt"))).toBe(false)
      expect(ran.stderr.split("\n")).toContain(RunView.Messages.finished("declined", 1, 15, sessionOf(ran.stderr)))
    }),
  )

  it.live("with --json each event is a JSON line; session revert to a step's message puts the files back", () =>
    Effect.gen(function* () {
      const { work, run } = yield* project
      const model = yield* modelServer([
        { calls: [{ id: "w1", name: "write", input: { path: "notes.txt", content: "rewritten\n" } }] },
        { calls: [{ id: "w2", name: "write", input: { path: "added.txt", content: "new\n" } }] },
        { text: "ok" },
      ])
      const ran = yield* run(["run", "Rewrite", "--model", "m", "--base-url", model.baseURL, "--json"])
      expect(ran.code).toBe(0)
      const events = ran.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; messageID?: string; session?: string; reason?: string })
      const steps = events.filter((event) => event.type === "step").map((event) => event.messageID!)
      expect(steps).toHaveLength(3)
      const result = events.at(-1)!
      expect(result).toMatchObject({ type: "result", reason: "done", steps: 3, usage: { totalTokens: 45 } })
      const reverted = yield* run(["session", "revert", result.session!, steps[0]!])
      expect(reverted.code).toBe(0)
      expect(yield* Effect.promise(() => readFile(path.join(work, "notes.txt"), "utf8"))).toBe("first line\n")
      expect(existsSync(path.join(work, "added.txt"))).toBe(false)
    }),
  )

  it.live("an endpoint that is down, or that answers garbage, is one clear line and exit 1, with the session named", () =>
    Effect.gen(function* () {
      const { run } = yield* project
      const port = yield* closedPort
      const down = yield* run(["run", "hello", "--model", "m", "--base-url", `http://127.0.0.1:${port}/v1`])
      expect(down.code).toBe(1)
      expect(down.stderr).not.toContain("    at ")
      const downLines = down.stderr.trim().split("\n")
      expect(downLines).toHaveLength(2)
      expect(downLines[0]).toMatch(/^The model failed: .*(connect|ECONNREFUSED)/i)
      expect(downLines[0]).toContain(`(model m at http://127.0.0.1:${port}/v1)`)
      expect(downLines[1]).toBe(RunView.Messages.session(sessionOf(down.stderr)))

      const model = yield* modelServer([{ garbage: true }])
      const garbage = yield* run(["run", "hello", "--model", "m", "--base-url", model.baseURL])
      expect(garbage.code).toBe(1)
      expect(garbage.stderr).not.toContain("    at ")
      expect(garbage.stderr.trim().split("\n")[0]).toMatch(/^The model failed: /)
    }),
  )

  it.live("usage errors are exit 2 with the exact message, before any model is called", () =>
    Effect.gen(function* () {
      const { run } = yield* project
      const noModel = yield* run(["run", "hello"])
      expect([noModel.code, noModel.stderr]).toEqual([2, `${RunCommand.Messages.missingModel}\n`])
      const noPrompt = yield* run(["run", "--model", "m"])
      expect([noPrompt.code, noPrompt.stderr]).toEqual([2, `${RunCommand.Messages.missingPrompt}\n`])
      const steps = yield* run(["run", "hello", "--model", "m", "--max-steps", "0"])
      expect([steps.code, steps.stderr]).toEqual([2, `${RunCommand.Messages.invalidMaxSteps("0")}\n`])
      const url = yield* run(["run", "hello", "--model", "m", "--base-url", "localhost:11434"])
      expect([url.code, url.stderr]).toEqual([2, `${RunCommand.Messages.invalidBaseUrl("localhost:11434")}\n`])
      const key = yield* run(["run", "hello", "--model", "m", "--api-key-env", "NO_SUCH_KEY_VARIABLE"])
      expect([key.code, key.stderr]).toEqual([2, `${RunCommand.Messages.missingApiKey("NO_SUCH_KEY_VARIABLE")}\n`])
    }),
  )

  it.live("Ctrl-C stops the run: the running command's process is killed and the exit code is 130", () =>
    Effect.gen(function* () {
      const { work, run } = yield* project
      const model = yield* modelServer([{ calls: [{ id: "s1", name: "bash", input: { command: "echo $$ > pid; sleep 30", description: "Wait" } }] }])
      const pidFile = path.join(work, "pid")
      const ran = yield* run(["run", "wait", "--model", "m", "--base-url", model.baseURL, "--on-ask", "once"], {}, (child) => {
        const poll = setInterval(() => {
          void readFile(pidFile, "utf8").then((text) => {
            if (text.trim() === "") return
            clearInterval(poll)
            child.kill("SIGINT")
          }, () => undefined)
        }, 20)
        child.once("close", () => clearInterval(poll))
      })
      expect(ran.code).toBe(130)
      const pid = Number((yield* Effect.promise(() => readFile(pidFile, "utf8"))).trim())
      yield* Effect.promise(async () => {
        for (let turn = 0; turn < 250 && alive(pid); turn++) await new Promise((resolve) => setTimeout(resolve, 20))
      })
      expect(alive(pid)).toBe(false)
    }),
  )
})
