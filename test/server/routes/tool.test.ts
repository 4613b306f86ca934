/**
 * What a directory offers and how it judges, against a real server (issue 17, item 3): the
 * catalog an agent and model see (GET /api/tool), the explain of a call without running it, and
 * the audit log filtered by session and time.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SessionRoutes } from "../../../src/server/routes/session.js"
import { ToolRoutes } from "../../../src/server/routes/tool.js"
import { Tool } from "../../../src/tool/tool.js"
import { ASK_BASH, call, pendingOf, session, start } from "../../lib/server.js"
import type { Server } from "../../lib/server.js"

const get = (server: Server, route: string) => Effect.promise(() => server.api(route)).pipe(Effect.map(({ status, body }) => ({ status, body })))
const explain = (server: Server, body: unknown) => Effect.promise(() => server.api("/api/permission/explain", { body })).pipe(Effect.map(({ status, body }) => ({ status, body })))

const BUILD_ALLOWS = { action: "*", resource: "*", effect: "allow", source: { kind: "builtin", agent: "build" } }

describe("ToolRoutes", () => {
  it.live("lists the tools an agent sees, for a model too, and refuses an unknown agent", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const names = (route: string) => get(server, route).pipe(Effect.map(({ body }) => ({ agent: body.agent, names: body.data.map((tool: { readonly name: string }) => tool.name) })))
      expect(yield* names("/api/tool")).toEqual({ agent: "build", names: ["apply_patch", "bash", "edit", "glob", "grep", "question", "read", "todowrite", "webfetch", "write"] })
      // plan may not edit: the editing tools are not shown.
      expect(yield* names("/api/tool?agent=plan")).toEqual({ agent: "plan", names: ["bash", "glob", "grep", "question", "read", "todowrite", "webfetch"] })
      // A GPT model edits with apply_patch only.
      expect(yield* names("/api/tool?model=gpt-5")).toEqual({ agent: "build", names: ["apply_patch", "bash", "glob", "grep", "question", "read", "todowrite", "webfetch"] })
      const bash = (yield* get(server, "/api/tool")).body.data.find((tool: { readonly name: string }) => tool.name === "bash")
      expect(bash).toMatchObject({ name: "bash", description: expect.any(String), inputSchema: { type: "object" } })
      expect(yield* get(server, "/api/tool?agent=biuld")).toEqual({
        status: 400,
        body: { _tag: "InvalidRequestError", message: SessionRoutes.Messages.unknownAgent("biuld", ["build", "plan"]), field: "agent" },
      })
    }))

  it.live("explains every request of a call and its decision without running it", () =>
    Effect.gen(function* () {
      const server = yield* start()
      expect(yield* explain(server, { tool: "bash", input: { command: "echo hi && touch ran" } })).toEqual({
        status: 200,
        body: {
          agent: "build",
          effect: "allow",
          requests: [
            {
              action: "bash",
              resources: ["echo hi", "touch ran"],
              save: ["echo *", "touch *"],
              opaque: false,
              metadata: { command: "echo hi && touch ran", workdir: server.root },
              effect: "allow",
              rules: [
                { resource: "echo hi", rule: BUILD_ALLOWS },
                { resource: "touch ran", rule: BUILD_ALLOWS },
              ],
            },
          ],
        },
      })
      const plan = yield* explain(server, { agent: "plan", tool: "bash", input: { command: "echo hi" } })
      expect({ agent: plan.body.agent, effect: plan.body.effect }).toEqual({ agent: "plan", effect: "ask" })
      // Nothing ran.
      const audit = yield* get(server, "/api/audit")
      expect(audit.body).toEqual({ data: [] })
    }))

  it.live("refuses an explain of an unknown tool, bad input or a bad body with 400", () =>
    Effect.gen(function* () {
      const server = yield* start()
      expect(yield* explain(server, { tool: "nope", input: {} })).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: ToolRoutes.Messages.unknownTool("nope"), field: "tool" } })
      const detail = yield* Schema.decodeUnknownEffect(Schema.Struct({ command: Schema.String }))({ command: 3 }).pipe(Effect.flip, Effect.map((error) => error.message))
      expect(yield* explain(server, { tool: "bash", input: { command: 3 } })).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: Tool.Messages.invalidInput(detail), field: "input" } })
      const message = yield* Schema.decodeUnknownEffect(ToolRoutes.ExplainBody)({ input: {} }).pipe(Effect.flip, Effect.map((error) => error.message))
      expect(yield* explain(server, { input: {} })).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message, field: "body" } })
      expect(yield* explain(server, { agent: "biuld", tool: "bash", input: { command: "ls" } })).toEqual({
        status: 400,
        body: { _tag: "InvalidRequestError", message: SessionRoutes.Messages.unknownAgent("biuld", ["build", "plan"]), field: "agent" },
      })
    }))

  it.live("lists the audit log, by session and since a time", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const quiet = yield* session(server)
      const asking = yield* session(server, { rules: ASK_BASH })
      yield* Effect.promise(() => call(server, quiet, "bash", { command: "echo quiet" }))
      const running = call(server, asking, "bash", { command: "echo asking" })
      const [pending] = yield* pendingOf(server, asking)
      yield* Effect.promise(() => server.api(`/api/session/${asking}/permission/${pending.id}/reply`, { body: { reply: "once" } }))
      yield* Effect.promise(() => running)
      const all = (yield* get(server, "/api/audit")).body.data as ReadonlyArray<{ readonly sessionID: string; readonly at: number; readonly effect: string; readonly decidedBy: string; readonly reply?: string }>
      expect(all.map(({ sessionID, effect, decidedBy, reply }) => ({ sessionID, effect, decidedBy, ...(reply === undefined ? {} : { reply }) }))).toEqual([
        { sessionID: quiet, effect: "allow", decidedBy: "rule" },
        { sessionID: asking, effect: "ask", decidedBy: "rule" },
        { sessionID: asking, effect: "allow", decidedBy: "person", reply: "once" },
      ])
      expect((yield* get(server, `/api/audit?session=${asking}`)).body.data).toEqual(all.slice(1))
      const last = all[2]?.at ?? 0
      expect((yield* get(server, `/api/audit?since=${last}`)).body.data).toEqual(all.filter((record) => record.at >= last))
      expect((yield* get(server, `/api/audit?since=${encodeURIComponent(new Date(last).toISOString())}`)).body.data).toEqual(all.filter((record) => record.at >= last))
      expect((yield* get(server, `/api/audit?since=${last + 60_000}`)).body.data).toEqual([])
      expect((yield* get(server, `/api/audit?directory=${encodeURIComponent(server.root)}&session=${quiet}`)).body.data).toEqual(all.slice(0, 1))
      expect(yield* get(server, "/api/audit?since=yesterday")).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: ToolRoutes.Messages.invalidSince("yesterday"), field: "since" } })
    }))

  const sinces: ReadonlyArray<readonly [string, number | undefined]> = [
    ["0", 0],
    ["1796227626244", 1_796_227_626_244],
    ["2026-01-02T03:04:05.000Z", Date.UTC(2026, 0, 2, 3, 4, 5)],
    ["yesterday", undefined],
    ["", undefined],
  ]
  for (const [text, expected] of sinces)
    it(`reads since ${JSON.stringify(text)} as ${expected}`, () => {
      expect(ToolRoutes.sinceOf(text)).toBe(expected)
    })
})
