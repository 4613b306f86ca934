/**
 * Production wiring of one Location over the process services (process.ts): the Location (its
 * real directory), its bus view, project, config, output store, registry, sessions, permission
 * gate and the built-in tools. `Locations` opens and shares these; `layer` builds one Location
 * with a process of its own for a single command, a test or a benchmark. Extra registrations,
 * such as plugins or a test's tools, come in as a layer that needs `ApplicationTools`,
 * `ToolRegistry.Tools` or `Permission`.
 */
export * as Runtime from "./runtime.js"

import { Effect, Layer } from "effect"
import { Bus } from "./bus.js"
import { Config } from "./config.js"
import { Directories } from "./directories.js"
import { Location } from "./location/location.js"
import { Approvals } from "./permission/approvals.js"
import { AuditLog } from "./permission/audit-log.js"
import { Permission } from "./permission/permission.js"
import { Project } from "./project.js"
import { SandboxMode } from "./sandbox/mode.js"
import { Question } from "./question.js"
import { Session } from "./session.js"
import { CallLog } from "./session/call-log.js"
import { History } from "./snapshot/history.js"
import { Snapshot } from "./snapshot/snapshot.js"
import { LocationBus } from "./location/bus.js"
import { ToolgateProcess } from "./process.js"
import { Todo } from "./todo.js"
import { InteractionStore } from "./interaction/store.js"
import { ApplicationTools } from "./tool/application-tools.js"
import { FileAccess } from "./tool/builtin/file-access.js"
import { SkillCatalog } from "./tool/builtin/skill/catalog.js"
import { ExternalServers } from "./external/servers.js"
import { WebSearchTool } from "./tool/builtin/websearch.js"
import { Builtins } from "./tool/builtins.js"
import { ToolRegistry } from "./tool/registry.js"
import { ToolOutputStore } from "./tool-output-store.js"

export interface Options {
  /** The working directory (default: the process's). */
  readonly directory: string
  /** `--config <file>`, added after every other config file. */
  readonly config?: string
  readonly environment?: Directories.Environment
  /** What an `ask` becomes: a pending request for a person (default), or a deny. */
  readonly askPolicy?: Permission.AskPolicy
  /** Leave a broken config file out instead of failing (Config's `skipBroken`): only for what runs no tool. */
  readonly skipBrokenConfig?: boolean
  /** `--sandbox <mode>`: the bash sandbox whatever the config files say. */
  readonly sandbox?: SandboxMode.Mode
}

/** What one Location provides (the process services under it included). */
export type Services =
  | ToolgateProcess.Services
  | Location.Service
  | Project.Service
  | Config.Service
  | ToolOutputStore.Service
  | ToolRegistry.Service
  | ToolRegistry.Tools
  | Approvals.Service
  | AuditLog.Service
  | CallLog.Service
  | Session.Service
  | InteractionStore.Service
  | Permission.Service
  | FileAccess.Service
  | History.Service
  | Snapshot.Service
  | Question.Service
  | Todo.Service
  | SkillCatalog.Service
  | ExternalServers.Service

export type Extra<E> = Layer.Layer<never, E, ApplicationTools.Service | ToolRegistry.Tools | Permission.Service>

/** The per-Location services over the process's (process.ts): what one working directory needs. */
export const locationLayer = <E = never>(options: Options, extra: Extra<E> = Layer.empty as Extra<E>) => {
  const environment = options.environment ?? Directories.current()
  const dataDir = Directories.data(environment)
  const config = Layer.unwrap(
    Effect.map(Location.Service, (location) =>
      Config.layer({
        location: location.directory,
        environment,
        ...(options.config === undefined ? {} : { explicit: options.config }),
        ...(options.skipBrokenConfig === true ? { skipBroken: true } : {}),
        ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
      }),
    ),
  )
  const store = ToolOutputStore.projectLayer({ directory: Directories.toolOutput(environment) })
  const permission = Permission.layer({ home: environment.home, ...(options.askPolicy === undefined ? {} : { askPolicy: options.askPolicy }) })
  return extra.pipe(
    // API keys come from the Location's environment (the CLI's, or a test's).
    Layer.provideMerge(Builtins.layer.pipe(Layer.provide(Layer.succeed(WebSearchTool.Environment, environment.env)))),
    // External MCP servers register beside the built-ins, so a clash with a built-in name is seen.
    Layer.provideMerge(ExternalServers.layer),
    Layer.provideMerge(Layer.mergeAll(FileAccess.layer({ home: environment.home }), History.layerWithSnapshot(dataDir), Question.layer, Todo.layer, SkillCatalog.layer({ environment }))),
    Layer.provideMerge(permission),
    Layer.provideMerge(Layer.mergeAll(Session.layer, Approvals.layer, AuditLog.layer, CallLog.layer)),
    // Pending asks and questions of every session, with their answerers; closed after the gate.
    Layer.provideMerge(InteractionStore.layer),
    Layer.provideMerge(ToolRegistry.layerWithTools),
    Layer.provideMerge(store),
    Layer.provideMerge(config),
    Layer.provideMerge(Project.layer),
    Layer.provideMerge(LocationBus.layer),
    Layer.provideMerge(Location.layer(options.directory)),
  )
}

/** One Location with a process of its own under it: for a single command, a test or a benchmark. */
export const layer = <E = never>(options: Options, extra: Extra<E> = Layer.empty as Extra<E>) =>
  locationLayer(options, extra).pipe(Layer.provideMerge(ToolgateProcess.layer(options.environment === undefined ? {} : { environment: options.environment })))
