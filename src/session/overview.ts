/**
 * What `session list` shows of each session of a project: who it is, when it was made and last
 * decided something, how many files its calls wrote and how many asks wait for an answer. All
 * of it comes from the database, so a fresh process sees what others did. "Last call" is the
 * last permission decision recorded for the session (every tool asks the gate before it acts);
 * "pending" counts asks with no recorded end, which wait in a process still running (an
 * `mcp` server, a call at a prompt), since the asks themselves live in that process's memory;
 * "interrupted" those that ended because their process was stopped or died while they waited
 * (the audit log ends a dead process's asks before it is read).
 */
export * as SessionOverview from "./overview.js"

import { Effect } from "effect"
import { AuditLog } from "../permission/audit-log.js"
import { Project } from "../project.js"
import { Session } from "../session.js"
import { History } from "../snapshot/history.js"

export interface Summary {
  readonly id: string
  readonly agent: string
  readonly location: string
  readonly createdAt: number
  /** The last permission decision recorded for the session; absent when none was. */
  readonly lastCallAt?: number
  readonly changedFiles: number
  readonly pendingAsks: number
  readonly interruptedAsks: number
  readonly endedAt?: number
}

/** When a session last did anything: its last call, else its creation. */
export const lastActivity = (summary: Summary): number => Math.max(summary.createdAt, summary.lastCallAt ?? 0)

/** Newest last activity first; the later id first on a tie (ids sort by creation time). */
export const order = (summaries: ReadonlyArray<Summary>): ReadonlyArray<Summary> =>
  [...summaries].sort((a, b) => lastActivity(b) - lastActivity(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))

/** The summary of one session from what the audit log and the change log tell about it. */
export const summarize = (info: Session.Info, activity: AuditLog.Activity | undefined, changed: number): Summary => ({
  id: info.id,
  agent: info.agent,
  location: info.location,
  createdAt: info.createdAt,
  ...(activity === undefined ? {} : { lastCallAt: activity.lastAt }),
  changedFiles: changed,
  pendingAsks: activity?.pending ?? 0,
  interruptedAsks: activity?.interrupted ?? 0,
  ...(info.endedAt === undefined ? {} : { endedAt: info.endedAt }),
})

/**
 * Every session of the Location's project, newest last activity first.
 * @example const sessions = yield* SessionOverview.list
 */
export const list = Effect.gen(function* () {
  const project = yield* Project.Service
  const sessions = yield* Effect.flatMap(Session.Service, (service) => service.list)
  const activity = new Map((yield* Effect.flatMap(AuditLog.Service, (audit) => audit.activity(project.id))).map((entry) => [entry.sessionID, entry] as const))
  const history = yield* History.Service
  const summaries = yield* Effect.forEach(sessions, (info) => Effect.map(history.changed(info.id), (paths) => summarize(info, activity.get(info.id), paths.length)))
  return order(summaries)
}).pipe(Effect.withSpan("SessionOverview.list"))
