/**
 * The session a command names, checked before the command acts on it: one of this Location
 * (`here`: diff, revert, end, todo) or of its project (`inProject`: the project's log). An id
 * no project has is a usage error in the command's own words; another project's or another
 * Location's id fails naming where it belongs (Session's errors), so a mistyped or foreign id is
 * never read as "nothing happened". All of them end the command with exit 2.
 */
export * as KnownSession from "./known-session.js"

import { Effect } from "effect"
import { Location } from "../location/location.js"
import { Session } from "../session.js"
import { Command } from "./command.js"

export type Error = Command.UsageError | Session.ForeignProjectError | Session.LocationMismatchError

/** The message of an id no project has, given the id and the folder looked in. */
export type Unknown = (id: string, directory: string) => string

const lookup = (id: string) => Effect.flatMap(Session.Service, (sessions) => sessions.lookup(id))

/** The session `id` of the project, in any of its Locations; `unknown` names the project's worktree. */
export const inProject = Effect.fnUntraced(function* (id: string, worktree: string, unknown: Unknown) {
  const session = yield* lookup(id)
  if (session === undefined) return yield* new Command.UsageError({ detail: unknown(id, worktree) })
  return session
})

/** The session `id` of this Location; `unknown` names the Location's directory. */
export const here = Effect.fnUntraced(function* (id: string, unknown: Unknown) {
  const { directory } = yield* Location.Service
  const session = yield* lookup(id)
  if (session === undefined) return yield* new Command.UsageError({ detail: unknown(id, directory) })
  if (session.location !== directory) return yield* new Session.LocationMismatchError({ id, location: session.location })
  return session
})
