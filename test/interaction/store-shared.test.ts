/**
 * The interaction store over asks shared on PostgreSQL (interaction/shared-postgres.ts): an ask is
 * shared, a round trip to the database, before it is pending here. An answerer that attaches in
 * that round trip finds no entry yet, so the ask must still be offered to it once it is pending.
 * The round trip is held open by a real lock on `shared_ask`; a real Location, bash and cluster.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Schedule } from "effect"
import pg from "pg"
import { Answerer } from "../../src/interaction/answerer.js"
import { InteractionStore } from "../../src/interaction/store.js"
import { clusterForFile, unavailable } from "../lib/postgres.js"
import { openToolgate } from "../lib/toolgate-open.js"

const server = clusterForFile()

/** A Location on a new database of the cluster where every bash command asks. */
const opened = Effect.gen(function* () {
  const url = yield* Effect.promise(() => server().database())
  const { toolgate } = yield* openToolgate([{ action: "bash", resource: "*", effect: "ask" }], { env: { TOOLGATE_DATABASE_URL: url } })
  const client = new pg.Client({ connectionString: url })
  yield* Effect.acquireRelease(Effect.promise(() => client.connect()), () => Effect.promise(() => client.end()))
  return { toolgate, client }
})

describe.skipIf(unavailable !== undefined)("InteractionStore over shared asks", () => {
  it.live("offers an ask to an answerer that attached while the ask was being shared", () =>
    Effect.gen(function* () {
      const { toolgate, client } = yield* opened
      const session = yield* toolgate.session({ agent: "build" })
      const store = yield* toolgate.run(InteractionStore.Service)
      // Sharing the ask waits on this lock until the answerer is attached.
      yield* Effect.promise(() => client.query("BEGIN"))
      yield* Effect.promise(() => client.query("LOCK TABLE shared_ask IN ACCESS EXCLUSIVE MODE"))
      const call = yield* Effect.forkChild(toolgate.settle({ session, call: { id: "call_1", name: "bash", input: { command: "echo answered", description: "Echo" } } }))
      // pg_locks, not pg_stat_activity: the latter is read once per transaction, and this one is open.
      const sharing = Effect.promise(() => client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'shared_ask'::regclass AND NOT granted"))
      yield* sharing.pipe(Effect.repeat({ until: (result) => result.rows[0]?.n === 1, schedule: Schedule.spaced("10 millis") }))
      yield* store.attach(Answerer.policy("once"), session.id)
      yield* Effect.promise(() => client.query("COMMIT"))
      const outcome = yield* Fiber.join(call).pipe(Effect.timeout("10 seconds"))
      expect(outcome.kind).toBe("success")
      expect(yield* store.list).toEqual([])
    }))
})
