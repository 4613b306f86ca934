/**
 * git against real git: each line below runs a program or writes a file through an option the
 * gate must see (an abbreviation git accepts, `--output` of a sub-command outside the diff family,
 * of an alias). The oracle runs the very line with bash in a temporary repository and checks that
 * git really did it, so the case is a real bypass and not a guess; the gate must read the line
 * as opaque or name the file it writes. Skipped, with the reason printed, when git is missing.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { decide, parse, rule } from "../../../lib/bash-gate.js"

const unavailable = spawnSync("git", ["--version"]).error === undefined ? undefined : "git is not installed"
if (unavailable !== undefined) console.warn(`real-git oracle skipped: ${unavailable}`)

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-git-oracle-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const ENV = { ...process.env, HOME: root, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" }

/** A fresh repository with one commit of `a`, an alias `lg` for `log`, and a template `tpl` holding a hook. */
const repository = (name: string): string => {
  const dir = path.join(root, name)
  mkdirSync(path.join(dir, "tpl", "hooks"), { recursive: true })
  writeFileSync(path.join(dir, "tpl", "hooks", "pre-commit"), "#!/bin/sh\n")
  writeFileSync(path.join(dir, "a"), "a\n")
  for (const args of [["init", "-q"], ["add", "a"], ["commit", "-q", "-m", "one"], ["config", "alias.lg", "log"]]) spawnSync("git", args, { cwd: dir, env: ENV })
  return dir
}

/** Runs `line` with bash in `dir`, as the gate's shell would. */
const run = (line: string, dir: string) => spawnSync("bash", ["-c", line], { cwd: dir, env: ENV, stdio: "ignore", timeout: 10_000 })

const cases: ReadonlyArray<{ readonly line: string; readonly effect: string; readonly file?: string }> = [
  // Family 1: any unambiguous prefix, from `--` and one letter.
  { line: "git ls-remote --u='touch ran #' .", effect: "ran" },
  { line: "git push --e='touch ran #' . HEAD:refs/heads/x", effect: "ran" },
  { line: "git init -q --t=tpl", effect: ".git/hooks/pre-commit" },
  // Family 2: `--output` of every sub-command that takes revision options, and of an alias.
  { line: "git rev-list --output=out HEAD", effect: "out", file: "out" },
  { line: "git shortlog --output=out HEAD", effect: "out", file: "out" },
  { line: "git blame --output=out -- a", effect: "out", file: "out" },
  { line: "git annotate --output=out -- a", effect: "out", file: "out" },
  { line: "git fast-export --output=out HEAD", effect: "out", file: "out" },
  { line: "git lg -1 --output=out", effect: "out", file: "out" },
]

describe.skipIf(unavailable !== undefined)("BashProgramsGit against real git", () => {
  cases.forEach(({ line, effect, file }, index) => {
    it(`reads ${JSON.stringify(line)} as opaque or a write, and git really does it`, () => {
      const dir = repository(`r${index}`)
      run(line, dir)
      expect([line, existsSync(path.join(dir, effect))]).toEqual([line, true])
      const parsed = parse(line)
      const seen = parsed.opaque || (file !== undefined && parsed.targets.some((target) => target.path === file))
      expect([line, seen]).toEqual([line, true])
    })
  })
})

describe("BashProgramsGit: sub-commands and prefixes", () => {
  it("reads a long option from `--` and one letter as every option it may abbreviate", () => {
    for (const line of ["git ls-remote --u=x .", "git fetch --u=x origin", "git push --e=x origin", "git push --r=x origin", "git clone --t=tpl https://h/r", "git init --t=tpl"]) {
      expect([line, parse(line).opaque]).toEqual([line, true])
    }
    expect(parse("git push --force origin").opaque).toBe(false)
  })

  it("takes `--output` of any sub-command, an alias's included, for a write", () => {
    for (const line of ["git rev-list --output=/tmp/o HEAD", "git cherry-pick --output=/tmp/o x", "git merge-tree --output /tmp/o a b", "git lg --o=/tmp/o"]) {
      // An alias may be for `bugreport`, whose `--output` abbreviates `--output-directory`: both.
      expect([line, [...new Set(parse(line).targets.map((target) => target.path))]]).toEqual([line, ["/tmp/o"]])
    }
  })

  it("reads a word that expands before `--` of a sub-command git does not ship (an alias for log) as opaque", () => {
    for (const line of ['git lg "$f"', "git rev-list $REV", "git shortlog $X", "git blame $X -- a"]) expect([line, parse(line).opaque]).toEqual([line, true])
    for (const line of ['git add "$f"', 'git commit -m "$MSG"', 'git lg -- "$f"']) expect([line, parse(line).opaque]).toEqual([line, false])
  })

  it("asks for the review's reproductions under the rules that allowed them", () => {
    for (const [allowed, line] of [
      ["git ls-remote *", "git ls-remote --u='sh -c \"touch pwn\" #' ."],
      ["git push *", "git push --e='sh -c \"touch pwn\" #' . HEAD:refs/heads/x"],
      ["git init *", "git init --t=tpl"],
    ] as const) {
      expect([line, decide(line, [rule("*", "ask"), rule(allowed, "allow")]).effect]).toEqual([line, "ask"])
    }
    // A write is judged by the file rules where it lands.
    expect(parse("git shortlog --output=.git/config HEAD").targets.map((target) => target.path)).toEqual([".git/config"])
    expect(parse("git blame --output=../sib2/important -- a").targets.map((target) => target.path)).toEqual(["../sib2/important"])
  })
})

/** Programs of git that write files their operands name (the third outside review's family 5). */
describe.skipIf(unavailable !== undefined)("BashProgramsGit: sub-commands that write their operands, against real git", () => {
  const landed = (line: string, setup: (dir: string) => void, written: string, target: (path: string | undefined) => boolean) => {
    const dir = repository(`w${line.length}-${written.replace(/\W/g, "")}`)
    setup(dir)
    run(line, dir)
    expect([line, existsSync(path.join(dir, written))]).toEqual([line, true])
    const parsed = parse(line)
    expect([line, parsed.opaque || parsed.targets.some((found) => target(found.path))]).toEqual([line, true])
  }

  it("git checkout-index --prefix writes under the prefix (.git/hooks/ as any folder)", () =>
    landed("git checkout-index --prefix=hooks-out/ a", () => undefined, "hooks-out/a", (found) => found?.startsWith("hooks-out") === true))

  it("git mv writes its destination", () => landed("git mv a moved", () => undefined, "moved", (found) => found === "moved"))

  it("git worktree move writes the worktree at its new path (the fifth outside review)", () =>
    landed("git worktree move w moved", (dir) => spawnSync("git", ["worktree", "add", "-q", "w"], { cwd: dir, env: ENV }), "moved", (found) => found === "moved"))

  it("git merge-file writes the merge into its first file, and -p only prints it", () => {
    const setup = (dir: string) => {
      writeFileSync(path.join(dir, "base"), "x\n")
      writeFileSync(path.join(dir, "other"), "x\ny\n")
      writeFileSync(path.join(dir, "cur"), "x\n")
    }
    landed("git merge-file -L a -L b -L c cur base other", setup, "cur", (found) => found === "cur")
    expect(parse("git merge-file -p cur base other").targets).toEqual([])
  })

  it("names the protected files they would write, for the tool to ask about", () => {
    const cases = [
      ["git checkout-index --prefix=.git/hooks/ pre-commit", ".git/hooks/"],
      ["git mv cfg toolgate.json", "toolgate.json"],
      ["git merge-file .git/config base other", ".git/config"],
    ] as const
    for (const [line, written] of cases) expect([line, parse(line).targets.map((target) => target.path)]).toEqual([line, [written]])
    for (const line of ["git fast-export --export-marks=.envrc HEAD", "git fast-import --export-marks .envrc", "git fast-export --export-m=.envrc HEAD"]) {
      expect([line, parse(line).targets.map((target) => target.path)]).toEqual([line, [".envrc"]])
    }
    // What lands in a folder destination is the source's name there (bash/landing.ts).
    expect(parse("git mv evil/.envrc .").targets.flatMap((target) => target.sources ?? [])).toEqual([{ path: "evil/.envrc", tree: true }])
  })
})
