import { describe, expect, it } from "@effect/vitest"
import { BashParseLink } from "../../../../src/tool/builtin/bash/parse-link.js"
import { decide, parser } from "../../../lib/bash-gate.js"

const parse = (command: string) => parser.parse(command, { home: "/home/me" })
const unknown = { kind: "file", path: undefined, cwd: [] }

describe("BashParse: descriptors reopened by path (issue 11, item 6)", () => {
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<unknown>]> = [
    ["echo pwned 3</outside/victim >/dev/fd/3", [unknown]],
    ["{ echo x >/dev/fd/3; } 3</outside/f", [unknown]],
    ["echo x </outside/f >/dev/stdin", [unknown]],
    ["echo x 2</outside/f >/dev/stderr", [unknown]],
    ["exec 3</outside/f; echo x > /proc/self/fd/3", [unknown]],
    ["echo x 3</outside/f | tee /dev//fd/3", [unknown]],
    ["echo x >/dev/stdout 2>/dev/stderr >/dev/fd/1", []],
    ["echo x > /dev/null < in", []],
  ]
  for (const [command, targets] of cases)
    it(`${JSON.stringify(command)}: a write to a descriptor bound to a file it read is unknowable, else no target`, () => {
      expect(parse(command).targets).toEqual(targets)
    })

  it("a redirection with no command is judged too: $(> f) creates the file", () => {
    expect(parse("echo $(> /outside/f)").targets).toEqual([{ kind: "file", path: "/outside/f", cwd: [] }])
  })
})

describe("BashParse: variables that choose what a program runs (issue 11, item 7)", () => {
  const opaque = [
    "XDG_CONFIG_HOME=$PWD/cfg; git status",
    "export XDG_CONFIG_HOME=cfg; git status",
    "printf -v EDITOR 'sh -c x'; git commit",
    "read EDITOR; git commit",
    "mapfile -t GIT_DIR < f; git status",
    "declare HOME=/tmp/h; git status",
    "local PAGER=x",
    "for EDITOR in vi; do git commit; done",
    "echo ${EDITOR:=vim}; git commit",
    "set -k; git status",
    "set -o keyword; git status",
    "HOME=$PWD git status",
    "GIT_SSH_COMMAND='touch x' git fetch",
    "npm_config_script_shell=./x npm test",
    "NODE_OPTIONS='--require ./x' npm test",
    "LD_PRELOAD=./x.so echo hi",
    "KUBECONFIG=./k kubectl get pods",
    "PYTHONPATH=. python -m x",
    "make CC=./cc",
  ]
  for (const command of opaque)
    it(`${JSON.stringify(command)} is opaque`, () => {
      expect(parse(command).opaque).toBe(true)
    })

  const plain = ["echo $EDITOR", "echo ${XDG_CONFIG_HOME:-$HOME/.config}", "CI=true npm test", "NODE_ENV=test npm test", "RUST_LOG=debug cargo run", "PYTHONUNBUFFERED=1 python x.py"]
  for (const command of plain)
    it(`${JSON.stringify(command)} is read`, () => {
      expect(parse(command).opaque).toBe(false)
    })
})

describe("BashParse: links made in the same line (issue 11, item 8)", () => {
  const cases: ReadonlyArray<string> = ["ln -s /outside L && echo x > L/f", "cp -rs /outside L && echo x > L/f", "ln -s /outside/f L; echo x > L", "ln -s /outside L | tee L/f", "git checkout evil && echo x > L/f"]
  for (const command of cases)
    it(`${JSON.stringify(command)}: the later write is unknowable`, () => {
      expect(parse(command).targets.filter((target) => target.kind === "file").every((target) => target.path === undefined)).toBe(true)
    })

  it("a cd into a link made before: what is written there is unknowable", () => {
    const targets = parse("ln -s /outside L && cd L && echo x > f").targets
    expect(targets.filter((target) => target.kind === "file")).toEqual([{ kind: "file", path: undefined, cwd: ["L"] }])
  })

  it("a command's own redirection opens before it runs; commands that make no link leave targets known", () => {
    expect(parse("ln -s a b > log").targets).toEqual([{ kind: "file", path: "log", cwd: [] }])
    expect(parse("mkdir -p out && echo x > out/f && git status > out/s").targets.map((target) => target.path)).toEqual(["out/f", "out/s"])
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
  for (const command of ["XDG_CONFIG_HOME=$PWD/cfg; git status", "set -k; git status", "echo pwned 3</outside/victim >/dev/fd/3"])
    it(JSON.stringify(command), () => {
      const { parsed, effect } = decide(command)
      expect(effect === "ask" || parsed.targets.some((target) => target.path === undefined)).toBe(true)
    })
})

describe("BashParse: a command that runs toolgate itself (issue 12, item 3)", () => {
  for (const command of ["toolgate trust", "npx toolgate trust", "node node_modules/toolgate/dist/cli/bin.js trust", "t''oolgate trust", "env -u TOOLGATE_TOOL_CALL npm test", "unset TOOLGATE_TOOL_CALL"])
    it(`${JSON.stringify(command)} is opaque`, () => {
      expect(parse(command).opaque).toBe(true)
    })

  it("its config files are plain data", () => {
    expect(parse("cat toolgate.json").opaque).toBe(false)
  })
})
