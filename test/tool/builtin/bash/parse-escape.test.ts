import { describe, expect, it } from "@effect/vitest"
import { BashParseLink } from "../../../../src/tool/builtin/bash/parse-link.js"
import { decide, parser } from "../../../lib/bash-gate.js"
import { CHOOSING_VARIABLES, DESCRIPTORS, LINKS, PLAIN_VARIABLES, REPRODUCTIONS, TOOLGATE_COMMANDS } from "../../../lib/bash-tables.js"

const parse = (command: string) => parser.parse(command, { home: "/home/me" })

describe("BashParse: descriptors reopened by path (issue 11, item 6)", () => {
  for (const [command, targets] of DESCRIPTORS)
    it(`${JSON.stringify(command)}: a write to a descriptor bound to a file it read is unknowable, else no target`, () => {
      expect(parse(command).targets).toEqual(targets)
    })

  it("a redirection with no command is judged too: $(> f) creates the file", () => {
    expect(parse("echo $(> /outside/f)").targets).toEqual([{ kind: "file", path: "/outside/f", cwd: [] }])
  })
})

describe("BashParse: variables that choose what a program runs (issue 11, item 7)", () => {
  for (const command of CHOOSING_VARIABLES)
    it(`${JSON.stringify(command)} is opaque`, () => {
      expect(parse(command).opaque).toBe(true)
    })

  for (const command of PLAIN_VARIABLES)
    it(`${JSON.stringify(command)} is read`, () => {
      expect(parse(command).opaque).toBe(false)
    })
})

describe("BashParse: links made in the same line (issue 11, item 8)", () => {
  for (const command of LINKS)
    it(`${JSON.stringify(command)}: the later write is unknowable`, () => {
      // The linking command's own destination (`L`, with what lands in it) is where it writes, judged
      // before it runs; so are the paths `git checkout` names (`evil` may be a file it checks out).
      const own = new Set(command.split(" && ")[0]?.split(" ") ?? [])
      const later = parse(command).targets.filter((target) => target.kind === "file" && target.sources === undefined && !own.has(target.path ?? ""))
      expect(later.length).toBeGreaterThan(0)
      expect(later.every((target) => target.path === undefined)).toBe(true)
    })

  it("a cd into a link made before: what is written there is unknowable", () => {
    const targets = parse("ln -s /outside L && cd L && echo x > f").targets
    expect(targets.filter((target) => target.kind === "file" && target.sources === undefined)).toEqual([{ kind: "file", path: undefined, cwd: ["L"] }])
  })

  it("a command's own redirection opens before it runs; commands that make no link leave targets known", () => {
    expect(parse("ln -s a b > log").targets).toEqual([
      { kind: "file", path: "log", cwd: [] },
      { kind: "file", path: "b", cwd: [], sources: [{ path: "a", tree: false }] },
    ])
    expect(parse("mkdir -p out && echo x > out/f && git status > out/s").targets.map((target) => target.path)).toEqual(["out", "out/f", "out/s"])
  })

  it("knows which commands cannot make links", () => {
    expect(BashParseLink.mayLink("ln", ["-s"], false)).toBe(true)
    expect(BashParseLink.mayLink("git", ["checkout"], false)).toBe(true)
    expect(BashParseLink.mayLink("git", ["status"], false)).toBe(false)
    expect(BashParseLink.mayLink("mkdir", ["-p"], false)).toBe(false)
    expect(BashParseLink.mayLink("sh", ["-c"], true)).toBe(false)
  })
})

describe("BashParse: $(<file) reads (issue 11, item 9)", () => {
  it("warns like any other read of an absolute path", () => {
    expect(parse("echo $(</etc/passwd)").absolutePaths).toEqual(["/etc/passwd"])
    expect(parse("cat /etc/passwd").absolutePaths).toEqual(["/etc/passwd"])
  })
})

describe("BashParse: the issue's reproductions are never allowed by echo * and git status*", () => {
  for (const command of REPRODUCTIONS)
    it(JSON.stringify(command), () => {
      const { parsed, effect } = decide(command)
      expect(effect === "ask" || parsed.targets.some((target) => target.path === undefined)).toBe(true)
    })
})

describe("BashParse: a command that runs toolgate itself (issue 12, item 3)", () => {
  for (const command of TOOLGATE_COMMANDS)
    it(`${JSON.stringify(command)} is opaque`, () => {
      expect(parse(command).opaque).toBe(true)
    })

  it("its config files are plain data", () => {
    expect(parse("cat toolgate.json").opaque).toBe(false)
  })
})
