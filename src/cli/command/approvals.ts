/**
 * `toolgate approvals list | revoke <id> | clear`: the saved approvals of the project in `--dir`
 * and of its sessions, each with its scope, so a person can see and take back what they allowed
 * "always". `revoke` takes an id or a prefix only one id starts with (taking an approval back
 * only makes a call ask again, so a short prefix can do no harm). All of them are recovery
 * commands: a broken config file is left out with a warning.
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

export const Messages = {
  usage: "Usage: toolgate approvals list | toolgate approvals revoke <id> | toolgate approvals clear",
  none: (worktree: string) => `No saved approvals for ${worktree}.`,
  scope: scopeOf,
  line: (approval: Approvals.Approval) =>
    `${approval.id}  ${scopeOf(approval)}  ${approval.action}  ${approval.resource}  ${new Date(approval.createdAt).toISOString()}`,
  revoked: (approval: Approvals.Approval) => `Revoked ${approval.id}: ${approval.action} ${approval.resource}`,
  cleared: (count: number, worktree: string) => `Removed ${count} saved approval${count === 1 ? "" : "s"} of ${worktree}.`,
} as const

const program = (sub: string, id: string | undefined, parsed: Command.Parsed, environment: Command.Environment) =>
  Effect.gen(function* () {
    const approvals = yield* Approvals.Service
    const project = yield* Project.Service
    const { io } = environment
    if (sub === "revoke") {
      const ids = (yield* approvals.list(project.id)).map((approval) => approval.id)
      const found = Lookup.resolve("approval", id as string, project.worktree, ids)
      if (typeof found !== "string") return yield* found
      io.stdout(Messages.revoked(yield* approvals.remove(project.id, found)))
      return ExitCode.SUCCESS
    }
    if (sub === "clear") {
      io.stdout(Messages.cleared(yield* approvals.clear(project.id), project.worktree))
      return ExitCode.SUCCESS
    }
    const list = yield* approvals.list(project.id)
    if (parsed.values.json === true) io.stdout(JSON.stringify(list, null, 2))
    else if (list.length === 0) io.stdout(Messages.none(project.worktree))
    else list.forEach((approval) => io.stdout(Messages.line(approval)))
    return ExitCode.SUCCESS
  })

export const run: Command.Run = (parsed, environment) => {
    const [sub, id, ...rest] = parsed.positionals
    const valid = rest.length === 0 && ((sub === "list" && id === undefined) || (sub === "clear" && id === undefined) || (sub === "revoke" && id !== undefined))
    if (!valid) {
      environment.io.stderr(Messages.usage)
      return Promise.resolve(ExitCode.USAGE)
    }
    return CliLocation.run(parsed, environment, program(sub as string, id, parsed, environment), { recovery: true })
  }
