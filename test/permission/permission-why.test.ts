import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Queue } from "effect"
import { Config } from "../../src/config.js"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import { Permission } from "../../src/permission/permission.js"
import { PermissionRequest } from "../../src/permission/request.js"
import type { PermissionRule } from "../../src/permission/rule.js"
import { Session } from "../../src/session.js"
import { globalFile } from "../lib/config.js"
import { askedQueue, gateLayer, makeRoot, source } from "../lib/permission.js"

const GLOBAL: PermissionRule.Source = { kind: "config", file: "/home/u/.config/toolgate/toolgate.json", scope: "global", index: 0 }
const rule = (action: string, resource: string, effect: PermissionRule.Effect, from: PermissionRule.Source = GLOBAL, extra: Partial<PermissionRule.Sourced> = {}): PermissionRule.Sourced => ({
  action,
  resource,
  effect,
  source: from,
  ...extra,
})
const BUILD: PermissionRule.Source = { kind: "builtin", agent: "build" }

const why = (query: { readonly action: string; readonly resources: ReadonlyArray<string>; readonly opaque?: boolean; readonly namedBy?: string }, configured: ReadonlyArray<PermissionRule.Sourced>) => {
  const context: PermissionEvaluate.Context = { location: "/work/repo" }
  return PermissionRequest.whyOf(query, PermissionEvaluate.evaluateInput({ ...query, configured, session: [], saved: [], context }), context)
}

describe("PermissionRequest.whyOf", () => {
  it("names the deciding rule and its source for each resource that asks, and only those", () => {
    expect(why({ action: "bash", resources: ["npm test", "git push"] }, [rule("bash", "*", "allow", BUILD), rule("bash", "git push*", "ask")])).toEqual([
      { resource: "git push", rule: { action: "bash", resource: "git push*", effect: "ask", source: "/home/u/.config/toolgate/toolgate.json permission[0]" } },
    ])
  })

  it("has no rule when none matched and the default ask stands", () => {
    expect(why({ action: "webfetch", resources: ["https://a.example/"] }, [])).toEqual([{ resource: "https://a.example/" }])
  })

  it("says an untrusted project's allow applies as ask, showing the allow as written", () => {
    const project: PermissionRule.Source = { kind: "config", file: "/work/repo/toolgate.json", scope: "project", index: 2 }
    expect(why({ action: "bash", resources: ["make"] }, [rule("bash", "*", "ask", project, { downgraded: true })])).toEqual([
      { resource: "make", rule: { action: "bash", resource: "*", effect: "allow", source: "/work/repo/toolgate.json permission[2]" }, raised: { kind: "untrusted" } },
    ])
  })

  it("says a wildcard allow asks for opaque text, a protected path and an action only naming rules allow", () => {
    const all = [rule("*", "*", "allow", BUILD)]
    const allow = { action: "*", resource: "*", effect: "allow", source: "built-in agent build" } as const
    expect(why({ action: "bash", resources: ["eval $x"], opaque: true }, all)).toEqual([{ resource: "eval $x", rule: allow, raised: { kind: "opaque" } }])
    expect(why({ action: "edit", resources: ["src/a.ts", ".git/config"] }, all)).toEqual([{ resource: ".git/config", rule: allow, raised: { kind: "protected", names: [".git"] } }])
    expect(why({ action: "github_create_issue", resources: ["*"], namedBy: "github_" }, all)).toEqual([{ resource: "*", rule: allow, raised: { kind: "named", prefix: "github_" } }])
  })
})

describe("Permission.assert", () => {
  it.live("puts why it asks into the pending request", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const config = Config.merge([globalFile({ permission: [{ action: "bash", resource: "git push*", effect: "ask" }] })])
      yield* Effect.gen(function* () {
        const asked = yield* askedQueue
        const permission = yield* Permission.Service
        const { id } = yield* Effect.flatMap(Session.Service, (sessions) => sessions.ensure({ agent: "build" }))
        const fiber = yield* permission.assert({ sessionID: id, action: "bash", resources: ["npm test", "git push"], save: ["git push *"], source }).pipe(Effect.forkScoped)
        const request = yield* Queue.take(asked)
        expect(request.why).toEqual([{ resource: "git push", rule: { action: "bash", resource: "git push*", effect: "ask", source: "/global/toolgate.json permission[0]" } }])
        yield* permission.reply({ requestID: request.id, reply: "once" })
        yield* Fiber.join(fiber)
      }).pipe(Effect.provide(gateLayer(root, { config })))
    }))
})
