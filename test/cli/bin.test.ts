/**
 * The real executable in a child process: arguments, piped stdin, exit codes and streams as a
 * shell sees them. Runs the TypeScript entry through tsx so the test needs no build.
 */
import { spawnSync } from "node:child_process"
import { realpath, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { CallCommand } from "../../src/cli/command/call.js"
import { Catalog } from "../../src/cli/catalog.js"
import { Help } from "../../src/cli/help.js"
import { Cli } from "../../src/cli/main.js"
import { Version } from "../../src/version.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Lookup } from "../../src/cli/lookup.js"
import { madeLine } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const bin = path.join(root, "src/cli/bin.ts")
const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href

const toolgate = (args: ReadonlyArray<string>, home: string, input?: string) => {
  const result = spawnSync(process.execPath, ["--import", tsx, bin, ...args], {
    cwd: home,
    input: input ?? "",
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(home, "data") },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe("toolgate executable", () => {
  it.live("exits 2 for an unknown agent instead of listing an empty catalog", () =>
    Effect.gen(function* () {
      const home = yield* Effect.flatMap(tmpdir, (dir) => Effect.promise(() => realpath(dir)))
      expect(toolgate(["tools", "--agent", "biuld"], home)).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Lookup.Messages.unknown("agent", "biuld", home, ["build", "plan"])}\n` })
      expect(Lookup.Messages.unknown("agent", "biuld", home, ["build", "plan"])).toBe(`Unknown agent "biuld" in ${home}. Did you mean build? Run toolgate config to list them.`)
    }))

  it.live("reads a file of the working directory with the built-in read tool", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      yield* Effect.promise(() => writeFile(path.join(home, "README.md"), "# hi\nthere\n"))
      const read = toolgate(["call", "read", '{"path":"README.md"}'], home)
      expect(read).toEqual({ code: ExitCode.SUCCESS, stdout: "Read file README.md, lines 1-2\n1: # hi\n2: there\n", stderr: madeLine(read.stderr) })
    }))

  it.live("exits 2 for an unknown tool, for invalid piped JSON and for an unknown command", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      expect(toolgate(["call", "nope", '{"path":"a"}'], home)).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Lookup.Messages.unknown("tool", "nope", "build", [])}\n` })
      const invalid = toolgate(["call", "read"], home, "{oops")
      expect(invalid.code).toBe(ExitCode.USAGE)
      expect(invalid.stderr).toMatch(new RegExp(`^${CallCommand.Messages.invalidJson("")}.+\\n$`))
      expect(toolgate(["frobnicate"], home)).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Cli.Messages.unknownCommand("frobnicate")}\n` })
    }))

  it.live("prints the overview with --help and without a command, and the version with -v", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      const overview = { code: ExitCode.SUCCESS, stdout: `${Help.overview(Catalog.COMMANDS)}\n`, stderr: "" }
      expect(toolgate(["--help"], home)).toEqual(overview)
      expect(toolgate([], home)).toEqual(overview)
      expect(toolgate(["-v"], home)).toEqual({ code: ExitCode.SUCCESS, stdout: `${Cli.Messages.version(Version.current)}\n`, stderr: "" })
    }))
})
