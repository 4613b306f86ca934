/**
 * The skills of one Location, discovered once when the Location's layer is built (the `skill`
 * tool's description lists them, so they are fixed for the Location's lifetime; a new or edited
 * skill shows up in the next process). Needs the Location, its config (`skills` paths) and the
 * environment for the home and global config folders.
 */
export * as SkillCatalog from "./catalog.js"

import { Context, Effect, Layer } from "effect"
import { Config } from "../../../config.js"
import { Directories } from "../../../directories.js"
import { Location } from "../../../location/location.js"
import { SkillDiscovery } from "./discovery.js"

export interface Interface extends SkillDiscovery.Found {}

export class Service extends Context.Service<Service, Interface>()("@toolgate/SkillCatalog") {}

export interface Options {
  readonly environment: Directories.Environment
}

export const layer = (options: Options) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const location = yield* Location.Service
      const config = yield* Config.Service
      const found = yield* Effect.promise(() =>
        SkillDiscovery.discover({ location: location.directory, environment: options.environment, configured: config.skills }),
      )
      return Service.of(found)
    }).pipe(Effect.withSpan("SkillCatalog.discover")),
  )

/** A fixed catalog, for tests and embedders. */
export const layerOf = (found: SkillDiscovery.Found) => Layer.succeed(Service, Service.of(found))

export const defaultLayer = layer({ environment: Directories.current() })
