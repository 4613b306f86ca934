/**
 * The built CLI runs its commands from bundled files (`dist/cli/commands.cjs` and the MCP SDK's
 * `mcp-*.cjs`, made by build/cli.mjs), each compiled with a V8 code cache, so a command does not
 * pay for resolving and compiling hundreds of modules on every start (Node 20 has no compile
 * cache of its own). A cache is code: it lives in toolgate's data folder beside the database, in
 * a folder only the user can write, named by the command, the bundle's SHA-256 (from the build)
 * and Node's version and architecture, and a cache file owned by anyone else is ignored. Each
 * command has its own cache: a cache holds the functions its first run compiled, so one made by
 * `call` would leave `mcp` compiling its own on every start. V8 itself rejects
 * a cache made by another V8 or other flags; then the file compiles from source and the cache is
 * written again when the process exits. Without the bundle (running from source) `load` returns
 * undefined and the modules are imported one by one.
 */
export * as Bundle from "./bundle.js"

import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import vm from "node:vm"
import type { Command } from "./command.js"
import { Directories } from "../directories.js"

export const FILE = "commands.cjs"
export const CACHE_DIR = "code-cache"

/** The bundle's exports: commands.ts. */
export interface Commands {
  readonly load: (name: string) => Promise<Command.Run> | undefined
}

export interface Options {
  /** The folder of the bundle; default: this file's. */
  readonly directory?: string
  /** Where caches are kept; default: `<data dir>/code-cache`. */
  readonly cacheDir?: string
  /** The command the bundle is loaded for: its caches are its own (default: none named). */
  readonly command?: string
}

type Wrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void

const owned = (file: string) => {
  const stat = statSync(file, { throwIfNoEntry: false })
  return stat !== undefined && stat.isFile() && (process.getuid === undefined || stat.uid === process.getuid())
}

const readCache = (file: string) => {
  try {
    return owned(file) ? readFileSync(file) : undefined
  } catch {
    // Deliberate: an unreadable cache is no cache; the file compiles from source.
    return undefined
  }
}

/**
 * Writes `file` atomically and removes the caches of other builds of the same bundle: the files
 * `<prefix>*.bin` without `key` in their name (the caches of this build's other commands stay).
 */
const writeCache = (file: string, data: Buffer, prefix: string, key: string) => {
  try {
    const directory = path.dirname(file)
    mkdirSync(directory, { recursive: true, mode: 0o700 })
    chmodSync(directory, 0o700)
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, data, { mode: 0o600 })
    renameSync(temporary, file)
    readdirSync(directory)
      .filter((name) => name.startsWith(prefix) && name.endsWith(".bin") && !name.includes(key))
      .forEach((name) => rmSync(path.join(directory, name), { force: true }))
  } catch {
    // Deliberate: a cache that cannot be written costs the next start its compile time, nothing else.
  }
}

/**
 * The build's SHA-256 of `file`, else one computed now. `node:crypto` (with the stream modules it
 * loads, a few ms) is required only then: a built CLI has the recorded digest.
 */
const digest = (file: string, source: string, require: NodeJS.Require) => {
  const recorded = readCache(`${file}.sha256`)?.toString("latin1").trim()
  if (recorded !== undefined && /^[0-9a-f]{64}$/.test(recorded)) return recorded
  const { createHash } = require("node:crypto") as typeof import("node:crypto")
  return createHash("sha256").update(source, "latin1").digest("hex")
}

/** The cache's name part: the bundle's digest, its length, and the Node version and architecture that made it. */
const cacheKey = (sha256: string, length: number) => `${sha256.slice(0, 32)}-${length.toString(36)}-${process.version.replace(/[^\w.]/g, "_")}-${process.arch}`

/** A command name as a part of a file name; anything else (never a command) is left out. */
const commandPart = (command: string | undefined) => (command !== undefined && /^[a-z][a-z-]{0,31}$/.test(command) ? `${command}-` : "")

/** Compiles the wrapped CommonJS `file` with its code cache (of `command`) and runs it; its exports. */
const compile = (file: string, cacheDir: string, require: NodeJS.Require, command: string | undefined): unknown => {
  // The bundle is ASCII (build/cli.mjs checks), so latin1 reads it as is, without decoding UTF-8.
  const source = readFileSync(file, "latin1")
  const key = cacheKey(digest(file, source, require), source.length)
  const cacheFile = path.join(cacheDir, `${path.basename(file, ".cjs")}-${commandPart(command)}${key}.bin`)
  const cachedData = readCache(cacheFile)
  const script = new vm.Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }), importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER })
  const module = { exports: {} }
  ;(script.runInThisContext() as Wrapper).call(module.exports, module.exports, require, module, file, path.dirname(file))
  // Written when the process ends, so the functions this run compiled are in it too.
  if (cachedData === undefined || script.cachedDataRejected === true) process.once("exit", () => writeCache(cacheFile, script.createCachedData(), `${path.basename(file, ".cjs")}-`, key))
  return module.exports
}

/** The bundled commands, compiled with their code cache; undefined when there is no bundle. */
export const load = (options: Options = {}): Commands | undefined => {
  const directory = options.directory ?? path.dirname(fileURLToPath(import.meta.url))
  const file = path.join(directory, FILE)
  if (!existsSync(file)) return undefined
  const cacheDir = options.cacheDir ?? path.join(Directories.data({ env: process.env, home: os.homedir() }), CACHE_DIR)
  const node = createRequire(file)
  const loaded = new Map<string, unknown>()
  // The bundle's `require`: its own vendor files (`./mcp-server.cjs`) compile with a cache too.
  const require = Object.assign((id: string) => {
    if (!(id.startsWith("./") && id.endsWith(".cjs"))) return node(id)
    const vendor = path.join(directory, id)
    if (!loaded.has(vendor)) loaded.set(vendor, compile(vendor, cacheDir, require, options.command))
    return loaded.get(vendor)
  }, { resolve: node.resolve, cache: node.cache, main: node.main, extensions: node.extensions }) as NodeJS.Require
  return compile(file, cacheDir, require, options.command) as Commands
}
