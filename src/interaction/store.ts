/**
 * The pending interactions of a Location's sessions, permission requests and questions alike,
 * with one lifecycle. `ask` adds an entry, announces it, offers it to the answerers watching its
 * session and waits; only the wait is interruptible, and the entry is removed on every exit path.
 * `answer` checks and takes an entry in one synchronous step, so of racing answers exactly one
 * wins and the others fail with `AlreadyAnsweredError`; an answer the entry's kind refuses fails
 * with `InvalidAnswerError` and leaves it pending. Whoever settles an entry runs its kind's
 * bookkeeping (publish, save, record, follow-ups) before the waiter wakes, and the waiter wakes
 * even if that fails. An ask nobody answers stays pending until answered, its session ends
 * (`endSession`) or the store closes (`close`, with the reason every waiter is told).
 *
 * On a PostgreSQL servers share (interaction/shared.ts), a pending ask is also stored there for
 * every server to see and answer; the database then decides which answer wins (`claim`), here
 * or on another server, and a reply given elsewhere settles the entry here.
 */
export * as InteractionStore from "./store.js"

import { Context, Deferred, Effect, Layer, Option, Queue, Scope } from "effect"
import type { Answerer } from "./answerer.js"
import { Interaction } from "./interaction.js"
import { SharedAsks } from "./shared.js"
import { Tracing } from "../tracing.js"

/** How many settled ids are remembered, so a late answer hears "already answered" rather than "not found". */
export const SETTLED_MEMORY = 10_000

export interface AskInput<K extends Interaction.Kind> {
  readonly kind: K
  readonly id: string
  readonly sessionID: string
  readonly payload: Interaction.Payloads[K]
  readonly createdAt: number
  /** Why `answer` cannot settle this interaction (it then stays pending), or undefined when it can. */
  readonly check?: (answer: Interaction.Answers[K]) => string | undefined
  /** Announces the interaction (its kind's bus event), once it is pending. */
  readonly announce: Effect.Effect<void>
  /**
   * The kind's bookkeeping for a settlement, run uninterruptibly by whoever settled it before the
   * waiter wakes. A failure (a defect) is that settler's; the waiter wakes regardless.
   */
  readonly settled: (settlement: Interaction.Settlement<K>) => Effect.Effect<void>
}

export interface Interface {
  /** Adds a pending interaction and waits until it is settled. After `close`, ends at once. */
  readonly ask: <K extends Interaction.Kind>(input: AskInput<K>) => Effect.Effect<Interaction.Settlement<K>>
  /** The first valid answer wins; later ones fail with `AlreadyAnsweredError`. */
  readonly answer: (id: string, answer: Interaction.Answer) => Effect.Effect<void, Interaction.AnswerError>
  /**
   * Settles a pending interaction as a follow-up of another answer (`released`), for its kind's
   * own use; false when it was no longer pending.
   */
  readonly release: (id: string, answer: Interaction.Answer) => Effect.Effect<boolean>
  /** Every pending interaction, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Interaction.Pending>>
  readonly get: (id: string) => Effect.Effect<Interaction.Pending, Interaction.NotFoundError>
  /** The pending interactions of one session, permissions and questions together, oldest first. */
  readonly forSession: (sessionID: string) => Effect.Effect<ReadonlyArray<Interaction.Pending>>
  /** Ends every pending interaction of a session (its waiters are told `reason`); returns how many. */
  readonly endSession: (sessionID: string, reason?: string) => Effect.Effect<number>
  /** Ends every pending interaction and every later ask at once, telling their waiters `reason`. */
  readonly close: (reason: string) => Effect.Effect<void>
  /**
   * Attaches an answerer to one session, or to every session when `sessionID` is absent, for the
   * caller's scope. It is offered what is pending now and everything asked later.
   */
  readonly attach: (answerer: Answerer.Answerer, sessionID?: string) => Effect.Effect<void, never, Scope.Scope>
  /** Whether an answerer watching this session denies asks at once (the `deny` policy). */
  readonly denies: (sessionID: string) => Effect.Effect<boolean>
  /** Waits until the interaction is no longer pending (at once when it is not), however it was settled. */
  readonly settled: (id: string) => Effect.Effect<void>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/InteractionStore") {}

interface Entry {
  readonly pending: Interaction.Pending
  readonly check: (answer: Interaction.Answer) => string | undefined
  readonly settled: (settlement: Interaction.Settlement) => Effect.Effect<void>
  readonly deferred: Deferred.Deferred<Interaction.Settlement>
}

interface Watcher {
  readonly answerer: Answerer.Answerer
  readonly sessionID: string | undefined
  readonly queue: Queue.Queue<Interaction.Pending>
}

const watches = (watcher: Watcher, sessionID: string) => watcher.sessionID === undefined || watcher.sessionID === sessionID

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const shared = Option.getOrUndefined(yield* Effect.serviceOption(SharedAsks.Service))
    const entries = new Map<string, Entry>()
    /** Replies other servers claimed for asks of ours not yet pending here (they were being shared). */
    const earlyAnswers = new Map<string, Interaction.Answer>()
    const settledIDs = new Set<string>()
    const watchers = new Set<Watcher>()
    /** Set by `close`: the reason every later ask ends with at once. */
    const state: { closed?: string } = {}

    /** Removes an entry and reports whether this caller was the one that removed it. */
    const takeNow = (id: string) => {
      const entry = entries.get(id)
      if (entry === undefined) return undefined
      entries.delete(id)
      settledIDs.add(id)
      // Forget the oldest settled ids first (a Set iterates in insertion order).
      if (settledIDs.size > SETTLED_MEMORY) settledIDs.delete(settledIDs.values().next().value as string)
      return entry
    }

    /** Runs a taken entry's bookkeeping and wakes its waiter, whatever happens to the bookkeeping. */
    const settle = (entry: Entry, settlement: Interaction.Settlement) =>
      entry.settled(settlement).pipe(Effect.ensuring(Deferred.succeed(entry.deferred, settlement)), Effect.uninterruptible)

    const offer = (pending: Interaction.Pending, to: ReadonlyArray<Watcher>) =>
      Effect.forEach(to.filter((watcher) => watches(watcher, pending.sessionID)), (watcher) => Queue.offer(watcher.queue, pending), { discard: true })

    const askAny = Effect.fnUntraced(function* (input: AskInput<Interaction.Kind>) {
      if (state.closed !== undefined) return { type: "ended", cause: "closed", reason: state.closed } satisfies Interaction.Settlement
      const deferred = yield* Deferred.make<Interaction.Settlement>()
      // The store checks an answer's kind before `check` sees it, so the entry's own types hold.
      const entry: Entry = {
        pending: { id: input.id, sessionID: input.sessionID, kind: input.kind, payload: input.payload, createdAt: input.createdAt } as Interaction.Pending,
        check: (input.check ?? (() => undefined)) as Entry["check"],
        settled: input.settled as Entry["settled"],
        deferred,
      }
      // The answerers watching when the entry is set, read in that same step, not when this is
      // built: one that attached while the ask was shared (a round trip to PostgreSQL) found no
      // entry and would never be offered it; one that attaches later finds the entry (`attach`).
      const watching: Array<Watcher> = []
      // Only the wait is interruptible: an interruption can never fall between adding the entry
      // and installing what removes it.
      return yield* Effect.uninterruptibleMask((restore) =>
        // Shared before it is pending here: an ask the database cannot hold is not made, and one
        // listed here can be answered from every server.
        (shared === undefined ? Effect.void : shared.open(entry.pending, (answer) => answeredElsewhere(input.id, answer), endedElsewhere(input.id))).pipe(
          Effect.andThen(Effect.sync(() => {
            entries.set(input.id, entry)
            watching.push(...watchers)
          })),
          // A reply another server gave before the entry was here settles it now.
          Effect.andThen(Effect.suspend(() => {
            const early = earlyAnswers.get(input.id)
            earlyAnswers.delete(input.id)
            return early === undefined ? Effect.void : answeredElsewhere(input.id, early)
          })),
          Effect.andThen(input.announce),
          Effect.andThen(Effect.suspend(() => offer(entry.pending, watching))),
          Effect.andThen(restore(Deferred.await(deferred))),
          Effect.onInterrupt(() =>
            Effect.suspend(() => {
              const taken = takeNow(input.id)
              return taken === undefined ? Effect.void : settle(taken, { type: "ended", cause: "interrupted", reason: Interaction.Reasons.interrupted })
            }),
          ),
          Effect.ensuring(Effect.sync(() => {
            entries.delete(input.id)
            earlyAnswers.delete(input.id)
          })),
          // However it settled, no server offers it any more (a database down leaves the row, which no owner answers).
          Effect.ensuring(shared === undefined ? Effect.void : Effect.ignoreCause(shared.close(input.id))),
        ),
      )
    })

    /** Another server ended an entry of ours (it found this server unreachable): the call stops waiting, interrupted. */
    const endedElsewhere = (id: string) =>
      Effect.suspend(() => {
        const taken = takeNow(id)
        return taken === undefined ? Effect.void : settle(taken, { type: "ended", cause: "interrupted", reason: Interaction.Reasons.interrupted })
      }).pipe(Effect.uninterruptible)

    /** A reply another server claimed for an entry of ours; one this entry refuses is a refusal (fail closed). */
    const answeredElsewhere = (id: string, answer: Interaction.Answer) =>
      Effect.suspend(() => {
        const entry = entries.get(id)
        if (entry === undefined) {
          if (!settledIDs.has(id)) earlyAnswers.set(id, answer)
          return Effect.void
        }
        const valid = Interaction.kindOf(answer) === entry.pending.kind && entry.check(answer) === undefined
        const taken = takeNow(id) as Entry
        return settle(taken, { type: "answered", answer: valid ? answer : Interaction.refusal(entry.pending.kind) })
      }).pipe(Effect.uninterruptible)

    const ask = <K extends Interaction.Kind>(input: AskInput<K>) =>
      askAny(input as unknown as AskInput<Interaction.Kind>).pipe(Effect.withSpan("InteractionStore.ask")) as Effect.Effect<Interaction.Settlement<K>>

    /** Why `answer` cannot settle `id` now, or its entry. */
    const checkNow = (id: string, answer: Interaction.Answer) => {
      const entry = entries.get(id)
      if (entry === undefined) return settledIDs.has(id) ? new Interaction.AlreadyAnsweredError({ id }) : new Interaction.NotFoundError({ id })
      const kind = Interaction.kindOf(answer)
      const detail = kind === entry.pending.kind ? entry.check(answer) : Interaction.Messages.wrongKind(entry.pending.kind, answer.reply)
      return detail === undefined ? entry : new Interaction.InvalidAnswerError({ id, detail })
    }

    /** Whether this process may settle `id` with `answer`: on a shared database, only the answer that claimed it there. */
    const claimed = (id: string, answer: Interaction.Answer) => (shared === undefined ? Effect.succeed(true) : shared.claim(id, answer))

    // Checking and taking are one synchronous step: a concurrent answer finds the entry gone. On a
    // shared database the claim there decides first: an answer another server gave wins over ours.
    const answer = Effect.fn("InteractionStore.answer")(function* (id: string, answer: Interaction.Answer) {
      const checked = yield* Effect.sync(() => checkNow(id, answer))
      if (!("pending" in checked)) return yield* checked
      if (!(yield* claimed(id, answer))) return yield* new Interaction.AlreadyAnsweredError({ id })
      const taken = takeNow(id)
      if (taken === undefined) return yield* new Interaction.AlreadyAnsweredError({ id })
      yield* settle(taken, { type: "answered", answer })
    }, Effect.uninterruptible)

    const release = (id: string, answer: Interaction.Answer) =>
      Effect.gen(function* () {
        if (!entries.has(id) || !(yield* claimed(id, answer))) return false
        const taken = takeNow(id)
        if (taken === undefined) return false
        yield* settle(taken, { type: "released", answer })
        return true
      }).pipe(Effect.uninterruptible)

    const end = (selected: (entry: Entry) => boolean, cause: Interaction.EndCause, reason: string) =>
      Effect.suspend(() => {
        const taken = [...entries.values()].filter(selected).flatMap((entry) => takeNow(entry.pending.id) ?? [])
        return Effect.as(Effect.forEach(taken, (entry) => settle(entry, { type: "ended", cause, reason }), { discard: true }), taken.length)
      }).pipe(Effect.uninterruptible)

    const endSession = (sessionID: string, reason: string = Interaction.Reasons.sessionEnded) =>
      end((entry) => entry.pending.sessionID === sessionID, "session", reason).pipe(Effect.withSpan("InteractionStore.endSession"))

    const close = (reason: string) =>
      Effect.suspend(() => {
        state.closed ??= reason
        return Effect.asVoid(end(() => true, "closed", reason))
      }).pipe(Effect.withSpan("InteractionStore.close"))

    const list = Effect.sync(() => [...entries.values()].map((entry) => entry.pending))
    const get = (id: string) =>
      Effect.suspend(() => {
        const entry = entries.get(id)
        return entry === undefined ? Effect.fail(new Interaction.NotFoundError({ id })) : Effect.succeed(entry.pending)
      })
    const forSession = (sessionID: string) => Effect.map(list, (pending) => pending.filter((entry) => entry.sessionID === sessionID))
    const settled = (id: string) =>
      Effect.suspend(() => {
        const entry = entries.get(id)
        return entry === undefined ? Effect.void : Effect.asVoid(Deferred.await(entry.deferred))
      })

    /** One offered interaction: skipped once settled; an invalid answer is replaced by a refusal (fail closed). */
    const serve = Effect.fnUntraced(function* (answerer: Answerer.Answerer, pending: Interaction.Pending) {
      if (!entries.has(pending.id)) return
      const chosen = yield* answerer.handle(pending)
      if (chosen === undefined) return
      yield* answer(pending.id, chosen).pipe(
        Effect.catchTag("Interaction.InvalidAnswerError", () => answer(pending.id, Interaction.refusal(pending.kind))),
        // Someone else answered first, or it ended meanwhile: this answerer sees it settled.
        Effect.catchTags({ "Interaction.AlreadyAnsweredError": () => Effect.void, "Interaction.NotFoundError": () => Effect.void, "Interaction.InvalidAnswerError": () => Effect.void }),
      )
    })

    const attach = Tracing.fn("InteractionStore.attach")(function* (answerer: Answerer.Answerer, sessionID?: string) {
      const queue = yield* Queue.unbounded<Interaction.Pending>()
      const watcher: Watcher = { answerer, sessionID, queue }
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          watchers.add(watcher)
          for (const entry of entries.values()) if (watches(watcher, entry.pending.sessionID)) Queue.offerUnsafe(queue, entry.pending)
        }),
        () => Effect.sync(() => watchers.delete(watcher)),
      )
      yield* Queue.take(queue).pipe(
        Effect.flatMap((pending) =>
          serve(answerer, pending).pipe(
            // A defect in one settlement's bookkeeping (the database) is the settler's to report,
            // and its waiter woke regardless; the answerer must go on answering what comes next.
            Effect.catchDefect((defect) => Effect.logError("InteractionStore: an answer's bookkeeping failed", defect)),
          ),
        ),
        Effect.forever,
        Effect.forkScoped,
      )
    })

    const denies = (sessionID: string) => Effect.sync(() => [...watchers].some((watcher) => watcher.answerer.denies === true && watches(watcher, sessionID)))

    yield* Effect.addFinalizer(() => close(Interaction.Reasons.locationClosed))
    return Service.of({ ask, answer, release, list, get, forSession, endSession, close, attach, denies, settled })
  }),
)

export const defaultLayer = layer
