/**
 * The library's one entry: `Toolgate.open({ directory })` gives a scoped handle on one Location in
 * a process of its own (process services, `Locations`), with the call path every surface uses:
 * `session`, `catalog`, `settle`, the pending interactions (`permissions`, `questions`) and
 * `register` for the caller's own tools. Everything closes with the caller's scope: pending asks
 * are declined, running calls stopped, the database closed.
 * @example
 * const toolgate = yield* Toolgate.open({ directory: process.cwd() })
 * const session = yield* toolgate.session({ agent: "build" })
 * const outcome = yield* toolgate.settle({ session, call: { id: "call_1", name: "read", input: { path: "README.md" } } })
 */
export * as Toolgate from "./toolgate.js"

import { Context, Effect, Layer, type Scope } from "effect"
import type { Directories } from "./directories.js"
import { Locations } from "./locations.js"
import { Permission } from "./permission/permission.js"
import { ToolgateProcess } from "./process.js"
import { Question } from "./question.js"
import type { Runtime } from "./runtime.js"
import type { Session } from "./session.js"
import { SessionTurn } from "./session/turn.js"
import { ToolRegistry } from "./tool/registry.js"
import type { Tool } from "./tool/tool.js"
import { Tracing } from "./tracing.js"

export const { text, stops } = SessionTurn
export type Outcome = SessionTurn.Outcome

export interface OpenOptions {
  /** The working directory the tools act in. */
  readonly directory: string
  /** A config file added after the global and project ones. */
  readonly config?: string
  /** Environment variables and home directory (default: the process's). */
  readonly environment?: Directories.Environment
  /** What an `ask` becomes: a pending interaction for a person (default), or a deny. */
  readonly askPolicy?: Permission.AskPolicy
}

export interface Handle {
  /** The Location's id and real directory. */
  readonly id: string
  readonly directory: string
  /** The session a call runs in; created when new, its agent fixed from then on. */
  readonly session: (input?: SessionTurn.SessionInput) => Effect.Effect<Session.Info, unknown>
  /** The tools `session` sees now for `model`. */
  readonly catalog: (session: Session.Info, model?: string) => Effect.Effect<ToolRegistry.Catalog>
  /** Runs one call through the gate and settles it into an outcome. */
  readonly settle: (input: SessionTurn.SettleInput) => Effect.Effect<SessionTurn.Outcome>
  /** Pending permission requests, and the way to answer one. */
  readonly permissions: Pick<Permission.Interface, "list" | "forSession" | "reply">
  /** Pending questions of the `question` tool, and the ways to answer or dismiss one. */
  readonly questions: Pick<Question.Interface, "list" | "forSession" | "reply" | "dismiss">
  /** Registers tools in this Location for as long as the caller's scope is open. */
  readonly register: (record: Readonly<Record<string, Tool.AnyTool>>) => Effect.Effect<void, Tool.RegistrationError, Scope.Scope>
  /** Runs any program on the Location's services (the escape hatch for what the handle does not offer). */
  readonly run: Locations.Handle["run"]
}

/** Opens `directory` for the caller's scope. */
export const open = Tracing.fn("Toolgate.open")(function* (options: OpenOptions) {
  const environment = options.environment === undefined ? {} : { environment: options.environment }
  const process = yield* Layer.build(Locations.layer({ ...environment, idle: 0 }).pipe(Layer.provideMerge(ToolgateProcess.layer(environment))))
  const locations = Context.get(process, Locations.Service)
  const location = yield* locations.open({
    directory: options.directory,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.askPolicy === undefined ? {} : { askPolicy: options.askPolicy }),
  })
  const services = location.context as Context.Context<Runtime.Services>
  const permission = Context.get(services, Permission.Service)
  const question = Context.get(services, Question.Service)
  const registry = Context.get(services, ToolRegistry.Service)
  const handle: Handle = {
    id: location.id,
    directory: location.directory,
    session: (input) => location.run(SessionTurn.session(input)),
    catalog: (session, model) => Effect.orDie(location.run(SessionTurn.catalog(session, model))),
    settle: (input) =>
      location.run(SessionTurn.settle(input)).pipe(
        Effect.catchTag("Locations.ClosedError", (error) => Effect.succeed<SessionTurn.Outcome>({ kind: "cancelled", toolCallID: input.call.id, message: error.message })),
      ),
    permissions: { list: permission.list, forSession: permission.forSession, reply: permission.reply },
    questions: { list: question.list, forSession: question.forSession, reply: question.reply, dismiss: question.dismiss },
    register: registry.register,
    run: location.run,
  }
  return handle
})
