/**
 * Where better-sqlite3's native addon is, so opening a database loads it by path. Without a path
 * the package finds it with `bindings`, which probes a dozen folders on every start and, inside
 * the CLI bundle (build/cli.mjs bundles the package's JavaScript), would search from the
 * bundle's folder instead of the package's. The package is resolved from this module, so the
 * addon is the one `npm ci` built (prebuild-install and node-gyp both write `build/Release`).
 * Undefined when neither build folder holds it: then the package looks for itself.
 */
export * as SqliteAddon from "./sqlite-addon.js"

import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"

const FILE = "better_sqlite3.node"
const BUILDS = ["Release", "Debug"]

let found: string | undefined | null = null

/** The addon's absolute path, resolved once per process. */
export const locate = (): string | undefined => {
  if (found !== null) return found
  const entry = createRequire(import.meta.url).resolve("better-sqlite3")
  // The entry is `<package>/lib/index.js`.
  const root = path.dirname(path.dirname(entry))
  found = BUILDS.map((build) => path.join(root, "build", build, FILE)).find((candidate) => existsSync(candidate))
  return found
}
