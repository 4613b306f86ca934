/**
 * What exists once per process, whatever number of Locations it hosts: the bus, the database,
 * the file mutation locks (two Locations over the same files exclude each other), the process
 * layer of tools (plugins) and the job that deletes expired tool output. Location layers
 * (runtime.ts) are built on top of this one; a surface builds it once.
 */
export * as ToolgateProcess from "./process.js"

import path from "node:path"
import { Layer } from "effect"
import { Bus } from "./bus.js"
import { Directories } from "./directories.js"
import { FileMutation } from "./location/file-mutation.js"
import { Database } from "./storage/database.js"
import { ApplicationTools } from "./tool/application-tools.js"
import { ToolOutputRetention } from "./tool-output-retention.js"

export type Services = Bus.Service | Database.Service | FileMutation.Service | ApplicationTools.Service

export interface Options {
  readonly environment?: Directories.Environment
}

/** The process services, with the output retention job running for as long as the layer is open. */
export const layer = (options: Options = {}): Layer.Layer<Services, Database.OpenError> => {
  const environment = options.environment ?? Directories.current()
  return Layer.mergeAll(ApplicationTools.layer, FileMutation.layer, ToolOutputRetention.layer({ directory: Directories.toolOutput(environment) })).pipe(
    Layer.provideMerge(Bus.layer),
    Layer.provideMerge(Database.layer(path.join(Directories.data(environment), Directories.DATABASE_FILE))),
  )
}
