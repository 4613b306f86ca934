/** Approvals on the bus: each one saved and each one removed is announced, once, with its data. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import { Approvals } from "../../src/permission/approvals.js"
import { Project } from "../../src/project.js"
import { inStore, newSession } from "../lib/interaction.js"

/** Every `approval.saved` and `approval.revoked` from now on, as `[type, approval]`, in publish order. */
const changes = Effect.gen(function* () {
  const bus = yield* Bus.Service
  const queue = yield* Queue.unbounded<readonly [string, unknown]>()
  const stream = yield* bus.subscribe
  yield* stream.pipe(
    Stream.filter((event) => event.type === Approvals.Saved.type || event.type === Approvals.Revoked.type),
    Stream.runForEach((event) => Queue.offer(queue, [event.type, event.payload] as const)),
    Effect.forkScoped,
  )
  return queue
})

describe("Approvals", () => {
  it("names its events", () => {
    expect(Approvals.Saved.type).toBe("approval.saved")
    expect(Approvals.Revoked.type).toBe("approval.revoked")
  })

  it.live("publishes approval.saved for each new approval and approval.revoked for each one remove or clear takes away", () =>
    inStore(
      Effect.gen(function* () {
        const project = yield* Project.Service
        const approvals = yield* Approvals.Service
        const queue = yield* changes
        const session = yield* newSession
        const saved = yield* approvals.add(project.id, "bash", ["git *", "git *", "ls *"])
        // Saved already: nothing new, nothing published (the next event is the session's approval).
        expect(yield* approvals.add(project.id, "bash", ["git *"])).toEqual([])
        const mine = yield* approvals.add(project.id, "read", ["*.ts"], session.id)
        expect(saved.map((approval) => approval.resource)).toEqual(["git *", "ls *"])
        expect(mine).toEqual([{ id: mine[0]?.id, projectID: project.id, scope: "session", sessionID: session.id, action: "read", resource: "*.ts", createdAt: mine[0]?.createdAt }])
        const [git, ls] = saved
        const [own] = mine
        expect(yield* approvals.remove(project.id, git!.id)).toEqual(git)
        expect(yield* approvals.clear(project.id)).toBe(2)
        expect(yield* Queue.takeN(queue, 6)).toEqual([
          ["approval.saved", git],
          ["approval.saved", ls],
          ["approval.saved", own],
          ["approval.revoked", git],
          ["approval.revoked", ls],
          ["approval.revoked", own],
        ])
      }),
    ))
})
