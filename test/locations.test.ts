/**
 * Many Locations in one process (issue 13, item 1): shared by real directory, one bus with each
 * event stamped, one lock table, separate rules, idle close that declines what waits for a person
 * and stops running calls, and reopening. Real directories, real database, real bash.
 */
import { execFileSync } from "node:child_process"
import { mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Schedule, Scope, Stream } from "effect"
import { Bus } from "../src/bus.js"
import { Interaction } from "../src/interaction/interaction.js"
import { FileMutation } from "../src/location/file-mutation.js"
import { Location } from "../src/location/location.js"
import { Locations } from "../src/locations.js"
import { Permission } from "../src/permission/permission.js"
import { ToolgateProcess } from "../src/process.js"
import { SessionTurn } from "../src/session/turn.js"
import { tmpdir } from "./lib/tmp.js"

/** An argument no other process has: how many `sleep` processes of this test are running. */
const SLEEP_MARK = "31.4159"
const sleepers = () =>
  execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.trim() === `sleep ${SLEEP_MARK}`).length

/** How many references each open Location has, now. */
const referencesOf = (locations: Locations.Interface) => Effect.map(locations.list, (infos) => infos.map((info) => info.references))

/** A process with `Locations` over a temp data dir and home; `idle` as given. */
const hosting = (root: string, idle: number) => {
  const environment = { env: { TOOLGATE_DATA_DIR: path.join(root, "data") }, home: path.join(root, "home") }
  return Locations.layer({ environment, idle }).pipe(Layer.provideMerge(ToolgateProcess.layer({ environment })))
}

/** Two project folders under a fresh root, `b` denying every bash command. */
const folders = Effect.gen(function* () {
  const root = yield* tmpdir
  const a = path.join(root, "a")
  const b = path.join(root, "b")
  yield* Effect.promise(async () => {
    await mkdir(path.join(root, "home"), { recursive: true })
    await mkdir(a)
    await mkdir(b)
    await writeFile(path.join(b, "toolgate.json"), JSON.stringify({ permission: [{ action: "bash", resource: "*", effect: "deny" }] }))
  })
  return { root, a, b }
})

const decide = (handle: Locations.Handle, resource: string) =>
  handle.run(
    Effect.gen(function* () {
      const session = yield* SessionTurn.session({})
      const permission = yield* Permission.Service
      return (yield* permission.decide({ sessionID: session.id, action: "bash", resources: [resource] })).effect
    }),
  )

describe("Locations", () => {
  it.live("gives every path naming one real directory the same Location, and another directory its own", () =>
    Effect.gen(function* () {
      const { root, a, b } = yield* folders
      yield* Effect.promise(() => symlink(a, path.join(root, "link-to-a")))
      const { first, again, linked, other } = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const first = yield* locations.open({ directory: a })
        const again = yield* locations.open({ directory: path.join(a, "..", "a") })
        const linked = yield* locations.open({ directory: path.join(root, "link-to-a") })
        const other = yield* locations.open({ directory: b })
        expect((yield* locations.list).map((info) => [info.directory, info.references]).sort()).toEqual([
          [a, 3],
          [b, 1],
        ])
        return { first, again, linked, other }
      }).pipe(Effect.provide(hosting(root, 60_000)))
      expect(again.id).toBe(first.id)
      expect(linked.id).toBe(first.id)
      expect(Context.get(again.context, Permission.Service)).toBe(Context.get(first.context, Permission.Service))
      expect(other.id).not.toBe(first.id)
      expect(first.id).toBe(Location.idOf(a))
      // One process: one lock table for both.
      expect(Context.get(other.context, FileMutation.Service)).toBe(Context.get(first.context, FileMutation.Service))
    }))

  it.live("keeps each Location's rules apart", () =>
    Effect.gen(function* () {
      const { root, a, b } = yield* folders
      const [inA, inB] = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const handleA = yield* locations.open({ directory: a })
        const handleB = yield* locations.open({ directory: b })
        return [yield* decide(handleA, "ls"), yield* decide(handleB, "ls")] as const
      }).pipe(Effect.provide(hosting(root, 60_000)))
      expect(inA).toBe("allow")
      expect(inB).toBe("deny")
    }))

  it.live("stamps every event with its Location, and a Location's own subscribers see only its events", () =>
    Effect.gen(function* () {
      const { root, a, b } = yield* folders
      const seen = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const processBus = yield* Bus.Service
        const handleA = yield* locations.open({ directory: a })
        const handleB = yield* locations.open({ directory: b })
        const all = yield* processBus.subscribe
        const onlyA = yield* Context.get(handleA.context, Bus.Service).subscribe
        for (const handle of [handleA, handleB]) {
          yield* handle.run(
            Effect.gen(function* () {
              const session = yield* SessionTurn.session({})
              return yield* SessionTurn.settle({ session, call: { id: `call_${handle.id}`, name: "todowrite", input: { todos: [] } } })
            }),
          )
        }
        const everything = yield* all.pipe(Stream.filter((event) => event.type === "tool.settled"), Stream.take(2), Stream.runCollect)
        const mine = yield* onlyA.pipe(Stream.filter((event) => event.type === "tool.settled"), Stream.take(1), Stream.runCollect)
        return { everything: [...everything].map((event) => event.location), mine: [...mine].map((event) => event.location), ids: [handleA.id, handleB.id] }
      }).pipe(Effect.provide(hosting(root, 60_000)))
      expect(seen.everything).toEqual(seen.ids)
      expect(seen.mine).toEqual([seen.ids[0]])
    }))

  it.live("an edit in one Location waits for the lock another Location holds on the same real file", () =>
    Effect.gen(function* () {
      const { root, a } = yield* folders
      const inner = path.join(a, "sub")
      yield* Effect.promise(async () => {
        await mkdir(inner)
        await writeFile(path.join(inner, "f.txt"), "one\n")
      })
      const order = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const outer = yield* locations.open({ directory: a })
        const nested = yield* locations.open({ directory: inner })
        const held = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const order: string[] = []
        const locks = Context.get(nested.context, FileMutation.Service)
        const holder = yield* Effect.forkChild(
          locks.withLock([path.join(inner, "f.txt")], Effect.andThen(Deferred.succeed(held, undefined), Deferred.await(release)).pipe(Effect.andThen(Effect.sync(() => order.push("released"))))),
        )
        yield* Deferred.await(held)
        const edit = yield* Effect.forkChild(
          outer.run(
            Effect.gen(function* () {
              const session = yield* SessionTurn.session({})
              const outcome = yield* SessionTurn.settle({ session, call: { id: "call_edit", name: "edit", input: { path: "sub/f.txt", oldString: "one", newString: "two" } } })
              order.push(outcome.kind)
            }),
          ),
        )
        // The edit cannot finish while the other Location holds the file.
        yield* Effect.sleep(300)
        order.push("still waiting")
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        yield* Fiber.join(edit)
        return order
      }).pipe(Effect.provide(hosting(root, 60_000)))
      expect(order).toEqual(["still waiting", "released", "success"])
    }))

  it.live("closes an idle Location: a pending ask is declined saying why, a running command is stopped; reopening works", () =>
    Effect.gen(function* () {
      const { root, a } = yield* folders
      yield* Effect.promise(() => writeFile(path.join(a, "toolgate.json"), JSON.stringify({ permission: [{ action: "bash", resource: "curl *", effect: "ask" }] })))
      const result = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const scope = yield* Scope.make()
        const handle = yield* locations.open({ directory: a }).pipe(Scope.provide(scope))
        const asked = yield* Deferred.make<void>()
        const asking = yield* Effect.forkChild(
          handle.run(
            Effect.gen(function* () {
              const bus = yield* Bus.Service
              const requests = yield* bus.on(Permission.Asked)
              yield* Effect.forkChild(requests.pipe(Stream.take(1), Stream.runForEach(() => Deferred.succeed(asked, undefined))))
              const session = yield* SessionTurn.session({})
              return yield* SessionTurn.settle({ session, call: { id: "call_ask", name: "bash", input: { command: "curl http://127.0.0.1:9/", description: "Fetch" } } })
            }),
          ),
        )
        const sleeping = yield* Effect.forkChild(
          handle.run(
            Effect.gen(function* () {
              const session = yield* SessionTurn.session({})
              return yield* SessionTurn.settle({ session, call: { id: "call_sleep", name: "bash", input: { command: `sleep ${SLEEP_MARK}`, description: "Wait" } } })
            }),
          ),
        )
        yield* Deferred.await(asked)
        // Both calls are under way: one waits for a person, one runs a real process.
        yield* Effect.sync(sleepers).pipe(Effect.repeat({ until: (count) => count > 0, schedule: Schedule.spaced(50) }))
        // The last reference goes: with idle 0 the Location closes at once.
        yield* Scope.close(scope, Exit.void)
        const declined = yield* Fiber.join(asking)
        const stopped = yield* Effect.exit(Fiber.join(sleeping))
        const leftRunning = sleepers()
        const reopened = yield* locations.open({ directory: a })
        const again = yield* decide(reopened, "ls")
        return { declined, stopped, again, leftRunning, open: (yield* locations.list).length }
      }).pipe(Effect.provide(hosting(root, 0)))
      expect(result.declined.kind).toBe("declined")
      expect(SessionTurn.text(result.declined)).toBe(Permission.Messages.unanswered("bash", Locations.Messages.reason(a)))
      // The sleeping call was interrupted by the close: either it settled as cancelled, or run said the Location closed.
      const stopped = result.stopped
      const kind = stopped._tag === "Success" ? stopped.value.kind : (stopped.cause.reasons[0] as { error?: { _tag?: string } } | undefined)?.error?._tag
      expect(["cancelled", "Locations.ClosedError"]).toContain(kind)
      // Its process was killed, not left behind.
      expect(result.leftRunning).toBe(0)
      expect(result.again).toBe("allow")
      expect(result.open).toBe(1)
    }))

  it.live("a closeAll built before a Location opened closes that one too when it runs: its call waiting for a person ends", () =>
    Effect.gen(function* () {
      const { root, a } = yield* folders
      yield* Effect.promise(() => writeFile(path.join(a, "toolgate.json"), JSON.stringify({ permission: [{ action: "bash", resource: "curl *", effect: "ask" }] })))
      const result = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        // Built with nothing open, as `toolgate serve` builds it before it stops listening.
        const closing = locations.closeAll(Interaction.Reasons.serverStopped)
        const handle = yield* locations.open({ directory: a })
        const asked = yield* Deferred.make<void>()
        const asking = yield* Effect.forkChild(
          handle.run(
            Effect.gen(function* () {
              const requests = yield* (yield* Bus.Service).on(Permission.Asked)
              yield* Effect.forkChild(requests.pipe(Stream.take(1), Stream.runForEach(() => Deferred.succeed(asked, undefined))))
              const session = yield* SessionTurn.session({})
              return yield* SessionTurn.settle({ session, call: { id: "call_ask", name: "bash", input: { command: "curl http://127.0.0.1:9/", description: "Fetch" } } })
            }),
          ),
        )
        yield* Deferred.await(asked)
        yield* closing
        const open = (yield* locations.list).length
        // Joined only once closed: left open, the call would wait for a person forever.
        return { open, ended: open === 0 ? yield* Effect.exit(Fiber.join(asking)) : undefined }
      }).pipe(Effect.provide(hosting(root, 60_000)))
      expect(result.open).toBe(0)
      // Its ask declined, the call settled, or was cut off by the close first.
      const ended = result.ended
      const kind = ended === undefined ? undefined : ended._tag === "Success" ? ended.value.kind : (ended.cause.reasons[0] as { error?: { _tag?: string } } | undefined)?.error?._tag
      expect(["declined", "Locations.ClosedError"]).toContain(kind)
    }))

  it.live("keeps an unreferenced Location open for the idle period, and a reopen inside it keeps it", () =>
    Effect.gen(function* () {
      const { root, a } = yield* folders
      const result = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const references = referencesOf(locations)
        const first = yield* Effect.scoped(locations.open({ directory: a }))
        const idleAfterFirst = yield* references
        const second = yield* Effect.scoped(locations.open({ directory: a }))
        const shared = second.context === first.context
        // Poll until the idle timer closes it (no timing is asserted, only the order of states).
        const gone = yield* references.pipe(Effect.repeat({ until: (refs) => refs.length === 0, schedule: Schedule.spaced(50) }))
        return { idleAfterFirst, shared, gone }
      }).pipe(Effect.provide(hosting(root, 300)))
      expect(result.idleAfterFirst).toEqual([0])
      expect(result.shared).toBe(true)
      expect(result.gone).toEqual([])
    }))

  it.live("closes a Location an idle period after its last release, not its first: one used again and again, or held past the period, stays open", () =>
    Effect.gen(function* () {
      const { root, a } = yield* folders
      const result = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const references = referencesOf(locations)
        const first = yield* Effect.scoped(locations.open({ directory: a }))
        // Released and opened again for three idle periods: the same Location every time.
        const reused: boolean[] = []
        for (let round = 0; round < 12; round++) {
          yield* Effect.sleep(100)
          reused.push((yield* Effect.scoped(locations.open({ directory: a }))).context === first.context)
        }
        // Held for two idle periods: still the same Location, with its reference.
        const held = yield* Effect.scoped(
          Effect.gen(function* () {
            const handle = yield* locations.open({ directory: a })
            yield* Effect.sleep(800)
            return { same: handle.context === first.context, refs: yield* references }
          }),
        )
        const afterHold = (yield* Effect.scoped(locations.open({ directory: a }))).context === first.context
        const gone = yield* references.pipe(Effect.repeat({ until: (refs) => refs.length === 0, schedule: Schedule.spaced(50) }))
        return { reused, held, afterHold, gone }
      }).pipe(Effect.provide(hosting(root, 400)))
      expect(result.reused).toEqual(Array.from({ length: 12 }, () => true))
      expect(result.held).toEqual({ same: true, refs: [1] })
      expect(result.afterHold).toBe(true)
      expect(result.gone).toEqual([])
    }))

  it.live("publishes location.opened before any event of a Location and location.closed once it is closed, or once its open failed", () =>
    Effect.gen(function* () {
      const { root, a } = yield* folders
      const broken = path.join(root, "broken")
      yield* Effect.promise(async () => {
        await mkdir(broken)
        await writeFile(path.join(broken, "toolgate.json"), "{")
      })
      const seen = yield* Effect.gen(function* () {
        const locations = yield* Locations.Service
        const all = yield* Effect.flatMap(Bus.Service, (bus) => bus.subscribe)
        const handle = yield* locations.open({ directory: a })
        yield* locations.close(handle.id)
        const failure = yield* Effect.scoped(locations.open({ directory: broken })).pipe(Effect.flip)
        const events = yield* all.pipe(
          Stream.takeUntil((event) => event.type === Locations.Closed.type && (event.payload as { directory: string }).directory === broken),
          Stream.runCollect,
        )
        return { events: [...events], failure }
      }).pipe(Effect.provide(hosting(root, 60_000)))
      expect((seen.failure as { _tag: string })._tag).toBe("Config.SyntaxError")
      const ids = { a: Location.idOf(a), broken: Location.idOf(broken) }
      const changes = seen.events.filter((event) => event.type === Locations.Opened.type || event.type === Locations.Closed.type)
      expect(changes).toEqual([
        { type: "location.opened", payload: { locationID: ids.a, directory: a }, location: ids.a },
        { type: "location.closed", payload: { locationID: ids.a, directory: a }, location: ids.a },
        { type: "location.opened", payload: { locationID: ids.broken, directory: broken }, location: ids.broken },
        { type: "location.closed", payload: { locationID: ids.broken, directory: broken }, location: ids.broken },
      ])
      // Whatever a's services published while they were built comes between its two events.
      const ofA = seen.events.filter((event) => event.location === ids.a).map((event) => event.type)
      expect(ofA.length).toBeGreaterThan(2)
      expect([ofA[0], ofA.at(-1)]).toEqual(["location.opened", "location.closed"])
    }))
})
