/**
 * Programs' own commands that write a config naming a program (BashProgramsConfig): each line runs
 * for real with a fresh HOME and writes the program path into the config the next call reads, and
 * the gate, which allowed each under `*`, now asks. Their reads stay allowed.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../../../lib/bash-gate.js"
import { cleanup, installed, pushes } from "../../../lib/bash-push-marker.js"

const home = mkdtempSync(path.join(os.tmpdir(), "toolgate-config-"))
afterAll(() => rmSync(home, { recursive: true, force: true }))
afterAll(cleanup)
const RULES = [rule("*", "allow"), rule("git push *", "deny")]
const effect = (command: string) => decide(command, RULES).effect
const EVIL = "/tmp/toolgate-evil-program"

/** What `line` left in `file` (under the fresh HOME) when real bash ran it. */
const written = (line: string, file: string) => {
  spawnSync("bash", ["-c", line], { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home }, stdio: "ignore", timeout: 30_000 })
  const at = path.join(home, file)
  return existsSync(at) ? readFileSync(at, "utf8") : ""
}

/** [program, line, the config file it writes under HOME]. */
const LINES: ReadonlyArray<readonly [string, string, string]> = [
  ["npm", `npm c set script-shell=${EVIL}`, ".npmrc"],
  ["npm", `npm conf set editor=${EVIL}`, ".npmrc"],
  ["pip", `pip config set global.index-url http://${EVIL.slice(1)}`, ".config/pip/pip.conf"],
  ["python3", `python3 -m pip config set global.extra-index-url http://python${EVIL}`, ".config/pip/pip.conf"],
  ["kubectl", `kubectl config set-credentials x --exec-command=${EVIL} --exec-api-version=client.authentication.k8s.io/v1`, ".kube/config"],
  ["kubectl", `kubectl config set users.y.exec.command ${EVIL}`, ".kube/config"],
  ["aws", `aws configure set profile.x.credential_process ${EVIL}`, ".aws/config"],
]

describe("a program's config command that names a program", () => {
  for (const [program, line, file] of LINES) {
    // Each line's own value (the pip lines share a file): what follows the last space or `=`.
    const value = line.split(/[ =]/).find((word) => word.includes(EVIL)) as string
    it.runIf(installed(program))(`writes it (real ${program}): ${line}`, () => expect(written(line, file)).toContain(value.replace(/^[a-z.-]*=/, "").replace(/^http:\/\//, "")))
    it(`asks: ${line}`, () => expect(effect(line)).toBe("ask"))
  }

  it("asks for gh config set and other spellings, and allows reading the config", () => {
    for (const line of ["gh config set editor x", "npm --prefix x c set y z", "pnpm c set x y", "kubectl -n x config set-context y", "aws configure", "pip --isolated config set a b"]) expect([line, effect(line)]).toEqual([line, "ask"])
    for (const line of ["npm c get x", "npm config list", "npm run c", "npm ci", "pip config list", "kubectl config view", "kubectl config use-context x", "kubectl get cm config", "aws configure get region", "gh config get editor", "python3 -m pip config list", 'python3 -m pip install "$pkg"'])
      expect([line, effect(line)]).toEqual([line, "allow"])
  })
})

/**
 * apt's configuration on its command line (the sixth review): an update with its lists, cache and
 * sources in the test's folder (nothing of the system's is touched, no network) runs the
 * `Pre-Invoke` command the line names.
 */
const APT_PRIVATE = "mkdir -p lists/partial cache/archives/partial; : > none.list; "
const APT_LINES = [
  "apt-get -o Dir::State::Lists=./lists -o Dir::Cache=./cache -o Dir::Etc::sourcelist=./none.list -o Dir::Etc::sourceparts=./none -o APT::Update::Pre-Invoke::='git push o' update",
  "apt-get -oDir::State::Lists=./lists -oDir::Cache=./cache -oDir::Etc::sourcelist=./none.list -oDir::Etc::sourceparts=./none --option APT::Update::Pre-Invoke::='git push o' update",
]

describe("apt's configuration on its command line names programs apt runs", () => {
  const runs = installed("apt-get")
  for (const line of APT_LINES) {
    it.runIf(runs)(`pushes (real apt-get): ${line}${runs ? "" : " (skipped: apt-get is not installed here)"}`, () => expect(pushes(APT_PRIVATE + line)).toBe("git push o"), 30_000)
    it(`asks: ${line}`, () => expect(effect(line)).toBe("ask"))
  }

  it("asks for every spelling of a configuration item or file, and allows the rest", () => {
    for (const line of ["apt-get -o Acquire::http::Proxy-Auto-Detect=./x download hello", "apt -c ./apt.conf install x", "apt-cache --config-file=./c show x", "apt-get -qo a=b update", "aptitude -o a=b search x", "apt-get $OPTS update"])
      expect([line, effect(line)]).toEqual([line, "ask"])
    for (const line of ["apt-get download hello", "apt-get install -y --no-install-recommends ocaml-base", "apt-cache policy hello", "apt-get -qq update", "apt list --installed"]) expect([line, effect(line)]).toEqual([line, "allow"])
  })
})
