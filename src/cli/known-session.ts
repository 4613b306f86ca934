/**
 * The session a command names, checked before the command acts on it: one of this Location
 * (`here`: diff, revert, end, todo) or of its project (`inProject`: the project's log). An id
 * no project has is the CLI's one "names nothing" error (cli/lookup.ts); another project's or another
 * Location's id fails naming where it belongs (Session's errors), so a mistyped or foreign id is
 * never read as "nothing happened". All of them end the command with exit 2.
 */
export * as KnownSession from "./known-session.js"

import { Effect } from "effect"
import { Location } from "../location/location.js"
import { Session } from "../session.js"
import { Lookup } from "./lookup.js"

export type Error = Lookup.UnknownError | Session.ForeignProjectError | Session.LocationMismatchError

const lookup = (id: string) => Effect.flatMap(Session.Service, (sessions) => sessions.lookup(id))

const unknown = (id: string, within: string) => new Lookup.UnknownError({ kind: "session", name: id, within, known: [] })

/** The session `id` of the project, in any of its Locations; an unknown one is named in the project's worktree. */
export const inProject = Effect.fnUntraced(function* (id: string, worktree: string) {
  const session = yield* lookup(id)
  if (session === undefined) return yield* unknown(id, worktree)
  return session
})

/** The session `id` of this Location; an unknown one is named in the Location's directory. */
export const here = Effect.fnUntraced(function* (id: string) {
  const { directory } = yield* Location.Service
  const session = yield* lookup(id)
  if (session === undefined) return yield* unknown(id, directory)
  if (session.location !== directory) return yield* new Session.LocationMismatchError({ id, location: session.location })
  return session
})
