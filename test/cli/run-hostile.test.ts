/**
 * `toolgate run` against a hostile model endpoint (the 2026-12-06 review of `mcp` and `run`): the
 * built CLI as a child process, a local endpoint on loopback that sends what a person must not
 * be shown raw (terminal escapes in its text and in an error body), nests tool input deeper than
 * anything walks, reuses tool call ids, or stalls its stream.
 */
import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Runner } from "../../src/ai/runner.js"
import { RunCommand } from "../../src/cli/command/run.js"
import { RunView } from "../../src/cli/run-view.js"
import { serve } from "../lib/http-server.js"
import { JsonDepth } from "../../src/json-depth.js"
import { Tool } from "../../src/tool/tool.js"
import { modelServer, toolResult } from "../lib/openai-server.js"
import { project as runProject } from "../lib/run-project.js"

const project = runProject()

/** What a terminal would act on: ESC, BEL and the C1 controls. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

describe("toolgate run against a hostile endpoint", () => {
  it.live("the model's text reaches the terminal escaped: it cannot hide the ask that follows, write the clipboard or redraw the screen", () =>
    Effect.gen(function* () {
      const { work, run } = yield* project
      // SGR 8 (conceal) would hide the ask below it; OSC 52 writes the clipboard; CSI 2J clears.
      const text = "I will run a harmless command.\u001b[8m\n\u001b]52;c;cm0gLXJmIH4K\u0007\u001b[2J\tdone\u202e"
      const model = yield* modelServer([{ text, calls: [{ id: "b1", name: "bash", input: { command: "echo pwned > pwned.txt", description: "x" } }] }])
      const ran = yield* run(["run", "hello", "--model", "m", "--base-url", model.baseURL])
      expect(ran.code).toBe(4)
      expect(existsSync(path.join(work, "pwned.txt"))).toBe(false)
      expect(ran.stdout).not.toMatch(CONTROLS)
      expect(ran.stdout).toBe("I will run a harmless command.\\u001b[8m\n\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u001b[2J\tdone\\u202e\n")
      expect(ran.stderr).not.toMatch(CONTROLS)
    }),
  )

  it.live("an endpoint's error body is shown escaped and cut: one short line, no escape reaches the terminal", () =>
    Effect.gen(function* () {
      const { run } = yield* project
      const body = JSON.stringify({ error: { message: `bad\u001b]52;c;cm0gLXJmIH4K\u0007\u001b[2J${"A".repeat(200_000)}` } })
      const server = yield* serve((_request, response) => {
        response.writeHead(400, { "content-type": "application/json" })
        response.end(body)
      })
      const ran = yield* run(["run", "hello", "--model", "m", "--base-url", server.url("/v1")])
      expect(ran.code).toBe(1)
      expect(ran.stderr).not.toMatch(CONTROLS)
      const [first] = ran.stderr.split("\n")
      expect(first).toMatch(/^The model failed: bad\\u001b\]52;c;cm0gLXJmIH4K\\u0007\\u001b\[2JA+… \(model m at http:\/\/127\.0\.0\.1:\d+\/v1\)$/)
      expect(first!.length).toBeLessThan(Runner.MAX_DETAIL + 200)
    }),
  )
})

describe("toolgate run: an endpoint that stalls", () => {
  it.live("a stream that stops mid-chunk fails the run after --idle-timeout, keeping the text already sent", () =>
    Effect.gen(function* () {
      const { run } = yield* project
      const server = yield* serve((_request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" })
        response.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "thinking" }, finish_reason: null }] })}\n\n`)
        // half a chunk, then nothing, the connection left open
        response.write('data: {"id":"c","object":"chat.comp')
      })
      const started = Date.now()
      const ran = yield* run(["run", "hello", "--model", "m", "--base-url", server.url("/v1"), "--idle-timeout", "2"])
      expect(Date.now() - started).toBeLessThan(20_000)
      expect(ran.code).toBe(1)
      expect(ran.stdout).toBe("thinking\n")
      expect(ran.stderr.split("\n")[0]).toBe(RunCommand.Messages.modelFailed(Runner.Messages.model(Runner.Messages.stalled(2_000)), server.url("/v1"), "m"))
    }),
  )

  it.live("a stream of text without end fails the step past its bound, and the endpoint is let go", () =>
    Effect.gen(function* () {
      const { run } = yield* project
      let closed = false
      const piece = "x".repeat(64 * 1024)
      const server = yield* serve((_request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" })
        response.once("close", () => (closed = true))
        const more = () => {
          if (response.destroyed) return
          response.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`, () => setImmediate(more))
        }
        more()
      })
      const ran = yield* run(["run", "hello", "--model", "m", "--base-url", server.url("/v1")])
      expect(ran.code).toBe(1)
      expect(ran.stderr.split("\n")[0]).toBe(RunCommand.Messages.modelFailed(Runner.Messages.model(Runner.Messages.tooLong(Runner.MAX_STEP_CHARACTERS)), server.url("/v1"), "m"))
      expect(Runner.Messages.tooLong(1024)).toBe("the endpoint sent more than 1,024 characters in one step")
      // What was shown before the bound is the model's text, no more than the bound.
      expect(ran.stdout.length).toBeLessThanOrEqual(Runner.MAX_STEP_CHARACTERS + 1)
      expect(yield* Effect.promise(async () => { for (let tries = 0; tries < 50 && !closed; tries++) await new Promise((resolve) => setTimeout(resolve, 100)); return closed })).toBe(true)
    }),
  )

  it.live("--idle-timeout takes whole seconds from 1 to a day", () =>
    Effect.gen(function* () {
      const { run } = yield* project
      for (const value of ["0", "1.5", "x", "86401"]) {
        const ran = yield* run(["run", "hello", "--model", "m", "--idle-timeout", value])
        expect([ran.code, ran.stderr]).toEqual([2, `${RunCommand.Messages.invalidIdleTimeout(value)}\n`])
      }
    }),
  )
})

describe("toolgate run: the model's tool calls", () => {
  it.live("input nested deeper than JsonDepth.MAX is an invalid input the model reads: nothing runs", () =>
    Effect.gen(function* () {
      const { work, run } = yield* project
      let deep: unknown = []
      for (let index = 0; index < JsonDepth.MAX + 100; index++) deep = [deep]
      const model = yield* modelServer([{ calls: [{ id: "b1", name: "bash", input: { command: "echo ran > ran.txt", description: "d", x: deep } }] }, { text: "ok" }])
      const ran = yield* run(["run", "hello", "--model", "m", "--base-url", model.baseURL, "--on-ask", "once"])
      expect(ran.code).toBe(0)
      expect(existsSync(path.join(work, "ran.txt"))).toBe(false)
      expect(toolResult(model.sent[1]!, "b1")).toContain(Tool.Messages.invalidInput(JsonDepth.Messages.tooDeep))
    }),
  )
})

describe("RunView.modelText", () => {
  it("escapes what does not show as itself and keeps tabs", () => {
    expect(RunView.modelText("a\tb\u001b[8mc\u0085")).toBe("a\tb\\u001b[8mc\\u0085")
  })
})
