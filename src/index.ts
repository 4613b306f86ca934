/**
 * toolgate's public surface: one namespace per concept (see each module's own docblock).
 * @example
 * import { Tool, ToolRegistry } from "toolgate"
 */
export { Tool } from "./tool/tool.js"
export { ToolRegistry } from "./tool/registry.js"
export { ApplicationTools } from "./tool/application-tools.js"
export { ToolJsonSchema } from "./tool/json-schema.js"
export { ModelTools } from "./tool/model-tools.js"
export { ToolOutputStore } from "./tool-output-store.js"
export { ToolOutputPreview } from "./tool-output-preview.js"
export { Permission } from "./permission/permission.js"
export { Interaction } from "./interaction/interaction.js"
export { InteractionStore } from "./interaction/store.js"
export { Answerer } from "./interaction/answerer.js"
export { PermissionShown } from "./permission/shown.js"
export { Wildcard } from "./permission/wildcard.js"
export { Location } from "./location/location.js"
export { Config } from "./config.js"
export { Directories } from "./directories.js"
export { Bus } from "./bus.js"
export { Runtime } from "./runtime.js"
export { Toolgate } from "./toolgate.js"
export { ToolgateProcess } from "./process.js"
export { Locations } from "./locations.js"
export { SessionTurn } from "./session/turn.js"
export { Id } from "./storage/id.js"
export { Cli } from "./cli/main.js"
export { ExitCode } from "./cli/exit-code.js"

import { register } from "./tool/application-tools.js"

/** Plugin authors' entry: `toolgate.tools.register({ name: tool })` adds process-wide tools for the caller's scope. */
export const tools = { register } as const
