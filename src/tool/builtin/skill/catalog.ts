/**
 * The skills of one Location, discovered once when the Location's layer is built (the `skill`
 * tool's description lists them, so they are fixed for the Location's lifetime; a new or edited
 * skill shows up in the next process). Needs the Location, its config (`skills` paths), the
 * project (a project file's `skills` count only once that file is trusted with its content; until
 * then each entry is a problem saying so) and the environment for the home and config folders.
 */
export * as SkillCatalog from "./catalog.js"

import path from "node:path"
import { Context, Effect, Layer } from "effect"
import { Config } from "../../../config.js"
import { Directories } from "../../../directories.js"
import { Location } from "../../../location/location.js"
import { Project } from "../../../project.js"
import { SkillDiscovery } from "./discovery.js"

export const Messages = {
  untrusted: (entry: string, file: string) => `Cannot load skills from ${entry}: ${file} is not trusted, and a project config's skills count once the person trusts it (toolgate trust)`,
} as const

export interface Interface extends SkillDiscovery.Found {}

export class Service extends Context.Service<Service, Interface>()("@toolgate/SkillCatalog") {}

export interface Options {
  readonly environment: Directories.Environment
}

interface Entry extends SkillDiscovery.Configured {
  readonly file: string
}

/** Every config `skills` entry in file order, each with the file it came from and whose it is. */
export const entries = (files: ReadonlyArray<Config.ConfigValidate.File>): ReadonlyArray<Entry> =>
  files.flatMap((file) => (file.skills ?? []).map((entry) => ({ entry, file: file.path, origin: file.scope === "project" ? ("project" as const) : ("person" as const) })))

export const layer = (options: Options) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const location = yield* Location.Service
      const config = yield* Config.Service
      const trusted = yield* Effect.flatMap(Project.Service, (project) => project.trusted)
      const all = entries(config.files)
      const counts = (entry: Entry) => entry.origin === "person" || trusted
      const found = yield* Effect.promise(() =>
        SkillDiscovery.discover({ location: location.directory, environment: options.environment, configured: all.filter(counts) }),
      )
      const withheld = all.filter((entry) => !counts(entry)).map((entry) => ({ folder: path.basename(entry.entry), message: Messages.untrusted(entry.entry, entry.file) }))
      return Service.of({ skills: found.skills, problems: [...found.problems, ...withheld] })
    }).pipe(Effect.withSpan("SkillCatalog.discover")),
  )

/** A fixed catalog, for tests and embedders. */
export const layerOf = (found: SkillDiscovery.Found) => Layer.succeed(Service, Service.of(found))

export const defaultLayer = layer({ environment: Directories.current() })
