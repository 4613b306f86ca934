/**
 * The one way file tools resolve and authorise their targets (05, 06): resolve every path through
 * `LocationMutation`, ask `external_directory` once for the external ones (deduplicated, first-
 * seen order) before anything else, then the tool's own action with exactly the resources it
 * touches; "always" saves exactly those resources, never a catch-all. Path errors become
 * `Tool.Failure`s the model reads. No file I/O on a target happens here beyond resolution.
 * Saved tool output (ToolOutputPath): the session's own needs no external_directory, another
 * session's always asks for its folder, and nothing under it is a write target.
 */
export * as FileAccess from "./file-access.js"

import { Context, Effect, Layer } from "effect"
import { Directories } from "../../directories.js"
import { Location } from "../../location/location.js"
import { LocationMutation } from "../../location/mutation.js"
import { ToolOutputPath } from "../../location/tool-output-path.js"
import { Permission } from "../../permission/permission.js"
import { ToolOutputStore } from "../../tool-output-store.js"
import { Tool } from "../tool.js"

export interface Interface {
  readonly location: LocationMutation.Location
  /** The home directory a leading `~` means. */
  readonly home: string
  /** Resolves one path; a path error is a Failure the model reads. */
  readonly resolve: (path: string, kind: LocationMutation.Kind) => Effect.Effect<LocationMutation.Target, Tool.Failure>
  /** `resolve` for a target the tool will write, move or delete: saved tool output is refused. */
  readonly resolveWrite: (path: string, kind: LocationMutation.Kind) => Effect.Effect<LocationMutation.Target, Tool.Failure>
  /** The refusal of `resolveWrite`, for a target resolved another way (bash's). */
  readonly writable: (target: LocationMutation.Target) => Effect.Effect<LocationMutation.Target, Tool.Failure>
  /** For a search of the approved `root`: whether a file found there may be listed (ToolOutputPath.listable). */
  readonly listable: (context: Tool.Context, root: string) => Effect.Effect<(file: string) => boolean>
  /** Resolves again right before a write; a target that changed is a Failure. */
  readonly recheck: (target: LocationMutation.Target, kind: LocationMutation.Kind) => Effect.Effect<LocationMutation.Target, Tool.Failure>
  /**
   * Whether the model may see the target's current content without a `read` approval. Tools
   * that change a file use it before showing old lines (a diff, a closest match): `write .env`
   * must not reveal what `read .env ask` protects.
   */
  readonly mayRead: (context: Tool.Context, target: LocationMutation.Target) => Effect.Effect<boolean>
  /** Asks `external_directory` once for the external targets (deduplicated, first-seen order); nothing when none is external. */
  readonly askExternal: (context: Tool.Context, targets: ReadonlyArray<LocationMutation.Target>) => Effect.Effect<void, Tool.ExecuteError>
  /** Asks `action` once on every target, saving exactly those resources. */
  readonly askAction: (
    context: Tool.Context,
    action: string,
    targets: ReadonlyArray<LocationMutation.Target>,
    metadata?: Readonly<Record<string, unknown>>,
  ) => Effect.Effect<void, Tool.ExecuteError>
  /** `askExternal`, then `askAction`: for tools that need nothing from the file in between. */
  readonly authorize: (
    context: Tool.Context,
    action: string,
    targets: ReadonlyArray<LocationMutation.Target>,
    metadata?: Readonly<Record<string, unknown>>,
  ) => Effect.Effect<void, Tool.ExecuteError>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/FileAccess") {}

export const READ_ACTION = "read"
export const EXTERNAL_ACTION = "external_directory"

/** What a tool shows instead of old content the model may not read. */
export const Messages = {
  withheld: (resource: string) => `(the diff is not shown: reading ${resource} needs permission)`,
} as const

const asFailure = (error: LocationMutation.PathError) => new Tool.Failure({ message: error.message })

/** Distinct values in first-seen order. */
const distinct = (values: ReadonlyArray<string>) => [...new Set(values)]

export const layer = (options: { readonly home: string }) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const permission = yield* Permission.Service
      const saved = yield* ToolOutputStore.Service
      const { directory, caseInsensitive } = yield* Location.Service
      const location = { directory, caseInsensitive }
      const resolve = (path: string, kind: LocationMutation.Kind) =>
        LocationMutation.resolve(location, path, { kind, home: options.home }).pipe(Effect.mapError(asFailure))
      const writable = (target: LocationMutation.Target) =>
        saved.holds(target.real) ? Effect.fail(new Tool.Failure({ message: ToolOutputPath.Messages.readOnly(target.resource) })) : Effect.succeed(target)
      const resolveWrite = (path: string, kind: LocationMutation.Kind) => Effect.flatMap(resolve(path, kind), writable)
      const listable: Interface["listable"] = (context, root) => {
        if (saved.place(context.sessionID, root) !== "above") return Effect.succeed(() => true)
        return Effect.map(permission.allowsEach(context.sessionID, EXTERNAL_ACTION), (allowed) => ToolOutputPath.listable((file) => saved.place(context.sessionID, file), allowed))
      }
      const recheck = (target: LocationMutation.Target, kind: LocationMutation.Kind) =>
        LocationMutation.recheck(location, target, { kind, home: options.home }).pipe(Effect.mapError(asFailure))
      const askExternal: Interface["askExternal"] = (context, targets) => {
        const external = targets.flatMap((target) => ToolOutputPath.external(saved.place(context.sessionID, target.real), target) ?? [])
        if (external.length === 0) return Effect.void
        return Tool.ask(permission, context, {
          action: EXTERNAL_ACTION,
          resources: distinct(external.map((entry) => entry.resource)),
          save: distinct(external.map((entry) => entry.save)),
        })
      }
      const askAction: Interface["askAction"] = (context, action, targets, metadata) => {
        const resources = distinct(targets.map((target) => target.resource))
        return Tool.ask(permission, context, { action, resources, save: resources, ...(metadata === undefined ? {} : { metadata }) })
      }
      const authorize: Interface["authorize"] = (context, action, targets, metadata) =>
        Effect.andThen(askExternal(context, targets), askAction(context, action, targets, metadata))
      const mayRead = (context: Tool.Context, target: LocationMutation.Target) =>
        permission.allows({ sessionID: context.sessionID, action: READ_ACTION, resources: [target.resource] })
      return Service.of({ location, home: options.home, resolve, resolveWrite, writable, listable, recheck, mayRead, askExternal, askAction, authorize })
    }),
  )

export const defaultLayer = layer({ home: Directories.current().home })
