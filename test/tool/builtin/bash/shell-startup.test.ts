/**
 * A shell told to read a startup file (`--rcfile`, `--init-file` with `-i`) runs that file before
 * its `-c` string, and an interactive one expands aliases in the string: real bash shows it, and
 * the gate asks instead of judging the string alone (it allowed `bash --rcfile x.sh -i -c true`
 * under `bash * allow` with `git push *` denied, while x.sh pushed).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import type { PermissionRule } from "../../../../src/permission/rule.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"

const parser = await BashParse.load()
const rule = (resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action: "bash", resource, effect, source: { kind: "builtin", agent: "test" } })
const RULES = [rule("*", "allow"), rule("git push *", "deny")]
const decide = (command: string) => {
  const parsed = parser.parse(command, { home: "/home/me" })
  const resources = parsed.resources.map((resource) => resource.text)
  return PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: RULES, session: [], saved: [], opaque: parsed.opaque }).effect
}

const folder = mkdtempSync(path.join(os.tmpdir(), "toolgate-shell-startup-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
writeFileSync(path.join(folder, "x.sh"), "echo STARTUP-RAN\nalias hello='echo ALIAS-RAN'\n")
/** What real bash prints for `args`, with a home of its own (no ~/.bashrc of this machine). */
const bash = (args: ReadonlyArray<string>) =>
  execFileSync("bash", args, { cwd: folder, env: { PATH: process.env.PATH ?? "", HOME: folder }, stdio: ["ignore", "pipe", "ignore"] }).toString()

describe("shells that read a startup file before their string", () => {
  it("runs the named file before the string, and expands its aliases in it (real bash)", () => {
    expect(bash(["--rcfile", "x.sh", "-i", "-c", "hello"])).toBe("STARTUP-RAN\nALIAS-RAN\n")
    expect(bash(["--init-file", "x.sh", "-i", "-c", "true"])).toBe("STARTUP-RAN\n")
    // Without -i the file is not read: the string is all that runs.
    expect(bash(["--rcfile", "x.sh", "-c", "echo plain"])).toBe("plain\n")
  })

  it("runs a script given as a descriptor from the redirect that feeds it (real bash), and the gate asks", () => {
    expect(execFileSync("bash", ["-c", 'bash /dev/stdin <<< "echo FED"'], { cwd: folder, encoding: "utf8" })).toBe("FED\n")
    expect(execFileSync("bash", ["-c", 'bash /dev/fd/3 3<<< "echo FED3"'], { cwd: folder, encoding: "utf8" })).toBe("FED3\n")
    for (const command of ['bash /dev/stdin <<< "git push origin main"', 'bash /dev/fd/3 3<<< "git push o"', "sh /proc/self/fd/0 < x.sh"]) expect([command, decide(command)]).toEqual([command, "ask"])
    expect(decide("bash x.sh")).toBe("allow")
  })

  it("asks for them, and still judges a plain or login shell's string", () => {
    for (const command of ["bash --rcfile x.sh -i -c true", "bash --init-file x.sh -i -c true", "bash --rcfile x.sh -ic true", "bash -i -c hello", "echo 'git push' > x.sh && bash --rcfile x.sh -i -c true"]) expect([command, decide(command)]).toEqual([command, "ask"])
    expect(decide("bash -c 'git push origin main'")).toBe("deny")
    expect(decide("bash -lc 'git push origin main'")).toBe("deny")
    expect(decide("bash -lc 'git status'")).toBe("allow")
  })
})
