/**
 * A program's versioned or flavoured name runs what its bare name runs (`perl5.36.0`, `php8.2`,
 * `zsh-5.9`, `vim.basic`): real bash shows the push through each one installed here, and the gate
 * reads each as the bare name's table does, and judges it by the bare name's rules too.
 */
import { afterAll, describe, expect, it } from "vitest"
import { BashProgramNames } from "../../../../src/tool/builtin/bash/names.js"
import { decide, rule } from "../../../lib/bash-gate.js"
import { cleanup, installed, pushes } from "../../../lib/bash-push-marker.js"

afterAll(cleanup)
const RULES = [rule("*", "allow"), rule("git push *", "deny"), rule("perl *", "deny")]
const effect = (command: string) => decide(command, RULES).effect

describe("BashProgramNames.stem", () => {
  const stems: ReadonlyArray<readonly [string, string | undefined]> = [
    ["perl5.36.0", "perl"],
    ["tclsh8.6", "tclsh"],
    ["zsh-5.9", "zsh"],
    ["ksh93", "ksh"],
    ["python3.11-dbg", "python"],
    ["python3.13t", "python"],
    ["g++-12", "g++"],
    ["vim.basic", "vim"],
    ["bash-static", "bash"],
    ["editor", "vim"],
    ["pager", "less"],
    ["perl", undefined],
    ["x86_64", undefined],
    ["sha256sum", undefined],
    ["ld.so", undefined],
  ]
  for (const [name, stem] of stems) it(`reads ${name} as ${String(stem)}`, () => expect(BashProgramNames.stem(name)).toBe(stem))
  it("keeps an exact entry before the stem", () => expect(BashProgramNames.lookup(new Map([["python3", 3], ["python", 1]]), "python3")).toBe(3))
})

describe("versioned names run what the bare name runs", () => {
  // Each pushed under real bash where the program is installed; the gate allowed each before.
  const lines: ReadonlyArray<readonly [string, string]> = [
    ["perl5.36.0", `perl5.36.0 -e 'system("git push o")'`],
    ["bash-static", "bash-static -c 'git push o'"],
    ["zsh-5.9", "zsh-5.9 -c 'git push o'"],
    ["ksh93", "ksh93 -c 'git push o'"],
    ["php8.2", `php8.2 -r 'system("git push o");'`],
    ["ruby3.1", `ruby3.1 -e 'system("git push o")'`],
    ["vim.basic", "vim.basic -Es -c '!git push o' -c q"],
    ["editor", "editor -Es -c '!git push o' -c q"],
  ]
  for (const [program, line] of lines) {
    it.runIf(installed(program))(`pushes through ${program} (real bash)${installed(program) ? "" : ` (skipped: ${program} is not installed here)`}`, () => expect(pushes(line)).toBe("git push o"))
    it(`does not allow ${line}`, () => expect(effect(line)).not.toBe("allow"))
  }

  it("judges a versioned name by the bare name's rules, and leaves exact names alone", () => {
    expect(effect("perl5.36.0 x.pl")).toBe("deny")
    expect(decide("perl5.36.0 x.pl", RULES).parsed.resources.map((resource) => resource.text)).toEqual(["perl5.36.0 x.pl", "perl x.pl"])
    expect(decide("python3 x.py", RULES).parsed.resources.map((resource) => resource.text)).toEqual(["python3 x.py"])
    expect(decide("base64 x", RULES).parsed.resources.map((resource) => resource.text)).toEqual(["base64 x"])
    expect(effect("python3.11-dbg x.py")).toBe("allow")
  })
})
