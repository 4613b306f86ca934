/**
 * How a request of `toolgate serve` reaches a Location (issue 17, item 5). A request names its
 * directory (or a session, whose stored directory is used); the hub resolves it to a real path,
 * refuses it unless it lies in one of the allowed roots (`server.directories`, default the folder
 * `serve` started in), and opens its Location through `Locations` for the request's scope: one
 * Location per directory is shared by every request, and closes when idle. Sessions and approvals
 * are found by id across every project sharing the database.
 * Gotcha: roots are compared as real paths, so a link inside a root that points outside it does
 * not let a request out.
 */
export * as ServerHub from "./hub.js"

import { Context, Effect, Layer, Option, Schema, Scope, Stream } from "effect"
import { Bus } from "../bus.js"
import { SharedAsks } from "../interaction/shared.js"
import { Location } from "../location/location.js"
import { LocationMutation } from "../location/mutation.js"
import { Locations } from "../locations.js"
import { Approvals } from "../permission/approvals.js"
import { Permission } from "../permission/permission.js"
import type { PermissionRequest } from "../permission/request.js"
import { Session } from "../session.js"
import { Sql } from "../storage/sql.js"
import { ServerRoute } from "./route.js"
import { ServerRuns } from "./runs.js"
import { ServerSharedReply } from "./shared-reply.js"
import type { SandboxMode } from "../sandbox/mode.js"
import { Tracing } from "../tracing.js"

export const Messages = {
  forbidden: (directory: string) => `Forbidden: ${directory} is outside the directories this server may open (server.directories)`,
  noDirectory: (directory: string, detail: string) => `No such directory: ${directory} (${detail})`,
  sessionNotFound: (id: string) => `Session not found: ${id}`,
  approvalNotFound: (id: string) => `No saved approval with id ${id}`,
} as const

export class ForbiddenError extends Schema.TaggedError<ForbiddenError>()("ServerHub.ForbiddenError", { directory: Schema.String }) {
  override get message() {
    return Messages.forbidden(this.directory)
  }
}

export class DirectoryError extends Schema.TaggedError<DirectoryError>()("ServerHub.DirectoryError", { directory: Schema.String, detail: Schema.String }) {
  override get message() {
    return Messages.noDirectory(this.directory, this.detail)
  }
}

export class SessionNotFoundError extends Schema.TaggedError<SessionNotFoundError>()("ServerHub.SessionNotFoundError", { sessionID: Schema.String }) {
  override get message() {
    return Messages.sessionNotFound(this.sessionID)
  }
}

export type Error = ForbiddenError | DirectoryError | SessionNotFoundError

/** The reply an error of the hub is (OpenCode's tags where it has them). */
export const reply = (error: Error | Locations.ClosedError): ServerRoute.Reply => {
  switch (error._tag) {
    case "ServerHub.ForbiddenError":
      return ServerRoute.error(403, "ForbiddenError", error.message, { directory: error.directory })
    case "ServerHub.DirectoryError":
      return ServerRoute.invalid(error.message, "directory")
    case "ServerHub.SessionNotFoundError":
      return ServerRoute.error(404, "SessionNotFoundError", error.message, { sessionID: error.sessionID })
    case "Locations.ClosedError":
      return ServerRoute.error(503, "LocationClosedError", error.message, { directory: error.directory })
  }
}

export interface Options {
  /** Where `serve` started: the directory of a request that names none. */
  readonly root: string
  /** The allowed roots, real paths. */
  readonly allowed: ReadonlyArray<string>
  /** `serve --config F`, read by every Location after its other config files. */
  readonly config?: string
  /** `--sandbox <mode>` of the command that hosts the hub (`toolgate mcp`'s console): the same Locations. */
  readonly sandbox?: SandboxMode.Mode
  /** Where `server.model.api_key_env` is read (default: the process's environment). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

export interface Interface {
  readonly root: string
  readonly allowed: ReadonlyArray<string>
  /** The real path of `directory` (relative to the root), if the server may open it. */
  readonly resolve: (directory: string | undefined) => Effect.Effect<string, ForbiddenError | DirectoryError>
  /** The Location of `directory` (default the root), held for the caller's scope. */
  readonly location: (directory: string | undefined) => Effect.Effect<Locations.Handle, ForbiddenError | DirectoryError, Scope.Scope>
  /** The Location a stored session belongs to, held for the caller's scope, and the session. */
  readonly session: (sessionID: string) => Effect.Effect<{ readonly handle: Locations.Handle; readonly info: Session.Info }, Error, Scope.Scope>
  /** The project of a saved approval, or undefined when no project has it. */
  readonly approvalProject: (id: string) => Effect.Effect<string | undefined>
  /**
   * Whether the server may act for the project `projectID`: its worktree, or the directory of one
   * of its sessions, lies in an allowed root or holds one (a team's shared project id has another
   * machine's worktree; its sessions here are this machine's). Another project's approvals are
   * treated as absent: listed as none, revoked as not found, so nothing tells that they exist.
   */
  readonly mayActFor: (projectID: string) => Effect.Effect<boolean>
  /** The Locations open now. */
  readonly open: Effect.Effect<ReadonlyArray<Locations.Info>>
  /**
   * Revokes a saved approval of a project the server may act for (`allowProject`): approvals live
   * in the database, so no Location is needed. Another project's is not found, as if absent.
   */
  readonly removeApproval: (id: string) => Effect.Effect<Approvals.Approval, Approvals.NotFoundError>
  /** The turn loops the server runs for its sessions (runs.ts). */
  readonly runs: ServerRuns.Interface<Error>
  /**
   * A reply for a permission request another server of the same PostgreSQL waits on
   * (server/shared-reply.ts); undefined when none does, or when asks are not shared.
   */
  readonly replyElsewhere: (sessionID: string, requestID: string, answer: PermissionRequest.Answer) => Effect.Effect<ServerRoute.Reply | undefined>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/ServerHub") {}

/** A handler's hub and Location failures as replies: what is left is a reply in every case. */
export const replying = <R>(effect: Effect.Effect<ServerRoute.Reply, Error | Locations.ClosedError, R>): Effect.Effect<ServerRoute.Reply, never, R> =>
  Effect.catch(effect, (error) => Effect.succeed(reply(error)))

export const layer = (options: Options): Layer.Layer<Service, never, Locations.Service | Sql.Service | Bus.Service> =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const locations = yield* Locations.Service
      const database = yield* Effect.context<Sql.Service | Bus.Service>()
      const sql = Context.get(database, Sql.Service)

      const resolve = Tracing.fn("ServerHub.resolve")(function* (directory: string | undefined) {
        const wanted = directory === undefined || directory === "" ? options.root : directory
        const real = yield* Location.resolve(wanted.startsWith("/") ? wanted : `${options.root}/${wanted}`).pipe(
          Effect.mapError((error) => new DirectoryError({ directory: wanted, detail: error.detail })),
        )
        if (!options.allowed.some((root) => LocationMutation.contains(root, real))) return yield* new ForbiddenError({ directory: real })
        return real
      })

      const location = Tracing.fn("ServerHub.location")(function* (directory: string | undefined) {
        const real = yield* resolve(directory)
        return yield* locations
          .open({ directory: real, resolved: true, ...(options.config === undefined ? {} : { config: options.config }), ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }) })
          // A Location that cannot be built (a broken config file) says why, with the directory.
          .pipe(Effect.catch((cause) => Effect.fail(new DirectoryError({ directory: real, detail: cause instanceof Error ? cause.message : String(cause) }))))
      })

      const session = Tracing.fn("ServerHub.session")(function* (sessionID: string) {
        // One service added, not the context merged: a merge copies the request's whole context.
        const info = yield* Session.find(sessionID).pipe(Effect.provideService(Sql.Service, sql))
        if (info === undefined) return yield* new SessionNotFoundError({ sessionID })
        const handle = yield* location(info.location)
        // As the Location's own `get` judges: the session is its when the stored directory is its real one.
        if (handle.directory !== info.location) return yield* new SessionNotFoundError({ sessionID })
        return { handle, info }
      })

      const approvalProject = (id: string) => Approvals.projectOf(id).pipe(Effect.provideContext(database))
      const approvals = yield* Effect.gen(function* () {
        return yield* Approvals.Service
      }).pipe(Effect.provide(Approvals.layer), Effect.provideContext(database))
      const mayActFor = Tracing.fn("ServerHub.mayActFor")(function* (projectID: string) {
        const places = yield* sql.all<{ readonly place: string }>("SELECT worktree AS place FROM project WHERE id = ? UNION ALL SELECT location AS place FROM session WHERE project_id = ?", [projectID, projectID])
        const near = (place: string) => options.allowed.some((root) => LocationMutation.contains(root, place) || LocationMutation.contains(place, root))
        return places.some(({ place }) => near(place))
      })
      const removeApproval = Tracing.fn("ServerHub.removeApproval")(function* (id: string) {
        const projectID = yield* approvalProject(id)
        if (projectID === undefined || !(yield* mayActFor(projectID))) return yield* new Approvals.NotFoundError({ id })
        return yield* approvals.remove(projectID, id)
      })

      const runs = yield* ServerRuns.make(session, options.env ?? process.env)
      // What the other servers ask goes out on this one's event stream too, for its consoles and clients.
      const shared = Option.getOrUndefined(yield* Effect.serviceOption(SharedAsks.Service))
      if (shared !== undefined) {
        const bus = Context.get(database, Bus.Service)
        const heard = yield* shared.heard
        yield* Effect.forkScoped(
          Stream.runForEach(heard, (event) => {
            if (event.type === "asked") return event.ask.pending.kind === "permission" ? bus.publish(Permission.Asked, event.ask.pending.payload as Permission.Request) : Effect.void
            if (event.kind !== "permission") return Effect.void
            const reply = event.answer?.reply === "once" || event.answer?.reply === "always" ? event.answer.reply : "reject"
            return bus.publish(Permission.Replied, { sessionID: event.sessionID, requestID: event.id, reply })
          }),
        )
      }
      const replyElsewhere = (sessionID: string, requestID: string, answer: PermissionRequest.Answer) =>
        shared === undefined ? Effect.succeed(undefined) : ServerSharedReply.reply(shared, sessionID, requestID, answer).pipe(Effect.provideContext(database))
      return Service.of({ root: options.root, allowed: options.allowed, resolve, location, session, approvalProject, mayActFor, open: locations.list, removeApproval, runs, replyElsewhere })
    }),
  )
