/**
 * Servers that connect to one PostgreSQL as different roles (each with the documented grants, none
 * with pg_read_all_stats): a role sees another's backends without their start time, and a reply to
 * a live ask of another role's server must still reach it, while an ask whose owner is gone is
 * still found gone. Real clusters from test/lib/postgres.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type { Interaction } from "../../src/interaction/interaction.js"
import { SharedAsks } from "../../src/interaction/shared.js"
import { SharedAsksPostgres } from "../../src/interaction/shared-postgres.js"
import { PostgresSql } from "../../src/storage/postgres.js"
import { applicationRole, clusterForFile, unavailable } from "../lib/postgres.js"

const server = clusterForFile()

const serverOf = (url: string) => SharedAsksPostgres.layer(url).pipe(Layer.provideMerge(PostgresSql.layer(url)))

/** A database with its schema, and the URLs of two application roles. */
const twoRoles = Effect.promise(async () => {
  const owner = await server().database()
  return { a: await applicationRole(owner, "app_a"), b: await applicationRole(owner, "app_b") }
})

const ask = (id: string) => ({ id, sessionID: "ses_roles", kind: "permission", payload: { id }, createdAt: 1 }) as unknown as Interaction.Pending

describe.skipIf(unavailable !== undefined)("shared asks across database roles", () => {
  it.live("a reply from a server of another role reaches the live owner, and an ask of a gone owner is found gone", () =>
    Effect.gen(function* () {
      const urls = yield* twoRoles
      const outcome = yield* Effect.scoped(
        Effect.gen(function* () {
          const b = Context.get(yield* Layer.build(serverOf(urls.b)), SharedAsks.Service)
          const answered: unknown[] = []
          let ended = 0
          const live = yield* Effect.scoped(
            Effect.gen(function* () {
              const a = Context.get(yield* Layer.build(serverOf(urls.a)), SharedAsks.Service)
              yield* a.open(ask("per_live"), (answer) => Effect.sync(() => answered.push(answer)), Effect.sync(() => ended++))
              yield* a.open(ask("per_orphan"), () => Effect.void, Effect.void)
              const reply = yield* b.reply("per_live", { reply: "once" } as never)
              // The owner hears the answer by notification.
              for (let round = 0; round < 100 && answered.length === 0; round++) yield* Effect.sleep(20)
              return reply
            }),
          )
          // A's scope is closed: its listening connection is gone, and so is the owner of per_orphan.
          const orphan = yield* b.reply("per_orphan", { reply: "once" } as never)
          return { live, answered, ended, orphan }
        }),
      )
      expect(outcome).toEqual({ live: "answered", answered: [{ reply: "once" }], ended: 0, orphan: "owner-gone" })
    }))
})
