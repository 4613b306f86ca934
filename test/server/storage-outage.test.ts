/**
 * A server on PostgreSQL while the database goes away and comes back (issue 21), against a real
 * cluster stopped and started mid-run: a call fails closed before anything runs (its session is
 * looked up in the database first: 503 naming the database), as does a route that reads storage;
 * once the database is back the same server works again, without a restart.
 */
import { writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cluster, unavailable } from "../lib/postgres.js"
import { call, session, start, waitFor } from "../lib/server.js"

describe.skipIf(unavailable !== undefined)("a server on PostgreSQL through a database outage", () => {
  it.live("fails closed while the database is down, naming it, and works again when it is back", () =>
    Effect.gen(function* () {
      const own = yield* Effect.promise(cluster)
      yield* Effect.addFinalizer(() => Effect.sync(own.destroy))
      const url = yield* Effect.promise(own.database)
      const server = yield* start({ env: { TOOLGATE_DATABASE_URL: url }, setup: ({ root }) => writeFile(path.join(root, "small.txt"), "small\n") })
      const id = yield* session(server)
      const before = yield* Effect.promise(() => call(server, id, "read", { path: "small.txt" }))
      expect(before.body.kind).toBe("success")
      own.stop()
      const during = yield* Effect.promise(() => call(server, id, "read", { path: "small.txt" }))
      expect(during.status).toBe(503)
      expect(during.body._tag).toBe("Sql.UnavailableError")
      expect(during.body.message).toMatch(/^The database is unavailable \(postgres:\/\/toolgate@127\.0\.0\.1:\d+\/\w+\): .+; the step that needed it did not happen \(toolgate tries the database again on the next call\)$/)
      const saved = yield* Effect.promise(() => server.api("/api/permission/saved"))
      expect(saved.status).toBe(503)
      expect(saved.body._tag).toBe("Sql.UnavailableError")
      own.start()
      const after = yield* waitFor(() => call(server, id, "read", { path: "small.txt" }), (answer) => answer.body?.kind === "success")
      expect(JSON.stringify(after.body)).toContain("small")
      // The failed call left no decision behind: the audit has the two reads that ran.
      const audit = yield* Effect.promise(() => server.api(`/api/audit?session=${id}`))
      expect(audit.body.data.filter((record: { action: string }) => record.action === "read").length).toBeGreaterThanOrEqual(2)
    }), 120_000)
})
