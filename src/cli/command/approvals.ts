/**
 * `toolgate approvals list | revoke <id> | clear`: the saved approvals of the project in `--dir`
 * and of its sessions, each with its scope, so a person can see and take back what they allowed
 * "always". `revoke` takes an id or a prefix only one id starts with (taking an approval back
 * only makes a call ask again, so a short prefix can do no harm). `clear` asks at a terminal;
 * without one it needs `--yes`, so that no script clears them by accident. All of them are
 * recovery commands: a broken config file is left out with a warning.
 */
export * as ApprovalsCommand from "./approvals.js"

import { Effect } from "effect"
import { Approvals } from "../../permission/approvals.js"
import { Project } from "../../project.js"
import { CliLocation } from "../location.js"
import { Command } from "../command.js"
import { ExitCode } from "../exit-code.js"
import { Lookup } from "../lookup.js"

/** How long an approval holds, as listed: `project`, or `session <id>`. */
const scopeOf = (approval: Approvals.Approval) => (approval.sessionID === undefined ? "project" : `session ${approval.sessionID}`)

const plural = (count: number) => `${count} saved approval${count === 1 ? "" : "s"}`

/** The answers to the clear question that clear; anything else keeps them. */
export const YES: ReadonlyArray<string> = ["y", "yes"]

export const Messages = {
  usage: "Usage: toolgate approvals list | toolgate approvals revoke <id> | toolgate approvals clear [--yes]",
  none: (worktree: string) => `No saved approvals for ${worktree}.`,
  scope: scopeOf,
  line: (approval: Approvals.Approval) =>
    `${approval.id}  ${scopeOf(approval)}  ${approval.action}  ${approval.resource}  ${new Date(approval.createdAt).toISOString()}`,
  revoked: (approval: Approvals.Approval) => `Revoked ${approval.id}: ${approval.action} ${approval.resource}`,
  cleared: (count: number, worktree: string) => `Removed ${plural(count)} of ${worktree}.`,
  /** Written as is before the answer, on the same line. */
  confirm: (count: number, worktree: string) => `Remove all ${plural(count)} of ${worktree}? [y/N] `,
  kept: (count: number, worktree: string) => `Kept the ${plural(count)} of ${worktree}.`,
  needsYes: "toolgate approvals clear removes every saved approval of the project and there is no terminal to ask at: pass --yes to confirm.",
} as const

const revoke = (id: string, environment: Command.Environment) =>
  Effect.gen(function* () {
    const approvals = yield* Approvals.Service
    const project = yield* Project.Service
    const ids = (yield* approvals.list(project.id)).map((approval) => approval.id)
    const found = Lookup.resolve("approval", id, project.worktree, ids)
    if (typeof found !== "string") return yield* found
    environment.io.stdout(Messages.revoked(yield* approvals.remove(project.id, found)))
    return ExitCode.SUCCESS
  })

const clear = (parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const approvals = yield* Approvals.Service
    const project = yield* Project.Service
    const { io } = environment
    const count = (yield* approvals.list(project.id)).length
    if (count === 0) {
      io.stdout(Messages.none(project.worktree))
      return ExitCode.SUCCESS
    }
    if (parsed.values.yes !== true) {
      const answer = yield* Effect.promise(() => io.prompt(Messages.confirm(count, project.worktree)))
      if (!YES.includes(answer?.trim().toLowerCase() ?? "")) {
        io.stdout(Messages.kept(count, project.worktree))
        return ExitCode.DECLINED
      }
    }
    io.stdout(Messages.cleared(yield* approvals.clear(project.id), project.worktree))
    return ExitCode.SUCCESS
  })

const list = (parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const approvals = yield* Approvals.Service
    const project = yield* Project.Service
    const { io } = environment
    const all = yield* approvals.list(project.id)
    if (parsed.values.json === true) io.stdout(JSON.stringify(all, null, 2))
    else if (all.length === 0) io.stdout(Messages.none(project.worktree))
    else all.forEach((approval) => io.stdout(Messages.line(approval)))
    return ExitCode.SUCCESS
  })

const usage = (environment: Command.Environment, message: string) => {
  environment.io.stderr(message)
  return Promise.resolve(ExitCode.USAGE)
}

export const run: Command.Run = (parsed, environment) => {
  const [sub, id, ...rest] = parsed.positionals
  const yes = parsed.values.yes === true
  const run = (program: Effect.Effect<ExitCode.ExitCode, Approvals.NotFoundError | Lookup.Error, Approvals.Service | Project.Service>) =>
    CliLocation.run(parsed, environment, program, { recovery: true })
  if (rest.length > 0 || (yes && sub !== "clear")) return usage(environment, Messages.usage)
  if (sub === "list" && id === undefined) return run(list(parsed, environment))
  if (sub === "revoke" && id !== undefined) return run(revoke(id, environment))
  if (sub !== "clear" || id !== undefined) return usage(environment, Messages.usage)
  // Decided before anything is opened: without a person to ask, only --yes clears.
  if (!yes && !environment.io.isTTY) return usage(environment, Messages.needsYes)
  return run(clear(parsed, environment))
}
