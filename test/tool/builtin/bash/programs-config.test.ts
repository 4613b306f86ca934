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
import { installed } from "../../../lib/bash-push-marker.js"

const home = mkdtempSync(path.join(os.tmpdir(), "toolgate-config-"))
afterAll(() => rmSync(home, { recursive: true, force: true }))
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
