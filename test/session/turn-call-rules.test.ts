/**
 * A call's first decision takes the rules its catalog was built from when its session was read
 * for it (permission/call-rules.ts); every other decision, in the call or in the next one, reads
 * them anew. Here another connection to the same SQLite file changes the policy or ends the
 * session, between two decisions of one call and between two calls, and the next decision sees it.
 */
import path from "node:path"
import BetterSqlite3 from "better-sqlite3"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { DATABASE_FILE } from "../../src/directories.js"
import { Permission } from "../../src/permission/permission.js"
import { Tool } from "../../src/tool/tool.js"
import { openToolgate } from "../lib/toolgate-open.js"

/** A statement run by a connection of its own, as another process would. */
const elsewhere = (file: string, sql: string, params: ReadonlyArray<string | number> = []) => {
  const db = new BetterSqlite3(file)
  try {
    db.prepare(sql).run(...params)
  } finally {
    db.close()
  }
}

/**
 * A handle whose `probe` tool asks for `a`, runs `between`, then asks for `b`, and whose `once`
 * tool asks for `a` only (both as the action `probe`); its config allows `probe` on everything.
 */
const opened = (between: (file: string, sessionID: string) => void) =>
  Effect.gen(function* () {
    const { toolgate, data } = yield* openToolgate([{ action: "probe", resource: "*", effect: "allow" }])
    const file = path.join(data, DATABASE_FILE)
    const permission = yield* toolgate.run(Permission.Service)
    const probe = Tool.make({
      description: "Asks for a, then for b.",
      input: Schema.Struct({}),
      output: Schema.String,
      execute: (_input, context) => {
        const ask = (resource: string) => Tool.ask(permission, context, { action: "probe", resources: [resource] })
        return ask("a").pipe(
          Effect.andThen(Effect.sync(() => between(file, context.sessionID))),
          Effect.andThen(ask("b")),
          Effect.as("ran"),
        )
      },
    })
    const once = Tool.make({
      description: "Asks for a.",
      input: Schema.Struct({}),
      output: Schema.String,
      execute: (_input, context) => Tool.ask(permission, context, { action: "probe", resources: ["a"] }).pipe(Effect.as("ran")),
    })
    yield* toolgate.register({ probe, once })
    const kept = yield* toolgate.session({ agent: "build" })
    // As the server's hub does: the session read for the call, and said so.
    const call = (id: string) =>
      Effect.flatMap(toolgate.session({ id: kept.id, agent: "build" }), (session) => toolgate.settle({ session, current: true, call: { id, name: "probe", input: {} } }))
    // As a library caller may: a session read earlier, not said to be current; `once` decides once.
    const callKept = (id: string) => toolgate.settle({ session: kept, call: { id, name: "once", input: {} } })
    return { call, callKept, file, sessionID: kept.id }
  })

const denyPolicy = (resource: string) => (file: string) => elsewhere(file, "INSERT INTO policy (position, action, resource, effect) VALUES (1, 'probe', ?, 'deny')", [resource])

describe("SessionTurn: the rules of a call's decisions", () => {
  it.live("a call runs when nothing changes", () =>
    Effect.gen(function* () {
      const { call } = yield* opened(() => undefined)
      expect((yield* call("call_1")).kind).toBe("success")
    }))

  it.live("a decision after the call's first sees a policy deny another connection wrote in between", () =>
    Effect.gen(function* () {
      const { call } = yield* opened(denyPolicy("b"))
      const outcome = yield* call("call_1")
      expect(outcome).toEqual({ kind: "blocked", toolCallID: "call_1", message: Permission.Messages.blocked("probe") })
    }))

  it.live("a decision after the call's first sees the session ended by another connection", () =>
    Effect.gen(function* () {
      const { call } = yield* opened((file, sessionID) => elsewhere(file, "UPDATE session SET ended_at = ? WHERE id = ?", [Date.now(), sessionID]))
      const outcome = yield* call("call_1")
      expect(outcome).toEqual({ kind: "blocked", toolCallID: "call_1", message: Permission.Messages.blocked("probe") })
    }))

  it.live("a call given a session read before it ended (not current) reads it again for its first decision", () =>
    Effect.gen(function* () {
      const { callKept, file, sessionID } = yield* opened(() => undefined)
      expect((yield* callKept("call_1")).kind).toBe("success")
      elsewhere(file, "UPDATE session SET ended_at = ? WHERE id = ?", [Date.now(), sessionID])
      expect(yield* callKept("call_2")).toEqual({ kind: "blocked", toolCallID: "call_2", message: Permission.Messages.blocked("probe") })
    }))

  it.live("the next call's first decision sees a policy deny another connection wrote between the calls", () =>
    Effect.gen(function* () {
      const { call, file } = yield* opened(() => undefined)
      expect((yield* call("call_1")).kind).toBe("success")
      denyPolicy("a")(file)
      expect(yield* call("call_2")).toEqual({ kind: "blocked", toolCallID: "call_2", message: Permission.Messages.blocked("probe") })
    }))
})
