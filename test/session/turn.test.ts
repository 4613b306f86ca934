/**
 * The one call path (issue 13, item 2), through the library's handle (item 6): every way a call
 * can end is one outcome kind, and the handle's interactions answer what the call waits for.
 * Real Location, database, permission gate and tools.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Schema, Stream } from "effect"
import { Permission } from "../../src/permission/permission.js"
import { Question } from "../../src/question.js"
import { SessionTurn } from "../../src/session/turn.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { Tool } from "../../src/tool/tool.js"
import { Toolgate } from "../../src/toolgate.js"
import { Bus } from "../../src/bus.js"
import { openToolgate } from "../lib/toolgate-open.js"

const echo = Tool.make({
  description: "Echo.",
  input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }),
  output: Schema.String,
  execute: ({ text }) => Effect.succeed(text),
})
const stopsItself = Tool.make({ description: "Interrupted.", input: Schema.Struct({}), output: Schema.String, execute: () => Effect.interrupt })

/** A handle on a fresh directory whose config denies `rm *` and asks for `curl *`. */
const opened = Effect.gen(function* () {
  const { toolgate } = yield* openToolgate([
    { action: "bash", resource: "rm *", effect: "deny" },
    { action: "bash", resource: "curl *", effect: "ask" },
  ])
  yield* toolgate.register({ echo, stops_itself: stopsItself })
  return { toolgate, session: yield* toolgate.session({ agent: "build" }) }
})

/** Settles `call` while `answer` replies to the first interaction of the session. */
const settleAnswering = (toolgate: Toolgate.Handle, session: { readonly id: string }, call: { readonly name: string; readonly input: unknown }, answer: (id: string) => Effect.Effect<void, unknown>) =>
  Effect.gen(function* () {
    const seen = yield* Deferred.make<string>()
    const watch = yield* Effect.forkChild(
      toolgate.run(
        Effect.gen(function* () {
          const bus = yield* Bus.Service
          const events = yield* bus.subscribe
          yield* events.pipe(
            Stream.filter((event) => event.type === Permission.Asked.type || event.type === Question.Asked.type),
            Stream.take(1),
            Stream.runForEach((event) => Deferred.succeed(seen, (event.payload as { readonly id: string }).id)),
          )
        }),
      ),
    )
    yield* Effect.yieldNow
    const settling = yield* Effect.forkChild(toolgate.settle({ session: session as never, call: { id: "call_x", ...call } }))
    yield* Effect.flatMap(Deferred.await(seen), answer)
    yield* Fiber.join(watch)
    return yield* Fiber.join(settling)
  })

describe("SessionTurn through Toolgate.open", () => {
  it.live("success, failed, blocked and cancelled come back as outcome kinds", () =>
    Effect.gen(function* () {
      const { toolgate, session } = yield* opened
      const settle = (name: string, input: unknown) => toolgate.settle({ session, call: { id: `call_${name}`, name, input } })
      const success = yield* settle("echo", { text: "hello" })
      expect(success.kind).toBe("success")
      expect(Toolgate.text(success)).toBe("hello")
      expect(yield* settle("nope", {})).toEqual({ kind: "failed", toolCallID: "call_nope", message: ToolRegistry.Messages.unknownTool("nope") })
      const blocked = yield* settle("bash", { command: "rm -rf build", description: "Remove" })
      expect(blocked).toEqual({ kind: "blocked", toolCallID: "call_bash", message: Permission.Messages.blocked("bash") })
      expect(yield* settle("stops_itself", {})).toEqual({ kind: "cancelled", toolCallID: "call_stops_itself", message: SessionTurn.Messages.cancelled("stops_itself") })
      expect(SessionTurn.stops(success)).toBe(false)
    }))

  it.live("a rejected ask is declined, a reject with feedback is failed with the feedback, a dismissed question is dismissed", () =>
    Effect.gen(function* () {
      const { toolgate, session } = yield* opened
      const curl = { name: "bash", input: { command: "curl http://127.0.0.1:9/", description: "Fetch" } }
      const declined = yield* settleAnswering(toolgate, session, curl, (id) => toolgate.permissions.reply({ requestID: id, reply: "reject" }))
      expect(declined).toEqual({ kind: "declined", toolCallID: "call_x", message: Permission.Messages.declined("bash") })
      expect(SessionTurn.stops(declined)).toBe(true)
      const corrected = yield* settleAnswering(toolgate, session, curl, (id) => toolgate.permissions.reply({ requestID: id, reply: "reject", message: "use wget" }))
      expect(corrected).toEqual({ kind: "failed", toolCallID: "call_x", message: Permission.Messages.corrected("use wget") })
      const question = { name: "question", input: { questions: [{ question: "Which?", header: "Pick", options: [{ label: "a", description: "A" }] }] } }
      const dismissed = yield* settleAnswering(toolgate, session, question, (id) => toolgate.questions.dismiss({ requestID: id }))
      expect(dismissed.kind).toBe("dismissed")
      expect(SessionTurn.text(dismissed)).toBe(Question.Messages.dismissed)
      expect(yield* toolgate.permissions.list).toEqual([])
    }))
})
