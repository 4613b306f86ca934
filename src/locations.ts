/**
 * The Locations one process hosts. `open` gives a caller a Location by its real directory:
 * two paths that name one real directory (and the same explicit config) share one Location, and
 * its services (one permission queue, one set of sessions); each caller holds a reference for its
 * scope. When the last reference goes the Location stays open for the idle period, then closes:
 * its pending asks and questions are declined, its running calls are interrupted (a bash call
 * kills its process group) and its scope is closed. The process services (process.ts) are
 * shared by all of them: one bus, one database, one table of file locks. `location.opened` is
 * published (stamped with the Location's id) before its services are built, so every event of a
 * Location comes after it, and `location.closed` once its scope is closed, or once a failed open
 * gave up.
 */
export * as Locations from "./locations.js"

import { Cause, Clock, Context, Deferred, Duration, Effect, Exit, Fiber, FiberSet, Layer, Schema, Scope, Semaphore } from "effect"
import { Bus } from "./bus.js"
import type { Directories } from "./directories.js"
import { InteractionStore } from "./interaction/store.js"
import { Location } from "./location/location.js"
import { Permission } from "./permission/permission.js"
import type { ToolgateProcess } from "./process.js"
import type { SandboxMode } from "./sandbox/mode.js"
import { Runtime } from "./runtime.js"

/** How long a Location with no reference left stays open (a server's default; the CLI passes 0). */
export const DEFAULT_IDLE = Duration.minutes(5)

export const Messages = {
  closed: (directory: string) => `The working directory ${directory} was closed`,
  /** Why its pending asks and questions were declined. */
  reason: (directory: string) => `the working directory ${directory} was closed`,
} as const

const Change = Schema.Struct({ locationID: Schema.String, directory: Schema.String })
/** A Location starts: published before its services are built, so its own events follow it. */
export const Opened = Bus.event("location.opened", Change)
/** A Location is gone: its scope closed (or its open failed). */
export const Closed = Bus.event("location.closed", Change)

/** A call that was still running when its Location closed. */
export class ClosedError extends Schema.TaggedError<ClosedError>()("Locations.ClosedError", { directory: Schema.String }) {
  override get message() {
    return Messages.closed(this.directory)
  }
}

export interface OpenOptions {
  /** The working directory; any path naming it (a link, a relative path) gives the same Location. */
  readonly directory: string
  /** `directory` is the real path the caller resolved just now (a server's every request): not resolved again. */
  readonly resolved?: boolean
  /** `--config <file>`, added after every other config file; part of what tells Locations apart. */
  readonly config?: string
  /** What an `ask` becomes; part of what tells Locations apart. */
  readonly askPolicy?: Permission.AskPolicy
  /** Registrations (plugins, a test's tools) applied when this open creates the Location. */
  readonly extra?: Runtime.Extra<unknown>
  /**
   * Leave a broken config file out instead of failing (the CLI's recovery commands, which run no
   * tool); part of what tells Locations apart, so no tool ever runs in a Location opened so.
   */
  readonly skipBrokenConfig?: boolean
  /** `--sandbox <mode>` (sandbox/mode.ts); part of what tells Locations apart. */
  readonly sandbox?: SandboxMode.Mode
}

/** One open Location as a caller holds it. */
export interface Handle {
  readonly id: string
  /** The real path. */
  readonly directory: string
  /** The Location's services, to provide to a program. */
  readonly context: Context.Context<Runtime.Services>
  /**
   * Runs `effect` in this Location as one of its calls: when the Location closes first, the
   * effect is interrupted and `run` fails with `ClosedError`.
   */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Runtime.Services | Scope.Scope>) => Effect.Effect<A, E | ClosedError>
}

export interface Info {
  readonly id: string
  readonly directory: string
  /** How many callers hold it now. */
  readonly references: number
}

export interface Interface {
  readonly open: (options: OpenOptions) => Effect.Effect<Handle, unknown, Scope.Scope>
  readonly list: Effect.Effect<ReadonlyArray<Info>>
  /**
   * Closes a Location now, whoever holds it (pending asks declined, running calls stopped); its
   * waiters are told `reason` (default: the working directory was closed).
   */
  readonly close: (id: string, reason?: string) => Effect.Effect<void>
  /** Closes every open Location now, telling their waiters `reason` (a server that stops). */
  readonly closeAll: (reason: string) => Effect.Effect<void>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Locations") {}

interface Entry {
  readonly key: string
  readonly handle: Handle
  readonly scope: Scope.Closeable
  readonly calls: FiberSet.FiberSet<unknown, unknown>
  references: number
  /** When the last reference went (epoch ms); meaningful while `references` is 0. */
  idleSince: number
  /** The entry's idle watcher, started at its first release and running until it closes. */
  idle: Fiber.Fiber<void, never> | undefined
  closed: boolean
}

const keyOf = (real: string, options: OpenOptions) => JSON.stringify([real, options.config ?? null, options.askPolicy ?? "queue", options.skipBrokenConfig === true, options.sandbox ?? null])

export interface LayerOptions {
  readonly environment?: Directories.Environment
  /** How long an unreferenced Location stays open (default `DEFAULT_IDLE`; zero closes at once). */
  readonly idle?: Duration.Input
}

export const layer = (options: LayerOptions = {}): Layer.Layer<Service, never, ToolgateProcess.Services> =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const process = yield* Effect.context<ToolgateProcess.Services>()
      const bus = Context.get(process, Bus.Service)
      /** Publishes `definition` for the Location at `real`, stamped with its id. */
      const announce = (definition: typeof Opened | typeof Closed, real: string) => {
        const locationID = Location.idOf(real)
        return bus.publish(definition, { locationID, directory: real }, locationID)
      }
      const own = yield* Effect.scope
      const idle = Duration.fromInputUnsafe(options.idle ?? DEFAULT_IDLE)
      const entries = new Map<string, Entry>()
      const opening = new Map<string, Deferred.Deferred<Entry, unknown>>()
      const lock = yield* Semaphore.make(1)

      /** Takes the entry out of the map, once; false when it was already closing. */
      const detach = (entry: Entry): boolean => {
        if (entry.closed) return false
        entry.closed = true
        entries.delete(entry.key)
        return true
      }

      /** Declines what waits for a person, stops running calls, then closes the Location's scope. */
      const finish = (entry: Entry, given?: string): Effect.Effect<void> =>
        Effect.gen(function* () {
          const services = entry.handle.context
          const reason = given ?? Messages.reason(entry.handle.directory)
          // One store holds every ask and question: closing it ends them all, saying why.
          yield* Context.get(services, InteractionStore.Service).close(reason)
          yield* FiberSet.clear(entry.calls)
          yield* Scope.close(entry.scope, Exit.void)
          yield* announce(Closed, entry.handle.directory)
        }).pipe(Effect.uninterruptible)

      /** Closes the entry now, whoever holds it. */
      const shut = (entry: Entry, reason?: string): Effect.Effect<void> =>
        Effect.gen(function* () {
          if (!detach(entry)) return
          const idle = entry.idle
          entry.idle = undefined
          if (idle !== undefined) yield* Fiber.interrupt(idle)
          yield* finish(entry, reason)
        })

      const idleMillis = Duration.toMillis(idle)
      /**
       * How long the watcher of `entry` sleeps next; "close" once it was unreferenced for the
       * whole idle period (then it is detached), "stop" when it ends without closing (a used
       * Location with no idle period, or one closed meanwhile). Called under the lock.
       */
      const nextWake = (entry: Entry, now: number): number | "close" | "stop" => {
        if (entry.closed) return "stop"
        if (entry.references > 0) return idleMillis > 0 ? idleMillis : "stop"
        const left = idleMillis - (now - entry.idleSince)
        return left > 0 ? left : detach(entry) ? "close" : "stop"
      }
      /**
       * Closes `entry` once it has had no reference for the idle period. One watcher per entry,
       * waking once a period while it is used, rather than a timer forked at every release and
       * interrupted at the next open: a server's every request releases its Location.
       */
      const watch = (entry: Entry): Effect.Effect<void> =>
        Effect.gen(function* () {
          let wait = idleMillis
          for (;;) {
            yield* Effect.sleep(Duration.millis(wait))
            const now = yield* Clock.currentTimeMillis
            const next = yield* lock.withPermits(1)(
              Effect.sync(() => {
                const decided = nextWake(entry, now)
                // Cleared under the lock: a release after this starts a new watcher.
                if (typeof decided === "string") entry.idle = undefined
                return decided
              }),
            )
            if (next === "stop") return
            if (next === "close") return yield* finish(entry)
            wait = next
          }
        })

      const create = Effect.fnUntraced(function* (real: string, key: string, open: OpenOptions): Effect.fn.Return<Entry, unknown> {
        const scope = yield* Scope.make()
        yield* announce(Opened, real)
        const built = yield* Layer.buildWithScope(
          Runtime.locationLayer(
            {
              directory: real,
              ...(open.config === undefined ? {} : { config: open.config }),
              ...(options.environment === undefined ? {} : { environment: options.environment }),
              ...(open.askPolicy === undefined ? {} : { askPolicy: open.askPolicy }),
              ...(open.skipBrokenConfig === true ? { skipBrokenConfig: true } : {}),
              ...(open.sandbox === undefined ? {} : { sandbox: open.sandbox }),
            },
            (open.extra ?? Layer.empty) as Runtime.Extra<unknown>,
          ).pipe(Layer.provide(Layer.succeedContext(process))),
          scope,
        ).pipe(Effect.onError((cause) => Effect.andThen(Scope.close(scope, Exit.failCause(cause)), announce(Closed, real))))
        const context = Context.merge(process, built) as Context.Context<Runtime.Services>
        const calls = yield* FiberSet.make<unknown, unknown>().pipe(Scope.provide(scope))
        const location = Context.get(context, Location.Service)
        const entry: Entry = {
          key,
          scope,
          calls,
          references: 0,
          idleSince: 0,
          idle: undefined,
          closed: false,
          handle: {
            id: location.id,
            directory: location.directory,
            context,
            run: <A, E>(effect: Effect.Effect<A, E, Runtime.Services | Scope.Scope>): Effect.Effect<A, E | ClosedError> =>
              Effect.uninterruptibleMask((restore) =>
                Effect.gen(function* () {
                  if (entry.closed) return yield* new ClosedError({ directory: location.directory })
                  const fiber = yield* FiberSet.run(calls, Effect.provideContext(Effect.scoped(effect), context))
                  // The caller going away stops the call too.
                  const exit = yield* restore(Fiber.await(fiber)).pipe(Effect.onInterrupt(() => Fiber.interrupt(fiber)))
                  if (Exit.isSuccess(exit)) return exit.value as A
                  // Interrupted by the Location closing (not by the caller): say so.
                  if (entry.closed && Exit.hasInterrupts(exit)) return yield* new ClosedError({ directory: location.directory })
                  return yield* Effect.failCause(exit.cause as Cause.Cause<E>)
                }),
              ),
          },
        }
        return entry
      })

      /** The shared entry for `options`, created on first use; concurrent first opens build it once. */
      const acquire = Effect.fnUntraced(function* (open: OpenOptions): Effect.fn.Return<Entry, unknown> {
        const real = open.resolved === true ? open.directory : yield* Location.resolve(open.directory)
        const key = keyOf(real, open)
        const waiting = yield* lock.withPermits(1)(
          Effect.gen(function* () {
            const found = entries.get(key)
            if (found !== undefined) {
              found.references += 1
              return { entry: found }
            }
            const pending = opening.get(key)
            if (pending !== undefined) return { pending, creator: false as const }
            const deferred = yield* Deferred.make<Entry, unknown>()
            opening.set(key, deferred)
            return { pending: deferred, creator: true as const }
          }),
        )
        if ("entry" in waiting) return waiting.entry as Entry
        if (waiting.creator) {
          const exit = yield* Effect.exit(create(real, key, open))
          yield* lock.withPermits(1)(
            Effect.sync(() => {
              opening.delete(key)
              if (Exit.isSuccess(exit)) entries.set(key, exit.value)
            }),
          )
          yield* Deferred.done(waiting.pending, exit)
        }
        const entry = yield* Deferred.await(waiting.pending)
        yield* lock.withPermits(1)(Effect.sync(() => (entry.references += 1)))
        return entry
      })

      const release = (entry: Entry): Effect.Effect<void> =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            entry.references -= 1
            if (entry.references > 0 || entry.closed) return
            entry.idleSince = yield* Clock.currentTimeMillis
            if (entry.idle === undefined) entry.idle = yield* Effect.forkIn(watch(entry), own)
          }),
        )

      const open = (options: OpenOptions): Effect.Effect<Handle, unknown, Scope.Scope> => Effect.map(Effect.acquireRelease(acquire(options), release), (entry) => entry.handle)

      const list = Effect.sync(() =>
        [...entries.values()].map((entry): Info => ({ id: entry.handle.id, directory: entry.handle.directory, references: entry.references })),
      )

      // The Locations are read when these run, not when they are built: `toolgate serve` builds
      // closeAll before it stops listening, and one a request opened meanwhile closes too.
      const close = (id: string, reason?: string): Effect.Effect<void> =>
        Effect.suspend(() => Effect.forEach([...entries.values()].filter((entry) => entry.handle.id === id), (entry) => shut(entry, reason), { discard: true }))
      const closeAll = (reason: string): Effect.Effect<void> =>
        Effect.suspend(() => Effect.forEach([...entries.values()], (entry) => shut(entry, reason), { discard: true, concurrency: "unbounded" }))

      yield* Effect.addFinalizer(() => Effect.forEach([...entries.values()], (entry) => shut(entry), { discard: true }))
      return Service.of({ open, list, close, closeAll })
    }),
  )
