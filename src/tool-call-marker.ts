/**
 * The mark a tool call leaves on the processes it starts: `TOOLGATE_TOOL_CALL` in their
 * environment, set to the call's id (or `1`). Commands that only a person may run (`toolgate
 * trust`) refuse when they see it, so an agent cannot raise its own rights through a command it
 * was allowed to run (`npm test` whose script runs `toolgate trust`). The variable counts when it
 * is set at all, even empty. Gotcha: a command can remove it (`env -u`, `unset`); the bash gate
 * has to treat commands that run toolgate as opaque. The mark is a second line, not the first.
 */
export * as ToolCallMarker from "./tool-call-marker.js"

/** The environment variable every command a toolgate tool call runs carries. */
export const VARIABLE = "TOOLGATE_TOOL_CALL"

/** What a call without an id sets. */
export const ANONYMOUS = "1"

/**
 * The variable as a process environment entry, for a tool that starts processes.
 * @example { ...process.env, ...ToolCallMarker.environment("call_0193a4c2") } // TOOLGATE_TOOL_CALL=call_0193a4c2
 */
export const environment = (toolCallID?: string): Readonly<Record<string, string>> => ({
  [VARIABLE]: toolCallID === undefined || toolCallID === "" ? ANONYMOUS : toolCallID,
})

/**
 * The marking call's id (`1` when it had none, `""` when set empty), or undefined when this
 * process was not started by a tool call.
 * @example ToolCallMarker.of({ TOOLGATE_TOOL_CALL: "call_1" }) // "call_1"
 */
export const of = (env: Readonly<Record<string, string | undefined>>): string | undefined => env[VARIABLE]
