/**
 * Which database a process keeps its state in: the SQLite file in the data folder (the default,
 * one person on one machine), or PostgreSQL when `TOOLGATE_DATABASE_URL` or the global config's
 * `storage.url` names one (a team). Only a person's own settings choose: a project file cannot
 * move anyone's approvals or audit elsewhere (config/validate.ts refuses `storage` there).
 */
export * as Storage from "./storage.js"

import { readFileSync } from "node:fs"
import path from "node:path"
import { Effect, Layer } from "effect"
import { Jsonc } from "../config/jsonc.js"
import { Directories } from "../directories.js"
import { Database } from "./database.js"
import type { Sql } from "./sql.js"


/**
 * The PostgreSQL URL the environment or the global config names, else undefined (SQLite). A
 * global config that cannot be read names none: the command that reads it reports it.
 */
export const urlOf = (environment: Directories.Environment): string | undefined => {
  const named = environment.env[Directories.DATABASE_URL_ENV]
  if (named !== undefined && named !== "") return named
  try {
    const parsed = Jsonc.parse(readFileSync(Directories.globalConfigFile(environment), "utf8"))
    const storage = "value" in parsed ? (parsed.value as { storage?: { url?: unknown } } | null)?.storage : undefined
    return typeof storage?.url === "string" && storage.url !== "" ? storage.url : undefined
  } catch {
    // Deliberate: no global config file (the common case) or an unreadable one names no database.
    return undefined
  }
}

/**
 * The storage of the process: PostgreSQL at `url`, else the SQLite file of the data folder. The
 * PostgreSQL client loads only when it is used: a single user's commands never read it.
 */
export const layer = (environment: Directories.Environment, url = urlOf(environment)): Layer.Layer<Sql.Service, Database.OpenError> =>
  url === undefined
    ? Database.layer(path.join(Directories.data(environment), Directories.DATABASE_FILE))
    : Layer.unwrap(Effect.map(Effect.promise(() => import("./postgres.js")), ({ PostgresSql }) => PostgresSql.layer(url)))
