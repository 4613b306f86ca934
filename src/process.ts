/**
 * What exists once per process, whatever number of Locations it hosts: the bus, the storage (storage/storage.ts),
 * the file mutation locks (two Locations over the same files exclude each other), the process
 * layer of tools (plugins) and the job that deletes expired tool output. Location layers
 * (runtime.ts) are built on top of this one; a surface builds it once.
 */
export * as ToolgateProcess from "./process.js"

import { Effect, Layer } from "effect"
import { Bus } from "./bus.js"
import { Directories } from "./directories.js"
import { FileMutation } from "./location/file-mutation.js"
import type { Database } from "./storage/database.js"
import type { Sql } from "./storage/sql.js"
import { Storage } from "./storage/storage.js"
import { ApplicationTools } from "./tool/application-tools.js"
import { ToolOutputRetention } from "./tool-output-retention.js"

export type Services = Bus.Service | Sql.Service | FileMutation.Service | ApplicationTools.Service

export interface Options {
  readonly environment?: Directories.Environment
  /** A PostgreSQL URL; default: the one `Storage.urlOf` finds, else the SQLite file. */
  readonly storageUrl?: string
}

/** The process services, with the output retention job running for as long as the layer is open. */
export const layer = (options: Options = {}): Layer.Layer<Services, Database.OpenError> => {
  const environment = options.environment ?? Directories.current()
  const url = options.storageUrl ?? Storage.urlOf(environment)
  // On a PostgreSQL servers share, their asks are shared too; its client loads only then.
  const shared =
    url === undefined ? Layer.empty : Layer.unwrap(Effect.map(Effect.promise(() => import("./interaction/shared-postgres.js")), ({ SharedAsksPostgres }) => SharedAsksPostgres.layer(url)))
  return Layer.mergeAll(ApplicationTools.layer, FileMutation.layer, ToolOutputRetention.layer({ directory: Directories.toolOutput(environment) }), shared).pipe(
    Layer.provideMerge(Bus.layer),
    Layer.provideMerge(Storage.layer(environment, url)),
  )
}
