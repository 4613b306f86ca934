/**
 * A Location is one working directory the agent acts in, with its own services (registry,
 * and in later issues the permission queue, file locks and snapshots). One process may host
 * several. The directory is resolved to its real path once, so every later containment check
 * compares real paths.
 */
export * as Location from "./location.js"

import { realpath, stat } from "node:fs/promises"
import path from "node:path"
import { Context, Effect, Layer, Schema } from "effect"

export const Messages = {
  notDirectory: (directory: string, detail: string) => `Cannot use ${directory} as the working directory: ${detail}`,
} as const

export class DirectoryError extends Schema.TaggedError<DirectoryError>()("Location.DirectoryError", {
  directory: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.notDirectory(this.directory, this.detail)
  }
}

export interface Interface {
  /** The real, absolute path of the working directory. */
  readonly directory: string
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Location") {}

export const resolve = Effect.fn("Location.resolve")(function* (directory: string) {
  const absolute = path.resolve(directory)
  const real = yield* Effect.tryPromise({
    try: async () => {
      const real = await realpath(absolute)
      if (!(await stat(real)).isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" })
      return real
    },
    catch: (cause) => new DirectoryError({ directory: absolute, detail: (cause as NodeJS.ErrnoException).code ?? String(cause) }),
  })
  return real
})

export const layer = (directory: string) => Layer.effect(Service, Effect.map(resolve(directory), (real) => Service.of({ directory: real })))
