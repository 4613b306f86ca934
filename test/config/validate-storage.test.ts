/**
 * `storage.url` (only in the global file: the database is chosen once per process) and
 * `project.id` (a project's id on a shared database when it has no git history), and how the
 * process finds the URL: the environment first, then the global file.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { ConfigError } from "../../src/config/errors.js"
import { ConfigValidate } from "../../src/config/validate.js"
import { Directories } from "../../src/directories.js"
import { Storage } from "../../src/storage/storage.js"

const file = (body: unknown, scope: ConfigValidate.Scope = "global") => ConfigValidate.file("/dir/toolgate.json", scope, body)

describe("ConfigValidate storage and project", () => {
  it("takes a postgres URL in the global file, and a project id anywhere", () => {
    expect(file({ storage: { url: "postgres://team@db.internal/toolgate" } })).not.toBeInstanceOf(Error)
    expect(file({ storage: { url: "postgresql://db/toolgate" } })).not.toBeInstanceOf(Error)
    expect(file({ project: { id: "team-docs" } }, "project")).not.toBeInstanceOf(Error)
  })

  it("refuses storage in a project or --config file, naming where it belongs, and a URL that is not postgres", () => {
    expect(file({ storage: { url: "postgres://db/t" } }, "project")).toEqual(
      new ConfigError.InvalidValueError({ file: "/dir/toolgate.json", key: "storage", expected: "no value in a project file (the database is chosen once per process: the global config file or TOOLGATE_DATABASE_URL names it)" }),
    )
    expect(file({ storage: { url: "postgres://db/t" } }, "explicit")).toEqual(
      new ConfigError.InvalidValueError({ file: "/dir/toolgate.json", key: "storage", expected: "no value in a --config file (the database is chosen once per process: the global config file or TOOLGATE_DATABASE_URL names it)" }),
    )
    expect(file({ storage: { url: "mysql://db/t" } })).toEqual(new ConfigError.InvalidValueError({ file: "/dir/toolgate.json", key: "storage.url", expected: "a postgres:// URL" }))
    expect(file({ storage: { path: "/x" } })).toBeInstanceOf(Error)
    expect(file({ project: { id: "  " } }, "project")).toEqual(new ConfigError.InvalidValueError({ file: "/dir/toolgate.json", key: "project.id", expected: "a non-empty string" }))
  })

  it("Storage.urlOf: TOOLGATE_DATABASE_URL, else the global file's storage.url, else none (SQLite)", () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "toolgate-storage-url-"))
    const environment = (env: Record<string, string>) => ({ env: { XDG_CONFIG_HOME: path.join(home, "config"), ...env }, home })
    expect(Storage.urlOf(environment({}))).toBeUndefined()
    const global = Directories.globalConfigFile(environment({}))
    mkdirSync(path.dirname(global), { recursive: true })
    writeFileSync(global, '{ "storage": { "url": "postgres://from-file/db" } }\n')
    expect(Storage.urlOf(environment({}))).toBe("postgres://from-file/db")
    expect(Storage.urlOf(environment({ [Directories.DATABASE_URL_ENV]: "postgres://from-env/db" }))).toBe("postgres://from-env/db")
    writeFileSync(global, "{ broken")
    expect(Storage.urlOf(environment({}))).toBeUndefined()
  })
})
