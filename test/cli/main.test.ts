import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Catalog } from "../../src/cli/catalog.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { Help } from "../../src/cli/help.js"
import { Cli } from "../../src/cli/main.js"
import { CallSpec } from "../../src/cli/spec/call.js"
import { Version } from "../../src/version.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

describe("Cli", () => {
  it.live("prints the overview for toolgate, help, --help and -h, and the version for --version and -v", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const overview = { code: ExitCode.SUCCESS, stdout: `${Help.overview(Catalog.COMMANDS)}\n`, stderr: "" }
      for (const argv of [[], ["help"], ["--help"], ["-h"]]) expect(yield* promise(() => runCli(argv, { root }))).toEqual(overview)
      for (const argv of [["--version"], ["-v"]]) expect(yield* promise(() => runCli(argv, { root }))).toEqual({ code: ExitCode.SUCCESS, stdout: `${Cli.Messages.version(Version.current)}\n`, stderr: "" })
    }))

  it.live("prints a command's page for help <command>, <command> --help and -h, whatever else is given", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const page = { code: ExitCode.SUCCESS, stdout: `${Help.command(CallSpec.spec)}\n`, stderr: "" }
      for (const argv of [["help", "call"], ["call", "--help"], ["call", "read", "-h", "--dir", "x"]]) expect(yield* promise(() => runCli(argv, { root }))).toEqual(page)
    }))

  it.live("says did you mean for an unknown command, and exits 2", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      expect(Cli.Messages.unknownCommand("cal")).toBe('Unknown command "cal". Did you mean call? Run toolgate help for the list of commands.')
      expect(Cli.Messages.unknownCommand("frobnicate")).toBe('Unknown command "frobnicate". Run toolgate help for the list of commands.')
      expect(yield* promise(() => runCli(["cal"], { root }))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Cli.Messages.unknownCommand("cal")}\n` })
      expect(yield* promise(() => runCli(["help", "tols"], { root }))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${Cli.Messages.unknownCommand("tols")}\n` })
    }))

  it.live("judges flags itself: unknown (with did you mean), missing value, value for a switch, given twice; exit 2", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const known = [...Object.keys(CallSpec.spec.flags), "help"]
      expect(Cli.Messages.unknownFlag("--jsn", "call", known)).toBe("Unknown flag --jsn for toolgate call. Did you mean --json? Run toolgate call --help for its flags.")
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [["call", "read", "--jsn"], Cli.Messages.unknownFlag("--jsn", "call", known)],
        [["call", "read", "-x"], Cli.Messages.unknownFlag("-x", "call", known)],
        [["call", "read", "--dir"], Cli.Messages.missingValue("--dir", "call")],
        [["call", "read", "--dir", "--json"], Cli.Messages.missingValue("--dir", "call")],
        [["call", "read", "--json=yes"], Cli.Messages.noValue("--json", "call")],
        [["call", "read", "--dir", "a", "--dir", "b"], Cli.Messages.repeated("--dir", "call")],
      ]
      for (const [argv, message] of cases) expect(yield* promise(() => runCli(argv, { root }))).toEqual({ code: ExitCode.USAGE, stdout: "", stderr: `${message}\n` })
      expect(Cli.Messages.missingValue("--dir", "call")).toBe("The flag --dir of toolgate call needs a value: --dir <value>.")
      expect(Cli.Messages.noValue("--json", "call")).toBe("The flag --json of toolgate call takes no value.")
      expect(Cli.Messages.repeated("--dir", "call")).toBe("The flag --dir of toolgate call is given twice.")
    }))

  it("parses values, switches, --name=value and positionals after --", () => {
    expect(Cli.parse(CallSpec.spec, ["read", "--dir=a b", "--json", "--", "--not-a-flag"])).toEqual({ values: { dir: "a b", json: true }, positionals: ["read", "--not-a-flag"] })
    expect(Cli.parse(CallSpec.spec, ["read", "--message", "-"])).toEqual({ values: { message: "-" }, positionals: ["read"] })
  })
})
