/**
 * `ps` with a BSD-style `e` prints the environment each listed process started with: real ps shows
 * a secret a process was started with, and the gate asks for that form under a `*` allow (it ran
 * unasked, and printed the token `toolgate serve` was started with). `ps -e` lists every process
 * without its environment and stays allowed.
 */
import { execFileSync, spawn } from "node:child_process"
import { afterAll, describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import type { PermissionRule } from "../../../../src/permission/rule.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"

const parser = await BashParse.load()
const RULES: ReadonlyArray<PermissionRule.Sourced> = [{ action: "bash", resource: "*", effect: "allow", source: { kind: "builtin", agent: "test" } }]
const decide = (command: string) => {
  const parsed = parser.parse(command, { home: "/home/me" })
  return PermissionEvaluate.evaluateInput({ action: "bash", resources: parsed.resources.map((resource) => resource.text), configured: RULES, session: [], saved: [], opaque: parsed.opaque }).effect
}

const SECRET = "toolgate-ps-oracle-0123456789"
const sleeper = spawn("sleep", ["60"], { env: { PATH: process.env.PATH ?? "", TOKEN: SECRET }, stdio: "ignore" })
afterAll(() => void sleeper.kill())
const ps = (...args: ReadonlyArray<string>) => execFileSync("ps", args, { encoding: "utf8" })

describe("ps and the environment of other processes", () => {
  it("prints a process's starting environment with e, not with -e (real ps)", () => {
    const pid = String(sleeper.pid)
    expect(ps("eww", pid)).toContain(SECRET)
    expect(ps("-ww", "e", "-p", pid)).toContain(SECRET)
    expect(ps("-e", "-o", "pid,args")).not.toContain(SECRET)
  })

  it("asks for the forms that print it, and allows the others", () => {
    for (const command of [`ps eww ${sleeper.pid}`, `ps -ww e -p ${sleeper.pid}`, "ps axe", "ps aux e", "ps $OPTS"]) expect([command, decide(command)]).toEqual([command, "ask"])
    for (const command of ["ps aux", "ps -ef", "ps -e -o pid,args"]) expect([command, decide(command)]).toEqual([command, "allow"])
  })
})
