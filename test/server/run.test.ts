/**
 * The turn loop over HTTP (issue 19, item 5): `POST /api/session/:id/run` with the model of the
 * server's config, progress on `/api/event`, asks answered by the permission routes, and
 * `POST /api/session/:id/abort`. A real server on loopback, a model behind a local
 * OpenAI-compatible endpoint (test/lib/openai-server.ts), real files and bash.
 */
import { readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ServerRuns } from "../../src/server/runs.js"
import { modelServer, type Step } from "../lib/openai-server.js"
import { alive } from "../lib/process-group.js"
import { ASK_BASH, type Server, pendingOf, session, start } from "../lib/server.js"
import { type Frame, type Reader, connect } from "../lib/sse.js"

/** A server whose config runs the model at `baseURL` (none when undefined). */
const serving = (baseURL: string | undefined) =>
  start({
    config: ({ base }) => path.join(base, "serve.json"),
    setup: async ({ base }) => {
      await writeFile(path.join(base, "serve.json"), JSON.stringify(baseURL === undefined ? {} : { server: { model: { id: "local-model", base_url: baseURL } } }))
    },
  })

const events = (server: Server) => connect(`${server.url}/api/event`, { authorization: `Bearer ${server.token}` })

/** Frames until one of type `type` (included), skipping none. */
const until = (reader: Reader, type: string): Effect.Effect<ReadonlyArray<Frame>> =>
  Effect.gen(function* () {
    const seen: Array<Frame> = []
    for (;;) {
      const frame = yield* reader.next
      seen.push(frame)
      if (frame.data.type === type) return seen
    }
  })

const runOf = (server: Server, sessionID: string, prompt: string) => Effect.promise(() => server.api(`/api/session/${sessionID}/run`, { body: { prompt } }))

describe("POST /api/session/:id/run", () => {
  it.live("runs the configured model on the session; its asks wait for the permission routes; progress streams on /api/event", () =>
    Effect.gen(function* () {
      const script: ReadonlyArray<Step> = [
        { text: "Writing it.", calls: [{ id: "w1", name: "write", input: { path: "out.txt", content: "from the model\n" } }, { id: "b1", name: "bash", input: { command: "echo asked", description: "Say it" } }] },
        { text: "Done." },
      ]
      const model = yield* modelServer(script)
      const server = yield* serving(model.baseURL)
      const id = yield* session(server, { rules: ASK_BASH })
      const reader = yield* events(server)
      const started = yield* runOf(server, id, "Write the file")
      expect(started.status).toBe(202)
      expect(started.body).toEqual({ data: { sessionID: id, model: "local-model", maxSteps: 20 } })
      expect((yield* Effect.promise(() => server.api("/api/run"))).body).toEqual({ data: [id] })
      const [ask] = yield* pendingOf(server, id)
      expect(ask.action).toBe("bash")
      expect((yield* Effect.promise(() => server.api(`/api/session/${id}/permission/${ask.id}/reply`, { body: { reply: "once" } }))).status).toBe(204)
      const frames = yield* until(reader, "toolgate.run.finished")
      const run = frames.filter((frame) => frame.data.type.startsWith("toolgate.run.")).map((frame) => frame.data)
      const types = run.map((event) => event.type)
      expect([types[0], types.at(-1)]).toEqual(["toolgate.run.step", "toolgate.run.finished"])
      expect(["toolgate.run.step", "toolgate.run.call", "toolgate.run.outcome"].map((type) => types.filter((seen) => seen === type).length)).toEqual([2, 2, 2])
      const texts = run.filter((event) => event.type === "toolgate.run.text").map((event) => (event.data as { delta: string }).delta).join("")
      expect(texts).toBe("Writing it.Done.")
      // each call's outcome comes after it, and both before the second step
      // (by tool: the events name each call by toolgate's own id, which the records know, not the model's)
      const at = (type: string, tool: string) => run.findIndex((event) => event.type === type && (event.data as { tool?: string }).tool === tool)
      const second = types.lastIndexOf("toolgate.run.step")
      for (const tool of ["write", "bash"]) expect(at("toolgate.run.call", tool)).toBeLessThan(at("toolgate.run.outcome", tool))
      expect(Math.max(at("toolgate.run.outcome", "write"), at("toolgate.run.outcome", "bash"))).toBeLessThan(second)
      expect(run.at(-1)!.data).toEqual({ sessionID: id, reason: "done", steps: 2, usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } })
      const outcomes = run.filter((event) => event.type === "toolgate.run.outcome").map((event) => event.data as { tool: string; kind: string; text: string })
      expect(outcomes.map((outcome) => [outcome.tool, outcome.kind]).sort()).toEqual([["bash", "success"], ["write", "success"]])
      expect(outcomes.find((outcome) => outcome.tool === "bash")!.text).toContain("asked")
      expect(yield* Effect.promise(() => readFile(path.join(server.root, "out.txt"), "utf8"))).toBe("from the model\n")
      expect((yield* Effect.promise(() => server.api("/api/run"))).body).toEqual({ data: [] })
      // the next run continues the conversation: the model is sent the first run's messages
      yield* runOf(server, id, "And now?")
      yield* until(reader, "toolgate.run.finished")
      const roles = model.sent.at(-1)!.messages.map((message) => message.role)
      // (the chat-completions format sends one tool message per result)
      expect(roles).toEqual(["user", "assistant", "tool", "tool", "assistant", "user"])
    }),
  )

  it.live("abort stops the run: the running command's process is killed and run.aborted is sent; a second abort is 409", () =>
    Effect.gen(function* () {
      const model = yield* modelServer([{ calls: [{ id: "s1", name: "bash", input: { command: "echo $$ > pid; sleep 30", description: "Wait" } }] }])
      const server = yield* serving(model.baseURL)
      const id = yield* session(server, { rules: [{ action: "bash", resource: "*", effect: "allow" }] })
      const reader = yield* events(server)
      expect((yield* runOf(server, id, "wait")).status).toBe(202)
      const pid = yield* Effect.promise(async () => {
        for (;;) {
          const text = await readFile(path.join(server.root, "pid"), "utf8").catch(() => "")
          if (text.trim() !== "") return Number(text.trim())
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      })
      const busy = yield* runOf(server, id, "again")
      expect(busy.status).toBe(409)
      expect(busy.body).toEqual({ _tag: "SessionBusyError", message: ServerRuns.Messages.running(id), sessionID: id })
      expect((yield* Effect.promise(() => server.api(`/api/session/${id}/abort`, { method: "POST" }))).body).toEqual({ data: true })
      const frames = yield* until(reader, "toolgate.run.aborted")
      expect(frames.at(-1)!.data.data).toEqual({ sessionID: id })
      yield* Effect.promise(async () => {
        for (let turn = 0; turn < 250 && alive(pid); turn++) await new Promise((resolve) => setTimeout(resolve, 20))
      })
      expect(alive(pid)).toBe(false)
      const idle = yield* Effect.promise(() => server.api(`/api/session/${id}/abort`, { method: "POST" }))
      expect(idle.status).toBe(409)
      expect(idle.body).toEqual({ _tag: "SessionIdleError", message: ServerRuns.Messages.notRunning(id), sessionID: id })
    }),
  )

  it.live("a server without server.model answers 503 naming the setting; an unknown session is 404; a model that fails is run.failed", () =>
    Effect.gen(function* () {
      const bare = yield* serving(undefined)
      const id = yield* session(bare)
      const none = yield* runOf(bare, id, "hello")
      expect(none.status).toBe(503)
      expect(none.body).toEqual({ _tag: "NoModelError", message: ServerRuns.Messages.noModel })
      expect((yield* runOf(bare, "ses_nope", "hello")).status).toBe(404)
      expect((yield* Effect.promise(() => bare.api(`/api/session/${id}/run`, { body: { prompt: "" } }))).status).toBe(400)

      const model = yield* modelServer([{ garbage: true }])
      const server = yield* serving(model.baseURL)
      const other = yield* session(server)
      const reader = yield* events(server)
      expect((yield* runOf(server, other, "hello")).status).toBe(202)
      const frames = yield* until(reader, "toolgate.run.failed")
      expect((frames.at(-1)!.data.data as { message: string }).message).toMatch(/^The model failed: /)
    }),
  )
})
