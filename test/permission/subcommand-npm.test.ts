/**
 * The oracle for npm in permission/subcommand.ts: real npm runs an abbreviated command as the
 * command (`npm publ` publishes; here a dry run, offline), and the
 * gate asks about the abbreviation under a rule that denies publishing, while npm's own names
 * and aliases (`npm i`, `npm t`) are judged as written.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../lib/bash-gate.js"

const unavailable = spawnSync("npm", ["--version"]).error === undefined ? undefined : "npm is not installed"
if (unavailable !== undefined) console.warn(`real-npm oracle skipped: ${unavailable}`)

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-npm-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const NO_PUBLISH = [rule("*", "allow"), rule("npm publish *", "deny")]

describe.skipIf(unavailable !== undefined)("npm's abbreviated commands, against real npm", () => {
  it("npm publ publishes, and asks under a rule that denies npm publish", () => {
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "toolgate-oracle", version: "1.0.0" }))
    const run = spawnSync("npm", ["publ", "--dry-run", "--offline", "--registry", "http://127.0.0.1:9/"], { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: root }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 })
    expect(`${run.stdout}${run.stderr}`).toContain("+ toolgate-oracle@1.0.0")
    expect(decide("npm publish", NO_PUBLISH).effect).toBe("deny")
    for (const line of ["npm publ", "npm pub --tag next", "npm publis"]) expect([line, decide(line, NO_PUBLISH).effect]).toEqual([line, "ask"])
    for (const line of ["npm i", "npm t", "npm run build", "npm pub"]) expect([line, decide(line, [rule("*", "allow"), rule("rm *", "deny")]).effect]).toEqual([line, "allow"])
    for (const line of ["npm i", "npm t", "npm run build"]) expect([line, decide(line, NO_PUBLISH).effect]).toEqual([line, "allow"])
  })
})
