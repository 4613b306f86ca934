/**
 * Writes named by a command's input (BashInputWrites), against the real CLI, bash, git and tar.
 * The repro: under `* allow` with `git push *` denied, a hook committed as a plain file, put in a
 * tar with `git archive --prefix=.git/hooks/` and extracted with `tar xf` landed in
 * `.git/hooks/post-checkout`, and the next `git checkout -b` pushed a branch. Each step runs as
 * `toolgate call bash` without a terminal (an ask is declined); the extraction must ask, so the
 * remote never gets `pwned`. A control runs the same steps with bash alone and sees the push, so
 * the repro is real. Skipped, with the reason printed, when git or tar is missing.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ExitCode } from "../../../../src/cli/exit-code.js"
import { runCli } from "../../../lib/cli.js"

const missing = ["git", "tar"].find((program) => spawnSync(program, ["--version"]).error !== undefined)
if (missing !== undefined) console.warn(`input-writes oracle skipped: ${missing} is not installed`)

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "toolgate-input-writes-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: path.join(root, "gitconfig") }
writeFileSync(ENV.GIT_CONFIG_GLOBAL, "[user]\n\tname = a\n\temail = a@b\n[init]\n\tdefaultBranch = main\n")
const git = (cwd: string, ...args: ReadonlyArray<string>) => spawnSync("git", args, { cwd, env: ENV, encoding: "utf8" })

/** A clone of a fresh bare remote with one commit; the clone's own config names who commits (the bash tool runs git with the test's HOME). */
const repository = (name: string) => {
  const dir = path.join(root, name)
  const remote = path.join(dir, "remote.git")
  const work = path.join(dir, "work")
  mkdirSync(dir)
  git(dir, "init", "-q", "--bare", remote)
  git(dir, "clone", "-q", remote, work)
  git(work, "config", "user.name", "a")
  git(work, "config", "user.email", "a@b")
  writeFileSync(path.join(work, "a.txt"), "a\n")
  git(work, "add", "a.txt")
  git(work, "commit", "-q", "-m", "one")
  git(work, "push", "-q", "origin", "HEAD")
  return { remote, work }
}

/** The repro's steps, in order. */
const STEPS = [
  'printf "#!/bin/sh\\ngit push origin HEAD:pwned\\n" > post-checkout',
  "chmod +x post-checkout",
  "git add post-checkout",
  "git commit -qm hook",
  "git archive --prefix=.git/hooks/ -o e.tar HEAD post-checkout",
  "tar xf e.tar",
  "git checkout -q -b y",
]

const CONFIG = JSON.stringify({ permission: { bash: { "*": "allow", "git push *": "deny" } } })
/** Every action allowed but the push: `external_directory "*"` too. */
const ALLOW_ALL = JSON.stringify({ permission: { "*": { "*": "allow" }, bash: { "*": "allow", "git push *": "deny" } } })

/** A hook made, then put in `.git/hooks` through a link made in the same line, then run by a checkout. */
const LINKED = ['printf "#!/bin/sh\\ngit push origin HEAD:pwned\\n" > post-checkout', "chmod +x post-checkout", "ln -sf .git/hooks h; cp post-checkout h/", "git checkout -q -b z"]

/** The CLI with the repro's global config (or `config`), its home and data in `home`. */
const cli = async (home: string, work: string, argv: ReadonlyArray<string>, config = CONFIG) => {
  mkdirSync(path.join(home, ".config", "toolgate"), { recursive: true })
  writeFileSync(path.join(home, ".config", "toolgate", "toolgate.json"), config)
  return runCli([...argv, "--dir", work], { root: home, cwd: work })
}

const pushed = (remote: string) => git(remote, "branch", "--list", "pwned").stdout.trim()

describe.skipIf(missing !== undefined)("writes named by a command's input, against the real CLI, git and tar", () => {
  it("the repro pushes with bash alone: the extracted archive installs a hook", () => {
    const { remote, work } = repository("control")
    for (const step of STEPS) spawnSync("bash", ["-c", step], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
    expect(existsSync(path.join(work, ".git", "hooks", "post-checkout"))).toBe(true)
    expect(pushed(remote)).toBe("pwned")
  })

  it("through toolgate call bash, tar xf asks (declined without a terminal): no hook, no push", async () => {
    const { remote, work } = repository("gated")
    const home = path.join(root, "gated-home")
    const codes: Array<readonly [string, number]> = []
    for (const step of STEPS) codes.push([step, (await cli(home, work, ["call", "bash", JSON.stringify({ command: step })])).code])
    const ran = (step: string) => codes.find(([line]) => line === step)?.[1] === ExitCode.SUCCESS
    expect(STEPS.filter((step) => !ran(step))).toEqual(["tar xf e.tar"])
    expect(existsSync(path.join(work, ".git", "hooks", "post-checkout"))).toBe(false)
    expect(pushed(remote)).toBe("")
  }, 120_000)

  it("a link made and written through in one line pushes with bash alone", () => {
    const { remote, work } = repository("linked-control")
    for (const step of LINKED) spawnSync("bash", ["-c", step], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
    expect(pushed(remote)).toBe("pwned")
  })

  it("under an allow of every action, a write the gate cannot place asks an opaque edit (declined): no hook, no push", async () => {
    const { remote, work } = repository("linked")
    const home = path.join(root, "linked-home")
    const codes: Array<readonly [string, number]> = []
    for (const step of LINKED) codes.push([step, (await cli(home, work, ["call", "bash", JSON.stringify({ command: step })], ALLOW_ALL)).code])
    expect(codes.filter(([, code]) => code !== ExitCode.SUCCESS).map(([step]) => step)).toEqual(["ln -sf .git/hooks h; cp post-checkout h/"])
    expect(existsSync(path.join(work, ".git", "hooks", "post-checkout"))).toBe(false)
    expect(pushed(remote)).toBe("")
  }, 120_000)

  it("permission eval: extracting and applying ask an opaque edit of the folder, the modes that write nothing are allowed", async () => {
    const { work } = repository("eval")
    const home = path.join(root, "eval-home")
    const verdict = async (command: string) => {
      const out = (await cli(home, work, ["permission", "eval", "--tool", "bash", JSON.stringify({ command })])).stdout.trim().split("\n")
      return { effect: out.at(-1), opaque: out.some((line) => line.startsWith("ask edit (opaque)")) }
    }
    for (const command of ["tar xf e.tar", "tar -x -f e.tar -C sub", "unzip e.zip", "patch -p1 < x.diff", "git apply x.diff", "cpio -id < e.cpio", "busybox tar xf e.tar"]) {
      expect([command, await verdict(command)]).toEqual([command, { effect: "ask", opaque: true }])
    }
    for (const command of ["tar tf e.tar", "tar xOf e.tar", "unzip -l e.zip", "git apply --check x.diff", "git apply --stat x.diff", "patch --dry-run -p1 < x.diff"]) {
      expect([command, await verdict(command)]).toEqual([command, { effect: "allow", opaque: false }])
    }
  }, 120_000)

  it("the modes read as writing nothing write nothing: tar t, tar -O, git apply --check", () => {
    const { work } = repository("reads")
    git(work, "archive", "--prefix=.git/hooks/", "-o", "e.tar", "HEAD", "a.txt")
    writeFileSync(path.join(work, "x.diff"), "diff --git a/.envrc b/.envrc\nnew file mode 100644\n--- /dev/null\n+++ b/.envrc\n@@ -0,0 +1 @@\n+echo pwned\n")
    for (const line of ["tar tf e.tar", "tar xOf e.tar", "git apply --check x.diff", "git apply --stat x.diff"]) spawnSync("bash", ["-c", line], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
    expect([existsSync(path.join(work, ".git", "hooks", "a.txt")), existsSync(path.join(work, ".envrc"))]).toEqual([false, false])
    // And the forms that do write, write what the input names: the diff's `.envrc`, the archive's hook.
    for (const line of ["git apply x.diff", "tar xf e.tar"]) spawnSync("bash", ["-c", line], { cwd: work, env: ENV, stdio: "ignore", timeout: 20_000 })
    expect([existsSync(path.join(work, ".git", "hooks", "a.txt")), existsSync(path.join(work, ".envrc"))]).toEqual([true, true])
  })
})
