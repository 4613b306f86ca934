/**
 * What the built executable loads (the module list, not the time): `--version` and `--help`
 * load the one bin file and Node's own modules, nothing else; `call read` runs from the bundle
 * and its code cache and loads neither the MCP SDK nor the bash grammar nor sharp. The bundle's
 * code cache is written once, private to the user, and a corrupt one is replaced, not trusted.
 */
import { spawnSync } from "node:child_process"
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Bundle } from "../../src/cli/bundle.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Cli } from "../../src/cli/main.js"
import { SqliteAddon } from "../../src/storage/sqlite-addon.js"
import { Version } from "../../src/version.js"
import { tmpdir } from "../lib/tmp.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const dist = path.join(root, "dist", "cli")
const bin = path.join(dist, "bin.cjs")
const recorder = path.join(root, "test", "lib", "record-modules.cjs")

/** Runs the built CLI with the recorder; the loaded modules and compiled scripts, as `kind path` lines. */
const loaded = (args: ReadonlyArray<string>, home: string) =>
  Effect.promise(async () => {
    const out = path.join(home, `modules-${Date.now()}.txt`)
    await writeFile(out, "")
    const result = spawnSync(process.execPath, ["--require", recorder, bin, ...args], {
      cwd: home,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(home, "data"), TOOLGATE_RECORD_MODULES: out, ...OWN_PROCESS },
    })
    const lines = (await readFile(out, "utf8")).split("\n").filter((line) => line !== "")
    // Only files: Node's own modules (node:fs, fs) cost nothing to load.
    const files = [...new Set(lines.filter((line) => /^\w+ (file:\/\/|\/)/.test(line)).map((line) => line.replace(/^(\w+) file:\/\//, "$1 ")))]
    return { code: result.status, stdout: result.stdout, stderr: result.stderr, files }
  })

const toolgate = (args: ReadonlyArray<string>, home: string) => {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: home, encoding: "utf8", env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(home, "data"), ...OWN_PROCESS } })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const HEAVY = /better-sqlite3|\/pg\/|web-tree-sitter|tree-sitter-bash|sharp|turndown|@modelcontextprotocol|\/effect\/|commands\.cjs|mcp-(server|client)\.cjs/

describe("the built executable's start", () => {
  it.live("loads nothing but its own bin file for --version and --help", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      const version = yield* loaded(["--version"], home)
      expect(version).toEqual({ code: ExitCode.SUCCESS, stdout: `${Cli.Messages.version(Version.current)}\n`, stderr: "", files: [`require ${bin}`] })
      const help = yield* loaded(["call", "--help"], home)
      expect([help.code, help.files]).toEqual([ExitCode.SUCCESS, [`require ${bin}`]])
      expect(version.files.filter((file) => HEAVY.test(file))).toEqual([])
    }))

  it.live("runs call read from the bundle without the MCP SDK, the bash grammar, sharp or the PostgreSQL client", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      yield* Effect.promise(() => writeFile(path.join(home, "small.txt"), "hi\n"))
      const read = yield* loaded(["call", "read", '{"path":"small.txt"}', "--session", "ses_startup"], home)
      expect([read.code, read.stdout]).toEqual([ExitCode.SUCCESS, "Read file small.txt, lines 1-1\n1: hi\n"])
      expect(read.files.filter((file) => file.startsWith("compile "))).toEqual([`compile ${path.join(dist, Bundle.FILE)}`])
      expect(read.files.filter((file) => /@modelcontextprotocol|mcp-(server|client)\.cjs|tree-sitter|sharp|turndown|node_modules\/pg|^require pg$/.test(file))).toEqual([])
      // better-sqlite3's JavaScript is in the bundle; its addon loads by path, without `bindings`' search.
      expect(read.files.filter((file) => file.includes("better-sqlite3"))).toEqual([`require ${SqliteAddon.locate()}`])
      expect(read.files.filter((file) => /node_modules\/(bindings|file-uri-to-path)\//.test(file))).toEqual([])
    }))

  it.live("writes the code cache once, private to the user, and replaces a corrupt one", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      const cacheDir = path.join(home, "data", Bundle.CACHE_DIR)
      const first = toolgate(["tools"], home)
      expect(first.code).toBe(ExitCode.SUCCESS)
      const [file, ...others] = yield* Effect.promise(() => readdir(cacheDir))
      expect([file?.startsWith("commands-tools-"), others]).toEqual([true, []])
      const cache = path.join(cacheDir, file as string)
      expect(((yield* Effect.promise(() => stat(cacheDir))).mode & 0o777).toString(8)).toBe("700")
      expect(((yield* Effect.promise(() => stat(cache))).mode & 0o777).toString(8)).toBe("600")
      const written = (yield* Effect.promise(() => stat(cache))).mtimeMs
      expect(toolgate(["tools"], home)).toEqual(first)
      expect((yield* Effect.promise(() => stat(cache))).mtimeMs).toBe(written)
      // A corrupt cache (and one of an older build, left beside it) is not trusted: V8 rejects it,
      // the bundle compiles from source, and the cache is written again with the old one gone.
      yield* Effect.promise(() => writeFile(cache, "not a code cache"))
      yield* Effect.promise(() => writeFile(path.join(cacheDir, "commands-0123456789abcdef.bin"), "an older build's cache"))
      expect(toolgate(["tools"], home)).toEqual(first)
      expect((yield* Effect.promise(() => readFile(cache))).length).toBeGreaterThan(1000)
      expect(yield* Effect.promise(() => readdir(cacheDir))).toEqual([file])
    }))

  it.live("keeps a cache per command, so each start finds the functions it runs, and a new build removes the old ones", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      const cacheDir = path.join(home, "data", Bundle.CACHE_DIR)
      const older = "commands-tools-0123456789abcdef0123456789abcdef-1-v0.0.0-x64.bin"
      yield* Effect.promise(() => mkdir(cacheDir, { recursive: true, mode: 0o700 }))
      yield* Effect.promise(() => writeFile(path.join(cacheDir, older), "an older build's cache", { mode: 0o600 }))
      expect(toolgate(["tools"], home).code).toBe(ExitCode.SUCCESS)
      expect(toolgate(["approvals", "list"], home).code).toBe(ExitCode.SUCCESS)
      const names = (yield* Effect.promise(() => readdir(cacheDir))).sort()
      expect(names.map((name) => name.replace(/-[0-9a-f]{32}-.*$/, ""))).toEqual(["commands-approvals", "commands-tools"])
      // Both of this build: the part after the command is the same key.
      expect(new Set(names.map((name) => name.replace(/^commands-(approvals|tools)-/, ""))).size).toBe(1)
    }))

  it.live("runs bash twice from the bundle, the second time from its code cache", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      const call = ["call", "bash", '{"command":"echo hi","description":"Say hi"}', "--on-ask", "once", "--session", "ses_cache"]
      const first = toolgate(call, home)
      expect([first.code, first.stdout.split("\n")[0]]).toEqual([ExitCode.SUCCESS, "hi"])
      expect(toolgate(call, home)).toEqual(first)
    }))
})

