/**
 * The CLI's exit codes, one enum for every command. A script can tell a tool's own failure (1)
 * from a misuse of the CLI (2), a configured deny (3), a person's decline (4) and a command only
 * a person may run, refused inside a toolgate tool call (5).
 */
export * as ExitCode from "./exit-code.js"

import type { SessionTurn } from "../session/turn.js"

export const SUCCESS = 0 as const
export const TOOL_FAILED = 1 as const
export const USAGE = 2 as const
export const BLOCKED = 3 as const
export const DECLINED = 4 as const
/** A command only a person may run (`toolgate trust`), started by a toolgate tool call. */
export const REFUSED = 5 as const

/** Stopped by a signal: 128 + its number, as shells report it. */
export const SIGNALLED = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const

export type ExitCode = typeof SUCCESS | typeof TOOL_FAILED | typeof USAGE | typeof BLOCKED | typeof DECLINED | typeof REFUSED | (typeof SIGNALLED)[keyof typeof SIGNALLED]

/** Error tags that end a command with their own code. */
const BY_TAG: Readonly<Record<string, ExitCode>> = {
  "Permission.BlockedError": BLOCKED,
  "Tool.Failure": TOOL_FAILED,
  "Permission.DeclinedError": DECLINED,
  "Question.DismissedError": DECLINED,
  "Database.OpenError": TOOL_FAILED,
  // A name that names nothing (docs/cli.md): one code for every kind.
  "Cli.UnknownError": USAGE,
  "Cli.AmbiguousError": USAGE,
  "Approvals.NotFoundError": USAGE,
  "History.NotFoundError": TOOL_FAILED,
  "History.DisabledError": TOOL_FAILED,
  "History.RunningError": TOOL_FAILED,
  "Snapshot.GitError": TOOL_FAILED,
  "Snapshot.PathError": TOOL_FAILED,
  "Snapshot.InTheWayError": TOOL_FAILED,
}

/** The exit code of a settled call, decided here only (session/turn.ts `Outcome.kind`). */
export const forOutcome = (kind: SessionTurn.Kind): ExitCode => BY_KIND[kind]

const BY_KIND: Readonly<Record<SessionTurn.Kind, ExitCode>> = {
  success: SUCCESS,
  failed: TOOL_FAILED,
  blocked: BLOCKED,
  declined: DECLINED,
  dismissed: DECLINED,
  cancelled: TOOL_FAILED,
}

/** The exit code for an error that ended a command; `fallback` for any other tag. */
export const forError = (error: { readonly _tag?: string }, fallback: ExitCode = TOOL_FAILED): ExitCode => BY_TAG[error._tag ?? ""] ?? fallback
