/**
 * The turn loop (issue 19, item 3) with the AI SDK's own mock model: a real Location, database,
 * gate, tools and bash; the model is the only thing scripted. Each test reads what the model was
 * shown on its next call, so "the model reads X" is checked where the model reads it.
 */
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Schema } from "effect"
import { Runner } from "../../src/ai/runner.js"
import { CallLog } from "../../src/session/call-log.js"
import { Answerer } from "../../src/interaction/answerer.js"
import { InteractionStore } from "../../src/interaction/store.js"
import type { PermissionRequest } from "../../src/permission/request.js"
import { History } from "../../src/snapshot/history.js"
import { Tool } from "../../src/tool/tool.js"
import { alive } from "../lib/process-group.js"
import { STEP_USAGE, resultsShown, scripted, toolsShown, type Step } from "../lib/model.js"
import { openToolgate } from "../lib/toolgate-open.js"

const RULES = [
  { action: "bash", resource: "curl *", effect: "ask" },
  { action: "bash", resource: "rm *", effect: "deny" },
]

const echo = (prefix: string) =>
  Tool.make({ description: "Echo.", input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }), output: Schema.String, execute: ({ text }) => Effect.succeed(`${prefix}${text}`) })

/** A handle on a fresh directory with RULES and an `echo` tool, and a session in it. */
const opened = Effect.gen(function* () {
  const { toolgate, work } = yield* openToolgate(RULES, { files: { "notes.txt": "first line\n" } })
  yield* toolgate.register({ echo: echo("") })
  return { toolgate, work, session: yield* toolgate.session({ agent: "build" }) }
})

type Opened = Effect.Success<typeof opened>

/** Runs the loop in the Location, with `answer` (if any) answering the session's asks. */
const run = (
  { toolgate, session }: Opened,
  model: Runner.Model,
  options: { readonly maxSteps?: number; readonly answer?: (request: PermissionRequest.Request) => PermissionRequest.Answer; readonly events?: Array<Runner.Event> } = {},
) =>
  toolgate.run(
    Effect.gen(function* () {
      if (options.answer !== undefined) {
        const answer = options.answer
        yield* (yield* InteractionStore.Service).attach(Answerer.make({ permission: (request) => Effect.succeed(answer(request)) }), session.id)
      }
      return yield* Runner.loop({
        session,
        model,
        messages: [{ role: "user", content: "go" }],
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        ...(options.events === undefined ? {} : { onEvent: (event) => options.events!.push(event) }),
      })
    }),
  )

const bash = (command: string) => ({ name: "bash", input: { command, description: "run it" } })

describe("Runner.loop", () => {
  it.live("runs steps until the model answers without calls, results in call order, usage summed", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const { model, calls } = scripted([
        { text: "Reading.", calls: [{ id: "r1", name: "read", input: { path: "notes.txt" } }, { id: "e1", name: "echo", input: { text: "one" } }] },
        { calls: [{ id: "w1", name: "write", input: { path: "out.txt", content: "written\n" } }] },
        { text: "All done." },
      ])
      const events: Array<Runner.Event> = []
      const result = yield* run(opened_, model, { events })
      expect(result.reason).toBe("done")
      expect(result.steps).toBe(3)
      expect(calls).toHaveLength(3)
      expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 15, totalTokens: 45 })
      expect(yield* Effect.promise(() => readFile(path.join(opened_.work, "out.txt"), "utf8"))).toBe("written\n")
      // the second call saw both results of the first step, in call order
      const shown = resultsShown(calls[1]!)
      expect(Object.keys(shown)).toEqual(["r1", "e1"])
      expect(shown.r1).toContain("first line")
      expect(shown.e1).toBe("one")
      expect(toolsShown(calls[0]!)).toContain("echo")
      const texts = events.flatMap((event) => (event.type === "text" ? [event.delta] : []))
      expect(texts).toEqual(["Reading.", "All done."])
      expect(events.at(-1)).toEqual({ type: "finish", reason: "done", steps: 3, usage: result.usage })
      // messages: the user's, then assistant / tool pairs, then the last answer
      expect(result.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"])
    }),
  )

  it.live("settles the calls of one step in parallel: a call waiting for its sibling finishes", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const released = yield* Deferred.make<void>()
      yield* opened_.toolgate.register({
        wait_release: Tool.make({ description: "Waits.", input: Schema.Struct({}), output: Schema.String, execute: () => Effect.as(Deferred.await(released), "released") }),
        release: Tool.make({ description: "Releases.", input: Schema.Struct({}), output: Schema.String, execute: () => Effect.as(Deferred.succeed(released, undefined), "released it") }),
      })
      const { model, calls } = scripted([{ calls: [{ id: "a", name: "wait_release", input: {} }, { id: "b", name: "release", input: {} }] }, { text: "ok" }])
      const result = yield* run(opened_, model)
      expect(result.reason).toBe("done")
      expect(resultsShown(calls[1]!)).toEqual({ a: "released", b: "released it" })
    }),
  )

  it.live("materializes the catalog per step: a registration changed while the model answers is a stale call, the next step sees the new one", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const go = yield* Deferred.make<void>()
      const swapped = yield* Deferred.make<void>()
      const swap = Effect.gen(function* () {
        yield* Deferred.await(go)
        yield* opened_.toolgate.register({ echo: echo("new:") })
        yield* Deferred.succeed(swapped, undefined)
        yield* Effect.never
      })
      const fiber = yield* Effect.forkChild(Effect.scoped(swap))
      const { model, calls } = scripted([
        { calls: [{ id: "old", name: "echo", input: { text: "x" } }], before: () => Effect.runPromise(Effect.andThen(Deferred.succeed(go, undefined), Deferred.await(swapped))) },
        { calls: [{ id: "fresh", name: "echo", input: { text: "y" } }, { id: "gone", name: "no_such_tool", input: {} }, { id: "proto", name: "constructor", input: {} }] },
        { text: "ok" },
      ])
      yield* Effect.yieldNow
      const result = yield* run(opened_, model)
      yield* Fiber.interrupt(fiber)
      expect(result.reason).toBe("done")
      expect(resultsShown(calls[1]!).old).toBe("Stale tool call: echo")
      expect(resultsShown(calls[2]!).fresh).toBe("new:y")
      expect(resultsShown(calls[2]!).gone).toBe("Unknown tool: no_such_tool")
      expect(resultsShown(calls[2]!).proto).toBe("Unknown tool: constructor")
    }),
  )

  it.live("a decline ends the loop: the model is not called again, the step's unsettled calls are cancelled by the user, a finished one keeps its result", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      yield* opened_.toolgate.register({ hang: Tool.make({ description: "Never ends.", input: Schema.Struct({}), output: Schema.String, execute: () => Effect.never }) })
      const { model, calls } = scripted([{ calls: [{ id: "e", name: "echo", input: { text: "fine" } }, { id: "c", ...bash("curl https://example.com") }, { id: "h", name: "hang", input: {} }] }])
      const events: Array<Runner.Event> = []
      const result = yield* run(opened_, model, { answer: () => ({ reply: "reject" }), events })
      expect(result.reason).toBe("declined")
      expect(calls).toHaveLength(1)
      // Keyed by tool: the records know each call by an id of toolgate's own, not the model's.
      const outcomes = Object.fromEntries(events.flatMap((event) => (event.type === "outcome" ? [[event.tool, event.outcome]] : [])))
      expect(outcomes.echo?.kind).toBe("success")
      expect(outcomes.bash?.kind).toBe("declined")
      expect(outcomes.hang).toEqual({ kind: "cancelled", toolCallID: expect.stringMatching(/^call_/), message: Runner.Messages.cancelledByUser })
      const last = result.messages.at(-1)!
      expect(last.role).toBe("tool")
      expect(JSON.stringify(last.content)).toContain("Tool execution cancelled by the user")
    }),
  )

  it.live("a model that repeats a tool call id, in one step or across steps, keeps every call's record: toolgate's ids are its own", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const { model, calls } = scripted([
        { calls: [{ id: "same", name: "echo", input: { text: "one" } }, { id: "same", name: "echo", input: { text: "two" } }] },
        { calls: [{ id: "same", name: "echo", input: { text: "three" } }] },
        { text: "ok" },
      ])
      const events: Array<Runner.Event> = []
      const result = yield* run(opened_, model, { events })
      expect(result.reason).toBe("done")
      // the model reads each result under the id it gave
      expect(JSON.stringify(calls[2]!.prompt)).toContain("three")
      const ids = events.flatMap((event) => (event.type === "call" ? [event.toolCallID] : []))
      expect(ids).toHaveLength(3)
      expect(new Set(ids).size).toBe(3)
      const records = yield* opened_.toolgate.run(Effect.flatMap(CallLog.Service, (log) => Effect.forEach(ids, (id) => log.get(opened_.session.id, id))))
      expect(records.map((record) => record?.input)).toEqual([{ text: "one" }, { text: "two" }, { text: "three" }])
    }),
  )

  it.live("a reject with feedback is read by the model and the loop goes on", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const { model, calls } = scripted([{ calls: [{ id: "c", ...bash("curl https://example.com") }] }, { text: "I will use the cached copy." }])
      const result = yield* run(opened_, model, { answer: () => ({ reply: "reject", message: "no network: use the cached copy" }) })
      expect(result.reason).toBe("done")
      expect(calls).toHaveLength(2)
      expect(resultsShown(calls[1]!).c).toContain("no network: use the cached copy")
    }),
  )

  it.live("a configured deny is read by the model as the gate's text and the loop goes on", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const { model, calls } = scripted([{ calls: [{ id: "d", ...bash("rm -rf build") }] }, { text: "ok" }])
      const result = yield* run(opened_, model)
      expect(result.reason).toBe("done")
      const outcome = yield* opened_.toolgate.settle({ session: opened_.session, call: { id: "again", ...bash("rm -rf build") } })
      expect(outcome.kind).toBe("blocked")
      expect(resultsShown(calls[1]!).d).toBe(outcome.kind === "blocked" ? outcome.message : "")
    }),
  )

  it.live("stops at maxSteps with that reason", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const { model, calls } = scripted((index): Step => ({ calls: [{ name: "echo", input: { text: String(index) } }] }))
      const result = yield* run(opened_, model, { maxSteps: 3 })
      expect(result.reason).toBe("max-steps")
      expect(result.steps).toBe(3)
      expect(calls).toHaveLength(3)
      expect(result.usage.totalTokens).toBe(3 * (STEP_USAGE.inputTokens.total + STEP_USAGE.outputTokens.total))
    }),
  )

  it.live("each step is one assistant message: session revert to a step's message restores the files from before it", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const { model } = scripted([
        { calls: [{ name: "write", input: { path: "notes.txt", content: "second\n" } }] },
        { calls: [{ name: "write", input: { path: "notes.txt", content: "third\n" } }, { name: "write", input: { path: "added.txt", content: "new\n" } }] },
        { text: "ok" },
      ])
      const result = yield* run(opened_, model)
      expect(result.messageIDs).toHaveLength(3)
      yield* opened_.toolgate.run(Effect.flatMap(History.Service, (history) => history.revert(opened_.session.id, result.messageIDs[1]!)))
      expect(yield* Effect.promise(() => readFile(path.join(opened_.work, "notes.txt"), "utf8"))).toBe("second\n")
      expect(existsSync(path.join(opened_.work, "added.txt"))).toBe(false)
    }),
  )

  it.live("interrupting the loop kills a running command's process and aborts a model stream", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const pidFile = path.join(opened_.work, "pid")
      const { model } = scripted([{ calls: [bash(`echo $$ > ${pidFile}; sleep 30`)] }])
      const fiber = yield* Effect.forkChild(run(opened_, model))
      const pid = yield* Effect.promise(async () => {
        for (;;) {
          const text = await readFile(pidFile, "utf8").catch(() => "")
          if (text.trim() !== "") return Number(text.trim())
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      })
      expect(alive(pid)).toBe(true)
      yield* Fiber.interrupt(fiber)
      yield* Effect.promise(async () => {
        for (let turn = 0; turn < 250 && alive(pid); turn++) await new Promise((resolve) => setTimeout(resolve, 20))
      })
      expect(alive(pid)).toBe(false)

      // a model that never finishes its stream: interruption aborts the request
      let aborted = false
      const { model: stuck } = scripted([{}])
      stuck.doStream = async (options) => {
        options.abortSignal?.addEventListener("abort", () => (aborted = true))
        return { stream: new ReadableStream({ start: () => {} }) }
      }
      const waiting = yield* Effect.forkChild(run(opened_, stuck))
      yield* Effect.sleep("50 millis")
      yield* Fiber.interrupt(waiting)
      expect(aborted).toBe(true)
    }),
  )

  it.live("a model that fails is a ModelError naming the failure, not a defect", () =>
    Effect.gen(function* () {
      const opened_ = yield* opened
      const { model } = scripted([{}])
      model.doStream = async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:9\nat somewhere")
      }
      const error = yield* Effect.flip(opened_.toolgate.run(Runner.loop({ session: opened_.session, model, messages: [{ role: "user", content: "go" }], maxRetries: 0 })))
      expect(error).toBeInstanceOf(Runner.ModelError)
      expect(error.message).toBe("The model failed: connect ECONNREFUSED 127.0.0.1:9")
    }),
  )
})
