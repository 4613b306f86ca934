/**
 * toolgate's own folders and files: its data folder (the database, the snapshots' repositories,
 * the code cache, saved output), the SQLite file's folder when it lies elsewhere, the global
 * config folder, a config file named by `--config`, and the folder of the running code (`code`).
 * Writing one is as good as changing the gate itself: a snapshot repository's `config` runs a
 * program through toolgate's own git, the database holds the approvals and the audit, the code
 * cache and the code are what the next start runs, and the config holds the rules. So no tool
 * writes there (file-access.ts refuses the target before any ask, even when the data folder lies
 * inside the working directory), and a sandboxed command may not read them, the code apart
 * (bash.ts). Compared in real form, ignoring case (refusing too much is safe).
 */
export * as OwnPaths from "./own-paths.js"

import path from "node:path"
import { fileURLToPath } from "node:url"
import type { Config } from "../config.js"
import type { Sql } from "../storage/sql.js"
import { LocationMutation } from "./mutation.js"
import { ToolOutputPath } from "./tool-output-path.js"

export const Messages = {
  refused: (file: string) =>
    `Cannot write ${file}: it belongs to toolgate itself (its data folder, database, config or code), which no tool may change; change it yourself if you mean to`,
} as const

export interface Sources {
  /** The data folder (the parent of `tool-output/`). */
  readonly data: string
  readonly storage: Pick<Sql.Interface, "dialect" | "location">
  readonly sources: Config.Info["sources"]
}

/** The folders and files, as configured (absolute, not resolved). */
export const list = ({ data, storage, sources }: Sources): ReadonlyArray<string> => [
  data,
  ...(storage.dialect === "sqlite" && path.isAbsolute(storage.location) ? [path.dirname(storage.location)] : []),
  ...sources.flatMap((source) => (source.scope === "global" ? [path.dirname(source.file)] : source.scope === "explicit" ? [source.file] : [])),
]

/** Whether the real path `real` is one of `owned` (real forms) or inside one. */
export const holds = (owned: ReadonlyArray<string>, real: string): boolean => owned.some((own) => LocationMutation.contains(own, real, true))

/**
 * Whether the real path `real` is a folder above one of `owned` (real forms): removing, moving or
 * extracting into it reaches toolgate's own files under another name (`rm -rf ~/.config` with
 * the global config in `~/.config/toolgate`). Ignoring case, as `holds`.
 * @example OwnPaths.above(["/home/me/.config/toolgate"], "/home/me/.config") // true
 */
export const above = (owned: ReadonlyArray<string>, real: string): boolean =>
  owned.some((own) => own.toLowerCase() !== real.toLowerCase() && LocationMutation.contains(real, own, true))

/**
 * The folder of the code that is running: the CLI bundle's (`dist/cli`), else the folder above
 * this module's (the package's `dist`, or `src` from source). Writing it is changing the gate on
 * the next start: with toolgate installed in a project's `node_modules`, `write
 * node_modules/toolgate/dist/cli/bin.cjs` was allowed under `build`. Not hidden from a sandboxed
 * command (`list`), which may well load the package it tests.
 */
export const code = (): string => {
  const here = path.dirname(fileURLToPath(import.meta.url))
  return path.basename(here) === "cli" ? here : path.dirname(here)
}

/** The real forms of `list` and `code`, for `holds`; paths that do not exist yet resolve through their deepest existing folder. */
export const realForms = (sources: Sources): ReadonlyArray<string> => [...list(sources), code()].map(ToolOutputPath.realForm)
