/**
 * `toolgate/ai`: toolgate on the Vercel AI SDK (ai@6). `toolSet` hands a session's catalog to
 * `generateText` / `streamText` / `ToolLoopAgent`; `Runner.loop` is toolgate's own turn loop,
 * a catalog per step; `StopError` is how a person's "no" ends the SDK's loop (docs/run.md).
 */
export { toolSet, fromCatalog, type Options, type Settler } from "./tool-set.js"
export { StopError, ToolCallError, type StopKind } from "./stop.js"
export { Runner } from "./runner.js"
export { ModelOutput } from "./model-output.js"
