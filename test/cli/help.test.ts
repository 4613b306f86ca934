import { describe, expect, it } from "@effect/vitest"
import { Catalog } from "../../src/cli/catalog.js"
import { Help } from "../../src/cli/help.js"
import { Spec } from "../../src/cli/spec.js"

describe("Help", () => {
  it("lists every command with its one line, then help, the global flags and the docs", () => {
    const lines = Help.overview(Catalog.COMMANDS).split("\n")
    const width = Math.max(...Catalog.NAMES.map((name) => name.length)) + 2
    expect(lines.slice(0, 5)).toEqual([Help.Messages.title, "", Help.Messages.overviewUsage, "", Help.Messages.commands])
    expect(lines.slice(5, 5 + Catalog.COMMANDS.length)).toEqual(Catalog.COMMANDS.map((spec) => `  ${spec.name.padEnd(width)}${spec.summary}`))
    expect(lines.slice(5 + Catalog.COMMANDS.length)).toEqual([
      `  ${"help".padEnd(width)}${Help.Messages.help}`,
      "",
      Help.Messages.flags,
      ...Help.Messages.globalFlags.split("\n"),
      "",
      Help.Messages.more,
      Help.Messages.docs(Help.DOCS),
    ])
  })

  it("prints a command's usage, description, every flag with its default, examples and exit codes", () => {
    const spec: Spec.Spec = {
      name: "demo",
      summary: "Do a demo",
      usage: ["toolgate demo <thing> [flags]"],
      description: ["Demonstrates the page."],
      flags: { dir: Spec.DIR, json: Spec.JSON_OUTPUT, level: { type: "string", short: "l", value: "n", description: "How much", default: "1" } },
      examples: [{ command: "toolgate demo x", description: "Demo x" }],
      exitCodes: [Spec.SUCCESS_CODE, Spec.USAGE_CODE],
    }
    expect(Help.command(spec)).toBe(
      [
        "Do a demo",
        "",
        "Usage:",
        "  toolgate demo <thing> [flags]",
        "",
        "Demonstrates the page.",
        "",
        "Flags:",
        `      --dir <dir>  ${Spec.DIR.description} (default: ${Spec.DIR.default})`,
        `      --json       ${Spec.JSON_OUTPUT.description}`,
        "  -l, --level <n>  How much (default: 1)",
        `  -h, --help       ${Spec.HELP_FLAG.description}`,
        "",
        "Examples:",
        "  # Demo x",
        "  toolgate demo x",
        "",
        "Exit codes:",
        `  0   ${Spec.SUCCESS_CODE[1]}`,
        `  2   ${Spec.USAGE_CODE[1]}`,
      ].join("\n"),
    )
  })

  it("gives every command a description, examples and exit codes, and every flag a description", () => {
    for (const spec of Catalog.COMMANDS) {
      expect([spec.name, spec.usage.every((line) => line.startsWith(`toolgate ${spec.name}`) || line.includes(`| toolgate ${spec.name}`))]).toEqual([spec.name, true])
      expect([spec.name, spec.description.length > 0, spec.examples.length > 0, spec.exitCodes.some(([code]) => code === 2)]).toEqual([spec.name, true, true, true])
      expect(Object.entries(spec.flags).filter(([, flag]) => flag.description === "")).toEqual([])
    }
  })

  it("measures edit distance", () => {
    expect([Help.distance("call", "call"), Help.distance("cal", "call"), Help.distance("tolls", "tools"), Help.distance("CALL", "call"), Help.distance("", "abc")]).toEqual([0, 1, 1, 0, 3])
  })

  it("suggests the nearest name only when it is near enough to be a typo", () => {
    expect(Help.nearest("tols", Catalog.NAMES)).toBe("tools")
    expect(Help.nearest("aprovals", Catalog.NAMES)).toBe("approvals")
    expect(Help.nearest("mcp-server", Catalog.NAMES)).toBe("mcp-servers")
    expect(Help.nearest("frobnicate", Catalog.NAMES)).toBeUndefined()
    expect(Help.nearest("x", Catalog.NAMES)).toBeUndefined()
    expect(Help.suggestion("jsn", ["json", "dir"], (name) => `--${name}`)).toBe(` ${Help.Messages.didYouMean("--json")}`)
    expect(Help.suggestion("zzzz", ["json", "dir"])).toBe("")
  })
})
