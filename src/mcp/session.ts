/**
 * One MCP connection as one toolgate session, independent of the SDK (server.ts speaks the wire).
 * `tools` is the session's catalog now; `call` runs a `tools/call` round through the one call path.
 *
 * A call keeps running across rounds. The first round starts it (its own toolCallID and a new
 * message id, so every call can be reverted on its own) and waits for whichever comes first: the
 * outcome, or an ask of that call. An ask goes back to the client as form elicitations with a
 * sealed `requestState` naming the call and the asks (request-state.ts); the retried call carries
 * the answers, they settle the pending asks in the interaction store, and the round waits again.
 * Nothing is run twice and nothing is asked twice. A client that cannot elicit is answered by
 * `mcp.on_ask` instead: `reject` with a text saying what would allow it, `deny`, or `console`
 * (left pending for a person in the console this process serves, console.ts); so is every
 * client of a server started inside a toolgate tool call (the agent cannot approve its own asks
 * by running `toolgate mcp` with a client of its own). An ask handed
 * to the client and unanswered for `mcp.ask_timeout` ends the session's asks (a reject). A round
 * that is interrupted (the client cancelled, the connection closed) interrupts the call, which
 * kills its process group.
 */
export * as McpSession from "./session.js"

import { Clock, Effect, Exit, Fiber, Queue, Scope } from "effect"
import { Answerer } from "../interaction/answerer.js"
import type { Interaction } from "../interaction/interaction.js"
import { InteractionStore } from "../interaction/store.js"
import { Location } from "../location/location.js"
import type { PermissionRequest } from "../permission/request.js"
import type { Runtime } from "../runtime.js"
import type { Session } from "../session.js"
import { SessionTurn } from "../session/turn.js"
import { Id } from "../storage/id.js"
import { JsonDepth } from "../json-depth.js"
import { Tool } from "../tool/tool.js"
import type { ToolRegistry } from "../tool/registry.js"
import { ToolOutputStore } from "../tool-output-store.js"
import { McpAskForm } from "./ask-form.js"
import { McpRequestState } from "./request-state.js"
import { McpResult } from "./result.js"

export const ON_ASK = ["reject", "deny", "console"] as const
export type OnAsk = (typeof ON_ASK)[number]

/** Ten minutes: how long an ask handed to the client may stay unanswered. */
export const DEFAULT_ASK_TIMEOUT_MS = 600_000

/**
 * How long after its ask timed out (or its call ended) a retried call still finds the call: it
 * then reads how the call ended instead of a refused state.
 */
export const GRACE_MS = 60_000

/** A duration as a person reads it: "300 ms", "45 s", "10 min". */
export const duration = (ms: number) => (ms < 1_000 ? `${ms} ms` : ms < 60_000 || ms % 60_000 !== 0 ? `${Math.round(ms / 1_000)} s` : `${ms / 60_000} min`)

const rule = (action: string, pattern: string) => `{ "action": ${JSON.stringify(action)}, "resource": ${JSON.stringify(pattern)}, "effect": "allow" }`

export const Messages = {
  /** What the model (and through it the person) reads when the client could not show an ask. */
  cannotAsk: (request: PermissionRequest.Request) => {
    const patterns = request.save.length > 0 ? request.save : request.resources
    return [
      `toolgate needed a person to approve ${request.action} on ${request.resources.join(", ")}, and this MCP client cannot show approval forms (elicitation), so it was refused.`,
      `To allow it, add to the "permission" list of toolgate.json in the project: ${patterns.map((pattern) => rule(request.action, pattern)).join(", ")}; then run \`toolgate trust\` in the project and call the tool again.`,
      `\`toolgate permission eval ${request.action} ${patterns.map((pattern) => JSON.stringify(pattern)).join(" ")} --explain\` shows which rule decides it now.`,
    ].join("\n")
  },
  cannotAskQuestion: "This MCP client cannot show questions (elicitation), so toolgate could not ask the person. Ask them in your reply instead.",
  unanswered: (ms: number) => `nobody answered within ${duration(ms)}`,
  /** The reason an ask left to the console ends with (the address without its token: the model reads it). */
  /** What a client that shows progress reads while a call waits in the console (the address without its token). */
  waitingInConsole: (url: string) => `Waiting for a person to answer in the toolgate console: ${url}`,
  consoleUnanswered: (ms: number, url: string) => `nobody answered in the toolgate console (${url}) within ${duration(ms)}`,
  gone: "The call these answers were for has already ended; nothing was answered. Call the tool again to be asked anew.",
  instructions: (sessionID: string, directory: string) =>
    [
      `toolgate session ${sessionID}, working directory ${directory}.`,
      "Every tool call goes through toolgate's permission gate: some calls ask the person first, and a refused call says why.",
      "A result saying the person stopped the agent means: stop and wait for their instructions.",
      `Revert this session's changes with \`toolgate session revert ${sessionID} <message>\` (each result's _meta names its message).`,
    ].join("\n"),
} as const

export interface Options {
  readonly session: Session.Info
  readonly model?: string
  readonly onAsk: OnAsk
  readonly askTimeoutMs: number
  readonly sealer: McpRequestState.Sealer
  /**
   * False when this server runs inside a toolgate tool call (TOOLGATE_TOOL_CALL is set): its
   * client is then the agent itself, which must not answer its own asks; `on_ask` answers them.
   */
  readonly clientMayAnswer: boolean
  /**
   * The console of `on_ask: "console"` (console.ts): asks the client cannot show are left pending
   * for it, each until `askTimeoutMs`. Without one, `console` answers as `reject` does.
   */
  readonly console?: { readonly url: string }
}

/** One tools/call round as the wire carries it. */
export interface CallInput {
  readonly name: string
  readonly args: unknown
  /** The `requestState` a retried call carries back, verbatim. */
  readonly state?: string
  /** The answers of a retried call, by the keys this server gave its input requests. */
  readonly responses?: Readonly<Record<string, unknown>>
  /** Whether the client declared form elicitation. */
  readonly elicits: boolean
  readonly era: McpResult.Era
  /** Tells the client, while the call waits, what it waits for (a progress notification): an ask left to the console. */
  readonly waiting?: (text: string) => void
}

export type Round =
  | { readonly type: "result"; readonly result: McpResult.Result }
  | {
      readonly type: "input"
      /** One form per pending ask, keyed by the ask's id. */
      readonly requests: Readonly<Record<string, McpAskForm.Form>>
      readonly state: string
      /** The call that waits (for `cancel`). */
      readonly call: string
    }

export interface Definition extends Tool.Definition {
  readonly _meta: Readonly<Record<string, unknown>>
}

export interface Interface {
  readonly session: Session.Info
  /** The tools the session sees now, sorted by name. */
  readonly tools: Effect.Effect<ReadonlyArray<Definition>>
  readonly call: (input: CallInput) => Effect.Effect<Round>
  /** Waits until an ask handed to the client is no longer pending (answered here, by anyone else, or ended). */
  readonly settled: (ask: string) => Effect.Effect<void>
  /** Stops a call that waits between rounds (its client gave up on it). */
  readonly cancel: (call: string) => Effect.Effect<void>
  readonly instructions: string
  /** The Location's real directory. */
  readonly directory: string
}

interface Flight {
  readonly id: string
  readonly name: string
  readonly digest: string
  readonly messageID: string
  readonly fiber: Fiber.Fiber<SessionTurn.Outcome>
  /** Asks of this call not yet handed to the client, in ask order. */
  readonly asks: Queue.Queue<Interaction.Pending>
  /** Asks handed to the client and not answered yet, by id. */
  readonly outstanding: Map<string, Interaction.Pending>
  /** The catalog the call ran against (its output schema is what the result is shaped by). */
  readonly catalog: ToolRegistry.Catalog
  /** How to tell the client that is waiting on the call now what it waits for. */
  waiting?: (text: string) => void
}

const toolCallOf = (pending: Interaction.Pending) => pending.payload.source.toolCallID

/** The session of one MCP connection, for the caller's scope (the connection). */
export const make = Effect.fnUntraced(function* (options: Options) {
  const store = yield* InteractionStore.Service
  const output = yield* ToolOutputStore.Service
  const scope = yield* Scope.Scope
  const location = yield* Location.Service
  const services = yield* Effect.context<Runtime.Services>()
  const { session } = options
  const flights = new Map<string, Flight>()
  const meta = { [McpResult.Meta.maxResultSize]: McpResult.maxResultSize(output.limits.maxBytes) }

  // The catalog last listed is the one calls run against (as a turn runs against what the model
  // was shown): materialized at tools/list, or at the first call when nothing was listed yet.
  let shown: ToolRegistry.Catalog | undefined
  const catalog = SessionTurn.catalog(session, options.model).pipe(
    Effect.provideContext(services),
    Effect.tap((made) => Effect.sync(() => (shown = made))),
  )
  const current = Effect.suspend(() => (shown === undefined ? catalog : Effect.succeed(shown)))
  const tools = Effect.map(catalog, (made) => made.definitions.map((definition): Definition => ({ ...definition, _meta: meta })))

  // Who answers this session's asks is decided once, by the first call's client capabilities.
  let decided = false
  const viaClient: Answerer.Answerer = {
    handle: (pending) =>
      Effect.gen(function* () {
        const flight = flights.get(toolCallOf(pending))
        if (flight !== undefined) yield* Queue.offer(flight.asks, pending)
        // Left pending: the client's answer settles it when the retried call brings it.
        return undefined
      }),
  }
  // Left pending for a person in the console; still pending after the timeout, the session's asks end.
  const viaConsole = (url: string): Answerer.Answerer => ({
    handle: (pending) =>
      Effect.sync(() => flights.get(toolCallOf(pending))?.waiting?.(Messages.waitingInConsole(url))).pipe(
        Effect.andThen(Effect.raceFirst(Effect.as(store.settled(pending.id), false), Effect.as(Effect.sleep(options.askTimeoutMs), true))),
        Effect.flatMap((expired) => (expired ? store.endSession(session.id, Messages.consoleUnanswered(options.askTimeoutMs, url)) : Effect.void)),
        Effect.forkIn(scope),
        Effect.as(undefined),
      ),
  })
  const byPolicy =
    options.onAsk === "deny"
      ? Answerer.policy("deny")
      : options.onAsk === "console" && options.console !== undefined
        ? viaConsole(options.console.url)
        : Answerer.make({
          permission: (request) => Effect.succeed({ reply: "reject", message: Messages.cannotAsk(request) } as const),
          question: () => Effect.succeed({ reply: "dismissed", message: Messages.cannotAskQuestion } as const),
        })
  const decide = (elicits: boolean) =>
    Effect.gen(function* () {
      if (decided) return
      decided = true
      const client = elicits && options.clientMayAnswer
      yield* store.attach(client ? viaClient : byPolicy, session.id).pipe(Scope.provide(scope))
    })

  /** The result of a call, shaped by the output schema of the catalog it ran against. */
  const result = (flight: Flight, outcome: SessionTurn.Outcome, era: McpResult.Era): Round => {
    const outputSchema = flight.catalog.definitions.find((item) => item.name === flight.name)?.outputSchema
    return {
      type: "result",
      result: McpResult.of(outcome, { sessionID: session.id, messageID: flight.messageID }, { limits: output.limits, era, ...(outputSchema === undefined ? {} : { outputSchema }) }),
    }
  }

  const start = (input: CallInput) =>
    Effect.gen(function* () {
      const id = Id.create("call")
      const messageID = Id.create("msg")
      const asks = yield* Queue.unbounded<Interaction.Pending>()
      const shownNow = yield* current
      // Computed before the call starts: nothing that can throw stands between its start and its flight.
      const digest = McpRequestState.digest(input.name, input.args)
      const fiber = yield* SessionTurn.settle({ session, message: messageID, call: { id, name: input.name, input: input.args }, catalog: shownNow }).pipe(Effect.forkIn(scope))
      const flight: Flight = { id, name: input.name, digest, messageID, fiber, asks, outstanding: new Map(), catalog: shownNow, ...(input.waiting === undefined ? {} : { waiting: input.waiting }) }
      flights.set(id, flight)
      // A call whose client never came back is forgotten a while after it ended.
      yield* Fiber.await(fiber).pipe(
        Effect.andThen(Effect.sleep(GRACE_MS)),
        Effect.andThen(Effect.sync(() => flights.delete(id))),
        Effect.forkIn(scope),
      )
      return flight
    })

  /** Settles the asks a retried call answers; an ask the client left out is a reject. */
  const answer = (flight: Flight, asks: ReadonlyArray<string>, responses: Readonly<Record<string, unknown>>) =>
    Effect.forEach(
      asks,
      (id) => {
        const pending = flight.outstanding.get(id)
        if (pending === undefined) return Effect.void
        flight.outstanding.delete(id)
        return Effect.ignore(store.answer(id, McpAskForm.answerOf(pending, responses[id])))
      },
      { discard: true },
    )

  /** An ask handed to the client that nobody answers in time ends the session's asks. */
  const expire = (flight: Flight, ids: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      yield* Effect.sleep(options.askTimeoutMs)
      if (ids.some((id) => flight.outstanding.has(id))) yield* store.endSession(session.id, Messages.unanswered(options.askTimeoutMs))
    }).pipe(Effect.forkIn(scope), Effect.asVoid)

  /** Waits for the call's outcome or its next asks. */
  const next = (flight: Flight, input: CallInput): Effect.Effect<Round> =>
    Effect.gen(function* () {
      const first = yield* Effect.raceFirst(
        Effect.map(Fiber.await(flight.fiber), (exit) => ({ type: "done" as const, exit })),
        Effect.map(Queue.take(flight.asks), (pending) => ({ type: "ask" as const, pending })),
      )
      if (first.type === "done") {
        flights.delete(flight.id)
        const outcome = Exit.isSuccess(first.exit)
          ? first.exit.value
          : ({ kind: "cancelled", toolCallID: flight.id, message: SessionTurn.Messages.cancelled(flight.name) } satisfies SessionTurn.Outcome)
        return result(flight, outcome, input.era)
      }
      const more = yield* Queue.clear(flight.asks)
      const asked = [first.pending, ...more]
      for (const pending of asked) flight.outstanding.set(pending.id, pending)
      const now = yield* Clock.currentTimeMillis
      const state = options.sealer.seal({ call: flight.id, asks: asked.map((pending) => pending.id), digest: flight.digest }, options.askTimeoutMs + GRACE_MS, now)
      yield* expire(flight, asked.map((pending) => pending.id))
      const requests = Object.fromEntries(asked.map((pending) => [pending.id, McpAskForm.of(flight.name, pending)]))
      return { type: "input", requests, state, call: flight.id } satisfies Round
    })

  const refused = (text: string): Round => ({ type: "result", result: { content: [{ type: "text", text }], isError: true, _meta: { [McpResult.Meta.session]: session.id } } })

  const call = (input: CallInput): Effect.Effect<Round> =>
    Effect.gen(function* () {
      // Before anything walks the arguments (the state's digest would overflow the stack after
      // the call had started, leaving it running with nobody told): nothing starts.
      if (JsonDepth.deeperThan(input.args)) return refused(Tool.Messages.invalidInput(JsonDepth.Messages.tooDeep))
      yield* decide(input.elicits)
      let flight: Flight
      if (input.state === undefined) flight = yield* start(input)
      else {
        const now = yield* Clock.currentTimeMillis
        const claims = options.sealer.open(input.state, McpRequestState.digest(input.name, input.args), now)
        if ("refused" in claims) return refused(McpRequestState.Messages.refused(claims.refused))
        const found = flights.get(claims.call)
        if (found === undefined) return refused(Messages.gone)
        flight = found
        if (input.waiting !== undefined) flight.waiting = input.waiting
        yield* answer(flight, claims.asks, input.responses ?? {})
      }
      const waiting = flight
      // The client gave up on the call (cancelled, or the connection closed): stop it.
      return yield* next(waiting, input).pipe(
        Effect.onInterrupt(() =>
          Effect.gen(function* () {
            flights.delete(waiting.id)
            yield* Fiber.interrupt(waiting.fiber)
          }),
        ),
      )
    }).pipe(Effect.provideContext(services))

  const cancel = (id: string) =>
    Effect.suspend(() => {
      const flight = flights.get(id)
      if (flight === undefined) return Effect.void
      flights.delete(id)
      return Fiber.interrupt(flight.fiber)
    })

  return {
    session,
    tools,
    call,
    settled: store.settled,
    cancel,
    instructions: Messages.instructions(session.id, location.directory),
    directory: location.directory,
  } satisfies Interface
})
