/**
 * The CLI's exit codes, one enum for every command. A script can tell a tool's own failure (1)
 * from a misuse of the CLI (2), a configured deny (3) and a person's decline (4).
 */
export * as ExitCode from "./exit-code.js"

export const SUCCESS = 0 as const
export const TOOL_FAILED = 1 as const
export const USAGE = 2 as const
export const BLOCKED = 3 as const
export const DECLINED = 4 as const

export type ExitCode = typeof SUCCESS | typeof TOOL_FAILED | typeof USAGE | typeof BLOCKED | typeof DECLINED

/** Error tags that end a call with their own code; every other failure of a call is TOOL_FAILED. */
const BY_TAG: Readonly<Record<string, ExitCode>> = {
  "Permission.BlockedError": BLOCKED,
  "Permission.DeclinedError": DECLINED,
  "Question.DismissedError": DECLINED,
}

/** The exit code for an error that ended a call. */
export const forError = (error: { readonly _tag?: string }): ExitCode => BY_TAG[error._tag ?? ""] ?? TOOL_FAILED
