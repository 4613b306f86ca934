/**
 * A Location is one working directory the agent acts in, with its own services (registry,
 * permission gate, sessions, snapshots; runtime.ts). One process may host several (locations.ts). The directory is resolved to its real path once, so every later containment check
 * compares real paths.
 */
export * as Location from "./location.js"

import { createHash } from "node:crypto"
import { realpathSync, statSync } from "node:fs"
import { stat } from "node:fs/promises"
import path from "node:path"
import { Context, Effect, Layer, Schema } from "effect"
import { Tracing } from "../tracing.js"

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
  /** Stable for the directory (`loc_` and a hash of its real path): names it in events and keys. */
  readonly id: string
  /** The real, absolute path of the working directory. */
  readonly directory: string
  /** Whether its file system ignores case (then path rules match case-insensitively too). */
  readonly caseInsensitive: boolean
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/Location") {}

export const resolve = Tracing.fn("Location.resolve")(function* (directory: string) {
  const absolute = path.resolve(directory)
  // Synchronous: two thread-pool round trips cost more than both system calls (a server resolves
  // the directory of every request).
  const real = yield* Effect.try({
    try: () => {
      const real = realpathSync.native(absolute)
      if (!statSync(real).isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" })
      return real
    },
    catch: (cause) => new DirectoryError({ directory: absolute, detail: (cause as NodeJS.ErrnoException).code ?? String(cause) }),
  })
  return real
})

/** The id of the Location at the real path `real`. */
export const idOf = (real: string): string => `loc_${createHash("sha256").update(real).digest("hex").slice(0, 20)}`

const toggleCase = (text: string) => [...text].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join("")

/**
 * Whether the file system holding `directory` ignores case: the same folder under its name with
 * every letter's case flipped is the same inode. A name without letters tells nothing; then the
 * platform's usual default stands (macOS and Windows ignore case).
 */
export const detectCaseInsensitive = (directory: string): Effect.Effect<boolean> =>
  Effect.promise(async () => {
    const name = path.basename(directory)
    const flipped = toggleCase(name)
    if (flipped === name) return process.platform === "darwin" || process.platform === "win32"
    const [original, probe] = await Promise.all([stat(directory), stat(path.join(path.dirname(directory), flipped)).catch(() => undefined)])
    return probe !== undefined && probe.ino === original.ino && probe.dev === original.dev
  })

export const layer = (directory: string) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const real = yield* resolve(directory)
      return Service.of({ id: idOf(real), directory: real, caseInsensitive: yield* detectCaseInsensitive(real) })
    }),
  )
