/**
 * make's goals (BashSynonymsMake), against real make: each line below runs the `install` goal of a
 * Makefile the test wrote, though `install` is not the word after `make`, and the gate does not
 * allow it under `* allow` with `make install *` denied. Words make reads as option values or
 * assignments are not goals of this reading (the options before a sub-command are still read both
 * ways, BashParseOperation). The real-make part is skipped, with the reason printed, when make is
 * missing; the gate part needs no make.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BashSynonymsMake } from "../../../../src/tool/builtin/bash/synonyms-make.js"
import { decide, rule } from "../../../lib/bash-gate.js"

const unavailable = spawnSync("make", ["--version"]).error === undefined ? undefined : "make is not installed"
if (unavailable !== undefined) console.warn(`real-make goal oracle skipped: ${unavailable}`)

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-make-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const MAKEFILE = "all:\n\t@echo ran-all\ninstall:\n\t@echo ran-install\nd:\n\t@echo ran-d\n"
mkdirSync(path.join(root, "d"))
writeFileSync(path.join(root, "Makefile"), MAKEFILE)
writeFileSync(path.join(root, "d", "Makefile"), MAKEFILE)

const NO_INSTALL = [rule("*", "allow"), rule("make install *", "deny")]
const LINES = ["make VAR=1 install", "make all install", "make -k all install", "make -C d all install", "make -j 2 all install", "make -- all install", "make --directory d VAR=1 install"]

describe.skipIf(unavailable !== undefined)("make's goals, against real make", () => {
  it("each line runs install, and a make install * deny denies it", () => {
    for (const line of LINES) {
      const found = spawnSync("bash", ["-c", line], { cwd: root, encoding: "utf8", timeout: 30_000 })
      expect([line, found.stdout]).toEqual([line, expect.stringContaining("ran-install")])
      expect([line, decide(line, NO_INSTALL).effect]).toEqual([line, "deny"])
    }
  })
})

describe("make's goals, judged by the gate", () => {
  it("every goal is judged, whatever stands before it", () => {
    for (const line of LINES) expect([line, decide(line, NO_INSTALL).effect]).toEqual([line, "deny"])
    expect(BashSynonymsMake.goals(["make", "-j", "4", "-f", "m", "--file=n", "-Cd", "X=1", "a", "b"])).toEqual([8, 9])
    expect(BashSynonymsMake.goals(["make", "-j", "all"])).toEqual([2])
  })

  it("make without install, and too many goals to list", () => {
    expect(decide("make all test", NO_INSTALL).effect).toBe("allow")
    const many = `make ${Array.from({ length: BashSynonymsMake.MAX_GOALS + 1 }, (_, index) => `g${index}`).join(" ")}`
    expect(decide(many, NO_INSTALL).parsed.opaque).toBe(true)
  })
})
