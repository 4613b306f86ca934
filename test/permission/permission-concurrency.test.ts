/**
 * 500 pending requests across 20 sessions, answered concurrently in a random order with a mix of
 * replies. Sessions 0–3 are answered only with plain rejects (each declines the whole session,
 * whichever lands first); the others get once, always and reject-with-feedback. Requests in pairs
 * share a resource and are both answered always, so whichever always lands first also releases
 * its twin. Every waiter must end exactly once with the outcome its reply implies.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { Effect, Exit, Fiber, Queue } from "effect"
import { Config } from "../../src/config.js"
import { Approvals } from "../../src/permission/approvals.js"
import { Permission } from "../../src/permission/permission.js"
import { Project } from "../../src/project.js"
import { Session } from "../../src/session.js"
import { globalConfig } from "../lib/config.js"
import { askedQueue, gateLayer, makeRoot, source } from "../lib/permission.js"

const REQUESTS = 500
const SESSIONS = 20
const DECLINING_SESSIONS = 4
const PAIRS = 25

const config = globalConfig({ permission: [{ action: "bash", resource: "*", effect: "ask" }] })

type Plan = { readonly session: number; readonly resource: string; readonly reply: Permission.ReplyInput["reply"]; readonly message?: string }

const plans: ReadonlyArray<Plan> = (() => {
  const accepting = Array.from({ length: REQUESTS }, (_, i) => i).filter((i) => i % SESSIONS >= DECLINING_SESSIONS)
  // The first 2 × PAIRS accepting requests come in twins that share a resource.
  const twin = new Map(accepting.slice(0, 2 * PAIRS).map((index, position) => [index, `twin-${Math.floor(position / 2)}`]))
  return Array.from({ length: REQUESTS }, (_, index): Plan => {
    const session = index % SESSIONS
    if (session < DECLINING_SESSIONS) return { session, resource: `cmd-${index}`, reply: "reject" }
    const shared = twin.get(index)
    if (shared !== undefined) return { session, resource: shared, reply: "always" }
    const kind = index % 3
    if (kind === 0) return { session, resource: `cmd-${index}`, reply: "once" }
    if (kind === 1) return { session, resource: `cmd-${index}`, reply: "always" }
    return { session, resource: `cmd-${index}`, reply: "reject", message: `not ${index}` }
  })
})()

const expected = (item: Plan): "ok" | "declined" | "corrected" =>
  item.session < DECLINING_SESSIONS ? "declined" : item.reply === "reject" ? "corrected" : "ok"

describe("Permission under concurrent replies", () => {
  it.live("resolves every waiter exactly once with the right outcome, leaving nothing pending and no duplicate approvals", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const order = fc.sample(fc.shuffledSubarray(Array.from({ length: REQUESTS }, (_, i) => i), { minLength: REQUESTS, maxLength: REQUESTS }), 1)[0] as number[]
      yield* Effect.gen(function* () {
        const permission = yield* Permission.Service
        const sessions = yield* Session.Service
        const asked = yield* askedQueue
        const ids = yield* Effect.forEach(Array.from({ length: SESSIONS }), () => Effect.map(sessions.ensure({ agent: "build" }), (info) => info.id))
        const settled = new Map<number, number>()
        const waiters = yield* Effect.forEach(plans, (item, index) =>
          Effect.forkChild(
            permission.assert({ sessionID: ids[item.session] as string, action: "bash", resources: [item.resource], save: [item.resource], metadata: { index }, source }).pipe(
              Effect.ensuring(Effect.sync(() => settled.set(index, (settled.get(index) ?? 0) + 1))),
            ),
          ),
        )
        const requests = new Map<number, Permission.Request>()
        for (let i = 0; i < REQUESTS; i++) {
          const request = yield* Queue.take(asked)
          requests.set(request.metadata.index as number, request)
        }
        yield* Effect.forEach(
          order,
          (index) => {
            const item = plans[index] as Plan
            const reply = { requestID: (requests.get(index) as Permission.Request).id, reply: item.reply, ...(item.message === undefined ? {} : { message: item.message }) }
            // A request may already be settled by its session's decline or its twin's always.
            return permission.reply(reply).pipe(Effect.catchTag("Permission.NotFoundError", () => Effect.void))
          },
          { concurrency: "unbounded" },
        )
        const exits = yield* Effect.forEach(waiters, (fiber) => Fiber.await(fiber))
        const outcomes = exits.map((exit) => {
          if (Exit.isSuccess(exit)) return "ok"
          const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
          return error !== undefined && "error" in error && error.error instanceof Permission.CorrectedError ? "corrected" : "declined"
        })
        expect(outcomes).toEqual(plans.map(expected))
        expect([...settled.values()].every((count) => count === 1)).toBe(true)
        expect(settled.size).toBe(REQUESTS)
        expect(yield* permission.list).toEqual([])
        const project = yield* Project.Service
        const saved = yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.list(project.id))
        const resources = saved.map((approval) => approval.resource)
        expect(new Set(resources).size).toBe(resources.length)
        expect(resources.filter((resource) => resource.startsWith("twin-")).length).toBe(PAIRS)
      }).pipe(Effect.provide(gateLayer(root, { config })))
    }))
})
