/**
 * Production wiring of one process and one Location: the bus and process tools, the Location
 * (its real directory), its config, output store and registry. Surfaces (CLI, later the server
 * and MCP) build this once and call services on it; extra registrations, such as plugins or a
 * test's tools, come in as a layer that needs `ApplicationTools` or `ToolRegistry.Tools`.
 */
export * as Runtime from "./runtime.js"

import { Effect, Layer } from "effect"
import { Bus } from "./bus.js"
import { Config } from "./config.js"
import { Directories } from "./directories.js"
import { Location } from "./location/location.js"
import { ApplicationTools } from "./tool/application-tools.js"
import { ToolRegistry } from "./tool/registry.js"
import { ToolOutputStore } from "./tool-output-store.js"

export interface Options {
  /** The working directory (default: the process's). */
  readonly directory: string
  /** `--config <file>`, added after every other config file. */
  readonly config?: string
  readonly environment?: Directories.Environment
}

export type Services = Bus.Service | ApplicationTools.Service | Location.Service | Config.Service | ToolOutputStore.Service | ToolRegistry.Service | ToolRegistry.Tools

/** Everything one Location needs, with `extra` registrations applied on top. */
export const layer = <E = never>(options: Options, extra: Layer.Layer<never, E, ApplicationTools.Service | ToolRegistry.Tools> = Layer.empty as Layer.Layer<never, E>) => {
  const environment = options.environment ?? Directories.current()
  const process = ApplicationTools.layer.pipe(Layer.provideMerge(Bus.layer))
  const config = Layer.unwrap(
    Effect.map(Location.Service, (location) =>
      Config.layer({ location: location.directory, environment, ...(options.config === undefined ? {} : { explicit: options.config }) }),
    ),
  )
  const store = ToolOutputStore.layer({ directory: Directories.toolOutput(environment) })
  return extra.pipe(
    Layer.provideMerge(ToolRegistry.layerWithTools),
    Layer.provideMerge(store),
    Layer.provideMerge(config),
    Layer.provideMerge(Location.layer(options.directory)),
    Layer.provideMerge(process),
  )
}
