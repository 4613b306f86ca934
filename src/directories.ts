/**
 * Where toolgate keeps things. Pure: every function takes the environment and home directory
 * it resolves against, so tests never touch the real home. Overrides win over XDG variables,
 * which win over the home-relative defaults.
 */
export * as Directories from "./directories.js"

import os from "node:os"
import path from "node:path"

export const APP = "toolgate"
export const CONFIG_FILE = "toolgate.json"
export const PROJECT_CONFIG_DIR = ".toolgate"
export const TOOL_OUTPUT_DIR = "tool-output"
export const DATABASE_FILE = "toolgate.db"
/** The variable that names a PostgreSQL database to keep the state in (storage/storage.ts). */
export const DATABASE_URL_ENV = "TOOLGATE_DATABASE_URL"

export interface Environment {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly home: string
}

export const current = (): Environment => ({ env: process.env, home: os.homedir() })

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value)

/** `TOOLGATE_DATA_DIR`, else `$XDG_DATA_HOME/toolgate`, else `~/.local/share/toolgate`. */
export const data = ({ env, home }: Environment = current()): string =>
  path.resolve(nonEmpty(env.TOOLGATE_DATA_DIR) ?? path.join(nonEmpty(env.XDG_DATA_HOME) ?? path.join(home, ".local", "share"), APP))

/** The folder of the global config file: `TOOLGATE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/toolgate`, else `~/.config/toolgate`. */
export const config = ({ env, home }: Environment = current()): string =>
  path.resolve(nonEmpty(env.TOOLGATE_CONFIG_DIR) ?? path.join(nonEmpty(env.XDG_CONFIG_HOME) ?? path.join(home, ".config"), APP))

export const globalConfigFile = (environment: Environment = current()): string => path.join(config(environment), CONFIG_FILE)

/** The two places a project config may be, in the order they are tried. */
export const projectConfigFiles = (location: string): ReadonlyArray<string> => [
  path.join(location, CONFIG_FILE),
  path.join(location, PROJECT_CONFIG_DIR, CONFIG_FILE),
]

export const toolOutput = (environment: Environment = current()): string => path.join(data(environment), TOOL_OUTPUT_DIR)
