/**
 * A name given to the CLI that names nothing: an unknown tool, agent, session or approval id.
 * Each is a usage error (exit 2) in one message form, `Unknown <kind> "<name>" <where>.`, then
 * "Did you mean …?" when a known name is near enough to be a typo, then the command that lists
 * the names, so a script and a person read every such case the same way (docs/cli.md). An id may
 * be given by a prefix when exactly one id starts with it; a prefix several ids start with is an
 * error that says how many. The model-visible `Unknown tool: <name>` of the call path is not
 * this: the CLI checks a name before it calls (cli/command/call.ts).
 */
export * as Lookup from "./lookup.js"

import { Schema } from "effect"
import { Help } from "./help.js"
import { Io } from "./io.js"

export const KINDS = ["tool", "agent", "session", "approval"] as const
export type Kind = (typeof KINDS)[number]

/** Where a name was looked for: an agent's catalog, or the Location (or project) of `--dir`. */
const WHERE: Readonly<Record<Kind, (within: string) => string>> = {
  tool: (agent) => `for agent ${agent}`,
  agent: (directory) => `in ${directory}`,
  session: (directory) => `in ${directory}`,
  approval: (worktree) => `in ${worktree}`,
}

/** The command that lists the known names, where there is one. */
const LISTED: Readonly<Record<Kind, (within: string) => string | undefined>> = {
  tool: (agent) => `toolgate tools --agent ${agent}`,
  agent: () => "toolgate config",
  session: () => "toolgate session list",
  approval: () => "toolgate approvals list",
}

const listed = (kind: Kind, within: string) => {
  const command = LISTED[kind](within)
  return command === undefined ? "" : ` ${Messages.list(command)}`
}

export const Messages = {
  /** @example unknown("agent", "biuld", "/src/app", ["build", "plan"]) // `Unknown agent "biuld" in /src/app. Did you mean build? Run toolgate config to list them.` */
  unknown: (kind: Kind, name: string, within: string, known: ReadonlyArray<string>) =>
    `Unknown ${kind} "${Io.visible(name)}" ${WHERE[kind](within)}.${Help.suggestion(name, known)}${listed(kind, within)}`,
  ambiguous: (kind: Kind, prefix: string, within: string, count: number) =>
    `Ambiguous ${kind} "${Io.visible(prefix)}" ${WHERE[kind](within)}: ${count} ${kind}s start with it. Give more of the id.`,
  list: (command: string) => `Run ${command} to list them.`,
} as const

/** A name that names nothing here. Exit 2. */
export class UnknownError extends Schema.TaggedError<UnknownError>()("Cli.UnknownError", {
  kind: Schema.Literals(KINDS),
  name: Schema.String,
  /** The agent (tools), the directory (agents, sessions) or the worktree (approvals). */
  within: Schema.String,
  /** The names that do exist there, for "did you mean". */
  known: Schema.Array(Schema.String),
}) {
  override get message() {
    return Messages.unknown(this.kind, this.name, this.within, this.known)
  }
}

/** An id prefix that more than one id starts with. Exit 2. */
export class AmbiguousError extends Schema.TaggedError<AmbiguousError>()("Cli.AmbiguousError", {
  kind: Schema.Literals(KINDS),
  prefix: Schema.String,
  within: Schema.String,
  count: Schema.Number,
}) {
  override get message() {
    return Messages.ambiguous(this.kind, this.prefix, this.within, this.count)
  }
}

export type Error = UnknownError | AmbiguousError

/**
 * The id of `ids` that is `name`, else the one id that starts with it; else the error: unknown
 * when none does, ambiguous when several do.
 * @example resolve("approval", "psv_01J", "/src/app", ["psv_01JA", "psv_02"]) // "psv_01JA"
 */
export const resolve = (kind: Kind, name: string, within: string, ids: ReadonlyArray<string>): string | Error => {
  if (ids.includes(name)) return name
  const matches = name === "" ? [] : ids.filter((id) => id.startsWith(name))
  if (matches.length === 1) return matches[0] as string
  if (matches.length === 0) return new UnknownError({ kind, name, within, known: ids })
  return new AmbiguousError({ kind, prefix: name, within, count: matches.length })
}
