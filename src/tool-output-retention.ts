/**
 * The retention job for saved tool output: once per process (not per Location), at start and
 * then every `CLEANUP_INTERVAL`, delete saved outputs (`tool_…`) and bash spools (`shell_…`) older
 * than `RETENTION` at the top level (where older versions saved them), in project folders and in
 * session folders, without following links; a project or session folder left empty goes only
 * once nothing entered or left it for `RETENTION` (a live session's folder is never pulled from
 * under its next save). Nothing else there is touched; what cannot be seen or deleted is left for
 * the next run.
 */
export * as ToolOutputRetention from "./tool-output-retention.js"

import { lstat, readdir, rmdir, unlink } from "node:fs/promises"
import path from "node:path"
import { Clock, Context, Duration, Effect, Layer } from "effect"

export const RETENTION = Duration.days(7)
export const CLEANUP_INTERVAL = Duration.hours(1)
/** Files the job deletes: saved outputs, and bash's spooled output (07). */
export const RETAINED_PREFIXES = ["tool_", "shell_"] as const
/** Folder levels below the top: project folders, then session folders (ToolOutputPath). */
export const LEVELS = 2

export interface Interface {
  /** Deletes what expired now; returns how many files went. */
  readonly cleanup: Effect.Effect<number>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/ToolOutputRetention") {}

const isRetained = (name: string) => RETAINED_PREFIXES.some((prefix) => name.startsWith(prefix))

/** Deletes the expired saved files in `folder`, and below it to `depth` more folder levels; returns how many went. */
const sweep = async (folder: string, cutoff: number, depth: number): Promise<number> => {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => [])
  const counts = await Promise.all(
    entries.map(async (entry) => {
      const file = path.join(folder, entry.name)
      if (entry.isDirectory()) return depth > 0 ? prune(file, cutoff, depth - 1) : 0
      if (!entry.isFile() || !isRetained(entry.name)) return 0
      const info = await lstat(file).catch(() => undefined)
      if (info === undefined || !info.isFile() || info.mtimeMs >= cutoff) return 0
      return unlink(file).then(() => 1, () => 0)
    }),
  )
  return counts.reduce((sum, count) => sum + count, 0)
}

/**
 * `sweep`, then removes the folder if it is empty and nothing entered or left it for the
 * retention time before (a live session's folder is never pulled from under its next save).
 */
const prune = async (folder: string, cutoff: number, depth: number): Promise<number> => {
  const before = await lstat(folder).catch(() => undefined)
  const removed = await sweep(folder, cutoff, depth)
  // rmdir removes only an empty folder: one with anything left in it stays.
  if (before !== undefined && before.mtimeMs < cutoff) await rmdir(folder).catch(() => undefined)
  return removed
}

/** Deletes what expired under `directory` at `now`; returns how many files went. */
export const cleanupAt = (directory: string, now: number): Promise<number> => sweep(path.resolve(directory), now - Duration.toMillis(RETENTION), LEVELS)

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
