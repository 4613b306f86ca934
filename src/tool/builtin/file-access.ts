/**
 * The one way file tools resolve and authorise their targets (05, 06): resolve every path through
 * `LocationMutation`, ask `external_directory` once for the external ones (deduplicated, first-
 * seen order) before anything else, then the tool's own action with exactly the resources it
 * touches; "always" saves exactly those resources, never a catch-all. Resources are real paths
 * (links followed), so the gate judges a protected path (ProtectedPath) by what is written, not
 * by its spelling. Path errors become `Tool.Failure`s the model reads. No file I/O on a target
 * happens here beyond resolution and the link count of a regular file.
 *
 * A regular file with more than one name (a hard link) may be another name of a file the session
 * may not read (`hard.txt` → `.env`), and its other names cannot be found cheaply: its `read` is
 * opaque, allowed only by a rule or approval naming it exactly (see docs/permissions.md).
 * The requests are built by plain functions (`externalRequests`, `actionRequest`, `reads`) that the
 * ask methods use too, so a tool's `requests` lists exactly what it asks.
 * Saved tool output (ToolOutputPath): the session's own needs no external_directory, another
 * session's always asks for its folder, and nothing under it is a write target.
 */
export * as FileAccess from "./file-access.js"

import { lstatSync } from "node:fs"
import path from "node:path"
import { Context, Effect, Layer } from "effect"
import { Config } from "../../config.js"
import { Directories } from "../../directories.js"
import { Location } from "../../location/location.js"
import { LocationMutation } from "../../location/mutation.js"
import { OwnPaths } from "../../location/own-paths.js"
import { ToolOutputPath } from "../../location/tool-output-path.js"
import { Permission } from "../../permission/permission.js"
import type { PermissionShown } from "../../permission/shown.js"
import { Sql } from "../../storage/sql.js"
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
  /** Whether the target is a regular file with more than one name (its `read` is opaque). */
  readonly linked: (target: LocationMutation.Target) => boolean
  /**
   * Asks `read` on the targets before a tool answers anything that depends on their content
   * (a match, a diff, a hunk that applies): hard-linked files apart, as opaque resources. Returns
   * the real paths asked as hard links; a file found with more links after this is `changed`.
   */
  readonly askRead: (context: Tool.Context, targets: ReadonlyArray<LocationMutation.Target>) => Effect.Effect<ReadonlySet<string>, Tool.ExecuteError>
  /**
   * The `external_directory` request for the targets as the session `sessionID` meets them: its
   * own saved tool output is not external, another session's asks for its folder. Without a
   * session, saved output counts as any other path.
   */
  readonly externals: (sessionID: string | undefined, targets: ReadonlyArray<LocationMutation.Target>, action: string) => ReadonlyArray<Tool.PermissionRequest>
  /** Asks `external_directory` once for the external targets (deduplicated, first-seen order), for `action` on them; nothing when none is external. */
  readonly askExternal: (context: Tool.Context, targets: ReadonlyArray<LocationMutation.Target>, action: string) => Effect.Effect<void, Tool.ExecuteError>
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

/** Whether `real` is a regular file with more than one name; false when it cannot be seen. */
export const hasLinks = (real: string): boolean => {
  const stats = lstatSync(real, { throwIfNoEntry: false })
  return stats !== undefined && stats.isFile() && stats.nlink > 1
}

/**
 * What a call will do with its targets, shown with its `external_directory` ask: the folder alone
 * does not say that approving it writes `/home/me/.bashrc` when the rules allow the edit.
 * @example FileAccess.purposeOf("edit", [target]) // { purpose: "edit /home/me/.bashrc" }
 */
export const purposeOf = (action: string, targets: ReadonlyArray<LocationMutation.Target>): PermissionShown.Shown => ({
  purpose: `${action} ${distinct(targets.map((target) => target.resource)).join(", ")}`,
})

/**
 * The `external_directory` request for the external targets (deduplicated, first-seen order),
 * showing `action` on every target: none when no target is external. What `askExternal` asks;
 * tools list it in their `requests`.
 */
export const externalRequests = (
  targets: ReadonlyArray<LocationMutation.Target>,
  action: string,
  externalOf: (target: LocationMutation.Target) => LocationMutation.ExternalDirectory | undefined = (target) => (target.type === "external" ? target.externalDirectory : undefined),
): ReadonlyArray<Tool.PermissionRequest> => {
  const external = targets.flatMap((target) => externalOf(target) ?? [])
  if (external.length === 0) return []
  return [{ action: EXTERNAL_ACTION, resources: distinct(external.map((entry) => entry.resource)), save: distinct(external.map((entry) => entry.save)), metadata: purposeOf(action, targets) }]
}

/** The request of `action` on every target, saving exactly those resources: what `askAction` asks. */
export const actionRequest = (action: string, targets: ReadonlyArray<LocationMutation.Target>, metadata?: Readonly<Record<string, unknown>>): Tool.PermissionRequest => {
  const resources = distinct(targets.map((target) => target.resource))
  return { action, resources, save: resources, ...(metadata === undefined ? {} : { metadata }) }
}

/** The `read` requests of some targets, and the real paths among them asked as hard links. */
export interface Reads {
  readonly requests: ReadonlyArray<Tool.PermissionRequest>
  readonly linked: ReadonlySet<string>
}

/** What `askRead` asks: the plain targets in one request, then the hard-linked ones as opaque. */
export const reads = (targets: ReadonlyArray<LocationMutation.Target>): Reads => {
  const hard = targets.filter((target) => hasLinks(target.real))
  const plain = targets.filter((target) => !hard.includes(target))
  const resources = distinct(hard.map((target) => target.resource))
  return {
    requests: [
      ...(plain.length > 0 ? [actionRequest(READ_ACTION, plain)] : []),
      ...(hard.length > 0 ? [{ action: READ_ACTION, resources, save: resources, opaque: true, metadata: { hardLinks: resources } }] : []),
    ],
    linked: new Set(hard.map((target) => target.real)),
  }
}

/**
 * Whether a file opened with `links` names may be used after `askRead` returned `asked`: a file
 * that gained a name since was not judged as a hard link.
 */
export const stillJudged = (asked: ReadonlySet<string>, real: string, links: number): boolean => links <= 1 || asked.has(real)

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
      const config = yield* Config.Service
      const storage = yield* Sql.Service
      const owned = OwnPaths.realForms({ data: path.dirname(saved.directory), storage, sources: config.sources })
      const writable = (target: LocationMutation.Target) => {
        if (saved.holds(target.real)) return Effect.fail(new Tool.Failure({ message: ToolOutputPath.Messages.readOnly(target.resource) }))
        if (OwnPaths.holds(owned, target.real)) return Effect.fail(new Tool.Failure({ message: OwnPaths.Messages.refused(target.resource) }))
        return Effect.succeed(target)
      }
      const resolveWrite = (path: string, kind: LocationMutation.Kind) => Effect.flatMap(resolve(path, kind), writable)
      const listable: Interface["listable"] = (context, root) => {
        if (saved.place(context.sessionID, root) !== "above") return Effect.succeed(() => true)
        return Effect.map(permission.allowsEach(context.sessionID, EXTERNAL_ACTION), (allowed) => ToolOutputPath.listable((file) => saved.place(context.sessionID, file), allowed))
      }
      const recheck = (target: LocationMutation.Target, kind: LocationMutation.Kind) =>
        LocationMutation.recheck(location, target, { kind, home: options.home }).pipe(Effect.mapError(asFailure))
      const externals: Interface["externals"] = (sessionID, targets, action) =>
        externalRequests(targets, action, sessionID === undefined ? undefined : (target) => ToolOutputPath.external(saved.place(sessionID, target.real), target))
      const askExternal: Interface["askExternal"] = (context, targets, action) => Tool.askAll(permission, context, externals(context.sessionID, targets, action))
      const askAction: Interface["askAction"] = (context, action, targets, metadata) => Tool.ask(permission, context, actionRequest(action, targets, metadata))
      const authorize: Interface["authorize"] = (context, action, targets, metadata) =>
        Effect.andThen(askExternal(context, targets, action), askAction(context, action, targets, metadata))
      const linked = (target: LocationMutation.Target) => hasLinks(target.real)
      const mayRead = (context: Tool.Context, target: LocationMutation.Target) =>
        permission.allows({ sessionID: context.sessionID, action: READ_ACTION, resources: [target.resource], ...(linked(target) ? { opaque: true } : {}) })
      const askRead: Interface["askRead"] = Effect.fnUntraced(function* (context, targets) {
        const planned = reads(targets)
        yield* Tool.askAll(permission, context, planned.requests)
        return planned.linked
      })
      return Service.of({ location, home: options.home, resolve, resolveWrite, writable, listable, recheck, mayRead, linked, askRead, externals, askExternal, askAction, authorize })
    }),
  )

export const defaultLayer = layer({ home: Directories.current().home })
