/**
 * One tool of an external MCP server as a toolgate tool, registered as `<server>_<tool>`. Its
 * input schema is the server's, its output schema only when the server declares one, and its
 * description says which server it comes from. Every call asks the gate first: the action is the
 * registered name and the resource `*` (rules like `github_* * ask` work), with the arguments shown
 * to whoever is asked; a server named by a project file is allowed only by a rule or approval
 * naming its tools (`namedBy`), never by a catch-all. Then the call goes to the server, and its
 * result is the tool's output, bounded like any other.
 */
export * as ExternalTool from "./tool.js"

import { Effect } from "effect"
import type { Permission } from "../permission/permission.js"
import type { PermissionShown } from "../permission/shown.js"
import { Tool } from "../tool/tool.js"
import { ExternalResult } from "./result.js"

export const Messages = {
  description: (server: string, description: string) => `From the MCP server ${server}: ${description}`,
  unavailable: (server: string, detail: string) => `The MCP server ${server} is not available: ${detail}`,
} as const

/** The longest argument text shown when asked; the rest is named, not shown. */
export const MAX_ARGUMENTS_SHOWN = 4_000

/** A tool as a server lists it (`tools/list`). */
export interface Listed {
  readonly name: string
  readonly description?: string
  readonly inputSchema: Readonly<Record<string, unknown>>
  readonly outputSchema?: Readonly<Record<string, unknown>>
}

/** What calling one of the server's tools takes: the tool's own name, the arguments, a signal that stops it. */
export type Call = (name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, context: Tool.Context) => Promise<{ readonly content?: unknown; readonly structuredContent?: unknown; readonly isError?: unknown }>

export interface Options {
  readonly server: string
  /** Whether a project file named the server: then only a rule naming its tools allows them. */
  readonly fromProject: boolean
  readonly permission: Permission.Interface
  readonly call: Call
}

/** The name a server's tool is registered under. */
export const nameOf = (server: string, tool: string) => `${server}_${tool}`

const argumentsShown = (args: unknown) => {
  const text = JSON.stringify(args) ?? "{}"
  return text.length <= MAX_ARGUMENTS_SHOWN ? text : `${text.slice(0, MAX_ARGUMENTS_SHOWN)}… (${text.length - MAX_ARGUMENTS_SHOWN} more characters)`
}

export const make = (listed: Listed, options: Options): Tool.AnyTool => {
  const registered = nameOf(options.server, listed.name)
  return Tool.fromJsonSchema({
    description: Messages.description(options.server, listed.description ?? listed.name),
    inputSchema: listed.inputSchema,
    ...(listed.outputSchema === undefined ? {} : { outputSchema: listed.outputSchema }),
    execute: (input, context) =>
      Effect.gen(function* () {
        yield* Tool.ask(options.permission, context, {
          action: registered,
          resources: ["*"],
          save: ["*"],
          metadata: { server: options.server, tool: listed.name, arguments: argumentsShown(input) } satisfies PermissionShown.Shown,
          ...(options.fromProject ? { namedBy: `${options.server}_` } : {}),
        })
        const result = yield* Effect.tryPromise({
          try: (signal) => options.call(listed.name, input, signal, context),
          catch: (cause) => new Tool.Failure({ message: Messages.unavailable(options.server, cause instanceof Error ? cause.message : String(cause)) }),
        })
        const converted = ExternalResult.of(registered, result)
        if (converted.type === "failed") return yield* new Tool.Failure({ message: converted.message })
        return converted.output
      }),
  })
}
