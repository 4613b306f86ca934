/**
 * The retention job for saved tool output: once per process (not per Location), at start and
 * then every `CLEANUP_INTERVAL`, delete saved outputs (`tool_…`) and bash spools (`shell_…`) older
 * than `RETENTION`, at any depth under the tool-output folder, and the folders that leaves empty.
 * Nothing else there is touched; a file that cannot be seen or deleted is left for the next run.
 */
export * as ToolOutputRetention from "./tool-output-retention.js"

import { readdir, rmdir, stat, unlink } from "node:fs/promises"
import path from "node:path"
import { Clock, Context, Duration, Effect, Layer } from "effect"

export const RETENTION = Duration.days(7)
export const CLEANUP_INTERVAL = Duration.hours(1)
/** Files the job deletes: saved outputs, and bash's spooled output (07). */
export const RETAINED_PREFIXES = ["tool_", "shell_"] as const

export interface Interface {
  /** Deletes what expired now; returns how many files went. */
  readonly cleanup: Effect.Effect<number>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/ToolOutputRetention") {}

/** Deletes expired retained files under `folder` (recursively) and folders left empty below it. */
const sweep = async (folder: string, cutoff: number): Promise<number> => {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => [])
  const counts = await Promise.all(
    entries.map(async (entry) => {
      const file = path.join(folder, entry.name)
      if (entry.isDirectory()) {
        const removed = await sweep(file, cutoff)
        // Only a folder that is empty now goes; rmdir refuses any other.
        await rmdir(file).catch(() => undefined)
        return removed
      }
      if (!entry.isFile() || !RETAINED_PREFIXES.some((prefix) => entry.name.startsWith(prefix))) return 0
      const info = await stat(file).catch(() => undefined)
      if (info === undefined || info.mtimeMs >= cutoff) return 0
      return unlink(file).then(() => 1, () => 0)
    }),
  )
  return counts.reduce((sum, count) => sum + count, 0)
}

/** Deletes what expired under `directory` at `now`; returns how many files went. */
export const cleanupAt = (directory: string, now: number): Promise<number> => sweep(path.resolve(directory), now - Duration.toMillis(RETENTION))

export const layer = (options: { readonly directory: string }) =>
  Layer.effect(
    Service,
    Effect.gen(function* () {
      const cleanup = Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.promise(() => cleanupAt(options.directory, now))).pipe(
        Effect.withSpan("ToolOutputRetention.cleanup"),
      )
      yield* cleanup
      yield* Effect.forkScoped(cleanup.pipe(Effect.delay(CLEANUP_INTERVAL), Effect.forever))
      return Service.of({ cleanup })
    }),
  )
