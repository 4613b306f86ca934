/**
 * Every CLI command's spec, in the order the overview lists them. Data only: help and flag
 * parsing read this without loading any command (commands.ts loads them).
 */
export * as Catalog from "./catalog.js"

import type { Spec } from "./spec.js"
import { ApprovalsSpec } from "./spec/approvals.js"
import { CallSpec } from "./spec/call.js"
import { ConfigSpec } from "./spec/config.js"
import { LogSpec } from "./spec/log.js"
import { McpServersSpec } from "./spec/mcp-servers.js"
import { McpSpec } from "./spec/mcp.js"
import { PermissionSpec } from "./spec/permission.js"
import { RunSpec } from "./spec/run.js"
import { ServeSpec } from "./spec/serve.js"
import { SessionSpec } from "./spec/session.js"
import { TodoSpec } from "./spec/todo.js"
import { ToolsSpec } from "./spec/tools.js"
import { TrustSpec } from "./spec/trust.js"

export const COMMANDS: ReadonlyArray<Spec.Spec> = [
  CallSpec.spec,
  RunSpec.spec,
  ToolsSpec.spec,
  PermissionSpec.spec,
  ApprovalsSpec.spec,
  TrustSpec.trust,
  TrustSpec.untrust,
  ConfigSpec.spec,
  SessionSpec.spec,
  LogSpec.spec,
  TodoSpec.spec,
  ServeSpec.spec,
  McpSpec.spec,
  McpServersSpec.spec,
]

export const NAMES: ReadonlyArray<string> = COMMANDS.map((spec) => spec.name)

export const find = (name: string): Spec.Spec | undefined => COMMANDS.find((spec) => spec.name === name)
