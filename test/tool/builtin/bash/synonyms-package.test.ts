/**
 * Package runners that name the command by a package spec (BashSynonymsPackage) and corepack
 * (BashParseLaunch), against real npx and corepack: `npx npm@<v> publish` and
 * `corepack npm@<v> publish` publish (a dry run, offline: npx finds that npm in the project's
 * node_modules, corepack in its cache folder, both the npm installed here), and the gate does not
 * allow them under `* allow` with `npm publish *` denied. Each real part is skipped, with the
 * reason printed, when its program is missing; the gate part needs neither.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../../../lib/bash-gate.js"

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-package-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const ENV = { PATH: process.env.PATH ?? "", HOME: root, COREPACK_HOME: path.join(root, ".corepack"), COREPACK_ENABLE_NETWORK: "0", COREPACK_ENABLE_STRICT: "0" }
const run = (words: ReadonlyArray<string>) => spawnSync(words[0] as string, words.slice(1), { cwd: root, env: ENV, encoding: "utf8", timeout: 90_000 })

const npmRoot = spawnSync("npm", ["root", "-g"], { encoding: "utf8" })
const NPM = npmRoot.error === undefined ? path.join(npmRoot.stdout.trim(), "npm") : ""
const VERSION = npmRoot.error === undefined ? spawnSync("npm", ["--version"], { encoding: "utf8" }).stdout.trim() : ""
const noNpx = npmRoot.error === undefined ? undefined : "npm is not installed"
const noCorepack = noNpx ?? (spawnSync("corepack", ["--version"]).error === undefined ? undefined : "corepack is not installed")
for (const reason of [noNpx, noCorepack]) if (reason !== undefined) console.warn(`real package-runner oracle skipped: ${reason}`)

const NO_PUBLISH = [rule("*", "allow"), rule("npm publish *", "deny")]
const PUBLISHED = "+ toolgate-oracle@1.0.0"
const DRY = ["publish", "--dry-run", "--offline", "--registry", "http://127.0.0.1:9/"]

if (noNpx === undefined) {
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "toolgate-oracle", version: "1.0.0", files: ["package.json"], dependencies: { npm: VERSION } }))
  mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true })
  symlinkSync(NPM, path.join(root, "node_modules", "npm"))
  symlinkSync(path.join("..", "npm", "bin", "npm-cli.js"), path.join(root, "node_modules", ".bin", "npm"))
  // corepack's cache entry for this npm: a folder with its `.corepack` record and a bin that runs the real one.
  const cached = path.join(root, ".corepack", "v1", "npm", VERSION)
  mkdirSync(path.join(cached, "bin"), { recursive: true })
  writeFileSync(path.join(cached, "bin", "npm-cli.js"), `require(${JSON.stringify(path.join(NPM, "bin", "npm-cli.js"))})\n`)
  writeFileSync(path.join(cached, ".corepack"), JSON.stringify({ locator: { name: "npm", reference: VERSION }, bin: { npm: "./bin/npm-cli.js" }, hash: "sha512.0" }))
}

describe.skipIf(noNpx !== undefined)("a package spec, against real npx", () => {
  it("npx npm@<version> publish publishes, and an npm publish * deny denies it", () => {
    const words = ["npx", "--offline", "-y", `npm@${VERSION}`, ...DRY]
    const found = run(words)
    expect(`${found.stdout}${found.stderr}`).toContain(PUBLISHED)
    expect(decide(words.join(" "), NO_PUBLISH).effect).toBe("deny")
  })
})

describe.skipIf(noCorepack !== undefined)("corepack, against real corepack", () => {
  it("corepack npm@<version> publish publishes, and an npm publish * deny denies it", () => {
    const words = ["corepack", `npm@${VERSION}`, ...DRY]
    const found = run(words)
    expect(`${found.stdout}${found.stderr}`).toContain(PUBLISHED)
    expect(decide(words.join(" "), NO_PUBLISH).effect).toBe("deny")
  })
})

describe("package specs and corepack, judged by the gate", () => {
  it("the command a spec or corepack names is judged as its bare name", () => {
    for (const line of ["npx -y npm@10 publish", "npm exec -- npm@latest publish", "corepack npm publish", "corepack npm@10.0.0 publish", "corepack pnpm@9 exec npm publish"]) {
      expect([line, decide(line, NO_PUBLISH).effect]).toEqual([line, "deny"])
    }
    expect(decide("npx npm@10 pub", NO_PUBLISH).effect).toBe("ask")
  })

  it("corepack's own commands and other packages are read as before", () => {
    expect(decide("corepack enable", NO_PUBLISH).effect).toBe("allow")
    expect(decide("npx eslint@9 .", NO_PUBLISH).effect).toBe("allow")
    expect(decide("corepack npm@10 publish", [rule("*", "allow"), rule("rm *", "deny")]).effect).toBe("allow")
  })
})
