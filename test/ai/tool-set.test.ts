/**
 * `toolgate/ai`'s tool set (issue 19, item 2) under the AI SDK's own loops: `generateText`,
 * `streamText` and `ToolLoopAgent`, with its mock model, over a real Location, gate and tools.
 * What the model reads is checked in what the model is shown on its next call.
 */
import { describe, expect, it } from "@effect/vitest"
import { ToolLoopAgent, generateText, stepCountIs, streamText } from "ai"
import { Effect, Schema } from "effect"
import { StopError, toolSet } from "../../src/ai/index.js"
import { Answerer } from "../../src/interaction/answerer.js"
import { InteractionStore } from "../../src/interaction/store.js"
import type { PermissionRequest } from "../../src/permission/request.js"
import { Tool } from "../../src/tool/tool.js"
import { Toolgate } from "../../src/toolgate.js"
import { resultsShown, scripted, toolsShown } from "../lib/model.js"
import { openToolgate } from "../lib/toolgate-open.js"

const echo = (prefix: string) =>
  Tool.make({ description: "Echo.", input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }), output: Schema.String, execute: ({ text }) => Effect.succeed(`${prefix}${text}`) })

const opened = Effect.gen(function* () {
  const { toolgate } = yield* openToolgate(
    [
      { action: "bash", resource: "curl *", effect: "ask" },
      { action: "bash", resource: "rm *", effect: "deny" },
    ],
    { files: { "notes.txt": "first line\n" } },
  )
  yield* toolgate.register({ echo: echo("") })
  const session = yield* toolgate.session({ agent: "build" })
  return { toolgate, session }
})

/** Keeps `answer` attached to the session's asks for the rest of the test's scope. */
const answering = (toolgate: Toolgate.Handle, sessionID: string, answer: (request: PermissionRequest.Request) => PermissionRequest.Answer) =>
  Effect.forkScoped(toolgate.run(Effect.andThen(Effect.flatMap(InteractionStore.Service, (store) => store.attach(Answerer.make({ permission: (request) => Effect.succeed(answer(request)) }), sessionID)), Effect.never)))

const bash = (command: string) => ({ name: "bash", input: { command, description: "run it" } })

describe("toolSet", () => {
  it.live("is the session's catalog; generateText runs its calls through the gate and the model reads results, denies and unknown names as the call path words them", () =>
    Effect.gen(function* () {
      const { toolgate, session } = yield* opened
      const tools = yield* toolSet(toolgate, { session })
      const catalog = yield* toolgate.catalog(session)
      expect(Object.keys(tools).sort()).toEqual(catalog.definitions.map((definition) => definition.name).sort())
      const { model, calls } = scripted([
        { calls: [{ id: "r", name: "read", input: { path: "notes.txt" } }, { id: "d", ...bash("rm -rf build") }, { id: "u", name: "no_such_tool", input: {} }, { id: "bad", name: "echo", input: { text: 3 } }, { id: "proto", name: "constructor", input: {} }] },
        { text: "done" },
      ])
      const result = yield* Effect.promise(() => generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(5) }))
      expect(result.text).toBe("done")
      expect(toolsShown(calls[0]!)).toEqual(catalog.definitions.map((definition) => definition.name))
      const shown = resultsShown(calls[1]!)
      expect(shown.r).toContain("first line")
      const denied = yield* toolgate.settle({ session, call: { id: "x", ...bash("rm -rf build") } })
      expect(shown.d).toBe(denied.kind === "blocked" ? denied.message : "not blocked")
      expect(shown.u).toBe("Unknown tool: no_such_tool")
      expect(shown.proto).toBe("Unknown tool: constructor")
      const invalid = yield* toolgate.settle({ session, call: { id: "y", name: "echo", input: { text: 3 } } })
      expect(invalid.kind).toBe("failed")
      expect(shown.bad).toBe(invalid.kind === "failed" ? invalid.message : "")
      // the SDK sees toolgate's failures as tool errors
      expect(result.steps[0]!.content.filter((part) => part.type === "tool-error").map((part) => part.toolCallId).sort()).toEqual(["bad", "d", "proto", "u"])
    }),
  )

  it.live("a reject with feedback is a tool error the model reads; the loop goes on", () =>
    Effect.gen(function* () {
      const { toolgate, session } = yield* opened
      yield* answering(toolgate, session.id, () => ({ reply: "reject", message: "use the cached copy" }))
      const tools = yield* toolSet(toolgate, { session })
      const { model, calls } = scripted([{ calls: [{ id: "c", ...bash("curl https://example.com") }] }, { text: "ok" }])
      const result = yield* Effect.promise(() => generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(5) }))
      expect(result.text).toBe("ok")
      expect(resultsShown(calls[1]!).c).toContain("use the cached copy")
    }),
  )

  it.live("a decline stops generateText, streamText and ToolLoopAgent with a StopError; the model is not called again", () =>
    Effect.gen(function* () {
      const { toolgate, session } = yield* opened
      yield* answering(toolgate, session.id, () => ({ reply: "reject" }))
      const tools = yield* toolSet(toolgate, { session })
      const declining = () => scripted([{ calls: [{ id: "c", ...bash("curl https://example.com") }] }, { text: "should not be reached" }])

      const first = declining()
      const generated = yield* Effect.promise(() => generateText({ model: first.model, tools, prompt: "go", stopWhen: stepCountIs(5) }).then(() => undefined, (error: unknown) => error))
      expect(generated).toBeInstanceOf(StopError)
      expect((generated as StopError).kind).toBe("declined")
      expect((generated as StopError).toolCallID).toBe("c")
      expect((generated as StopError).toolName).toBe("bash")
      expect(first.calls).toHaveLength(1)

      const second = declining()
      const streamed = yield* Effect.promise(async () => {
        const stream = streamText({ model: second.model, tools, prompt: "go", stopWhen: stepCountIs(5), onError: () => {} })
        try {
          for await (const part of stream.fullStream) if (part.type === "error") return part.error
          return undefined
        } catch (error) {
          return error
        }
      })
      // reading the stream ends with the StopError
      expect(StopError.find(streamed)?.kind).toBe("declined")
      expect(second.calls).toHaveLength(1)

      const third = declining()
      const agent = new ToolLoopAgent({ model: third.model, tools })
      const agentError = yield* Effect.promise(() => agent.generate({ prompt: "go" }).then(() => undefined, (error: unknown) => error))
      expect(StopError.find(agentError)?.kind).toBe("declined")
      expect(third.calls).toHaveLength(1)
    }),
  )

  it.live("a tool set made before a registration changed settles the changed tool as a stale call", () =>
    Effect.gen(function* () {
      const { toolgate, session } = yield* opened
      const tools = yield* toolSet(toolgate, { session })
      yield* toolgate.register({ echo: echo("new:") })
      const { model, calls } = scripted([{ calls: [{ id: "e", name: "echo", input: { text: "x" } }] }, { text: "ok" }])
      yield* Effect.promise(() => generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(3) }))
      expect(resultsShown(calls[1]!).e).toBe("Stale tool call: echo")
      const fresh = yield* toolSet(toolgate, { session })
      const again = scripted([{ calls: [{ id: "e", name: "echo", input: { text: "x" } }] }, { text: "ok" }])
      yield* Effect.promise(() => generateText({ model: again.model, tools: fresh, prompt: "go", stopWhen: stepCountIs(3) }))
      expect(resultsShown(again.calls[1]!).e).toBe("new:x")
    }),
  )
})
