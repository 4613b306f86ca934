/**
 * Variables that choose what a program runs (parse-guard.ts), the sixth review's family: less
 * reads every setting from a `LESS…` variable, and a lesskey source's `#env` section sets the
 * others, so `LESSKEYIN=./k less f` runs the `LESSOPEN` command `./k` names even when less writes
 * to a pipe. Real bash and real less push through each spelling; the gate allowed each under a
 * `git push *` deny and now asks.
 */
import { writeFileSync } from "node:fs"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../../../lib/bash-gate.js"
import { cleanup, folder, installed, pushes } from "../../../lib/bash-push-marker.js"

afterAll(cleanup)
const RULES = [rule("*", "allow"), rule("git push *", "deny")]
const effect = (command: string) => decide(command, RULES).effect

/** A lesskey source whose `#env` section names the push as less's input preprocessor. */
const LESSKEY = "#env\nLESSOPEN=|git push o %s\n"
writeFileSync(path.join(folder, "k"), LESSKEY)
writeFileSync(path.join(folder, "f.txt"), "text\n")

const LINES = ["LESSKEYIN=./k less f.txt", "LESSKEYIN_SYSTEM=./k less f.txt", "export LESSKEYIN=./k; less f.txt", "LESSKEY_SYSTEM=./k less f.txt", "env LESSKEYIN=./k less f.txt"]

describe("less's own variables (real bash and less)", () => {
  const runs = installed("less")
  for (const line of LINES.slice(0, 3)) {
    it.runIf(runs)(`pushes: ${line}${runs ? "" : " (skipped: less is not installed here)"}`, () => expect(pushes(`${line} | cat`)).toBe("git push o f.txt"))
  }
  for (const line of LINES) it(`asks ${line}`, () => expect(effect(line)).toBe("ask"))

  it("asks for any LESS variable, set or exported, and still reads $LESS", () => {
    for (const line of ["LESSCHARSET=utf-8 less f", "LESSKEY_CONTENT='#env' less f", "export LESSGLOBALTAGS=global; less -t x"]) expect([line, effect(line)]).toEqual([line, "ask"])
    for (const line of ["less f.txt", "echo $LESS", "git log | less"]) expect([line, effect(line)]).toEqual([line, "allow"])
  })

  it.runIf(runs)(`pushes through the home's .lesskey, a protected path${runs ? "" : " (skipped: less is not installed here)"}`, () => {
    writeFileSync(path.join(folder, ".lesskey"), LESSKEY)
    expect(pushes("less f.txt | cat")).toBe("git push o f.txt")
  })
})
