/**
 * Programs the tables did not read that run a command or code from their words (the fifth outside
 * review): shells by another name (`rbash`, `posh`, `hush`), languages that are not bash's (Tcl's
 * `tclsh`, `expect`, `tcsh`, `xonsh`, …), runners of later words (`capsh --`, `memusage`,
 * `heaptrack`, the dynamic loader, `ip netns exec`, `conda run`, `cmake -E env`, …), python's
 * `-m timeit`, `-m code`, `m4`. Real bash pushes through each
 * one installed here; the gate allowed each under a `git push *` deny, and now denies or asks.
 */
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../../../lib/bash-gate.js"
import { cleanup, installed, pushes } from "../../../lib/bash-push-marker.js"

afterAll(cleanup)
const RULES = [rule("*", "allow"), rule("git push *", "deny")]
const effect = (command: string) => decide(command, RULES).effect

/** [program that must be installed for the real run, line, the gate's answer now]. */
const LINES: ReadonlyArray<readonly [string, string, "deny" | "ask"]> = [
  ["rbash", "rbash -c 'git push o'", "deny"],
  ["posh", "posh -c 'git push o'", "deny"],
  ["busybox", "busybox sh -c 'git push o'", "deny"],
  ["busybox", "busybox ash -c 'git push o'", "deny"],
  ["tclsh", "tclsh <<< 'exec git push o'", "ask"],
  ["tclsh8.6", "tclsh8.6 <<< 'exec git push o'", "ask"],
  ["tclsh", "echo 'exec git push o' | tclsh", "ask"],
  ["expect", "expect -c 'spawn git push o; expect eof'", "ask"],
  ["tcsh", "tcsh -c 'git push o'", "ask"],
  ["csh", "csh -c 'git push o'", "ask"],
  ["xonsh", "xonsh -c 'git push o'", "ask"],
  ["capsh", "capsh -- -c 'git push o'", "ask"],
  ["heaptrack", "heaptrack git push o", "ask"],
  ["memusage", "memusage git push o", "ask"],
  ["ld.so", "ld.so /bin/sh -c 'git push o'", "ask"],
  ["bash", "/lib64/ld-linux-x86-64.so.2 /bin/sh -c 'git push o'", "ask"],
  ["entr", "touch x; echo x | entr -nz git push o", "ask"],
  ["hyperfine", "hyperfine -r 1 'git push o'", "ask"],
  ["logsave", "logsave log git push o", "deny"],
  // cmake's tool mode runs a command, which is judged.
  ["cmake", "cmake -E env FOO=1 git push o", "deny"],
  ["cmake", "cmake -E time git push o", "deny"],
  ["cmake", "cmake -E chdir . git push o", "deny"],
  ["m4", "m4 <<< 'syscmd(git push o)'", "ask"],
  // The sixth review: busybox's cttyhack runs its words.
  ["busybox", "busybox cttyhack git push o", "ask"],
  ["emacs", `emacs --batch --eval '(shell-command "git push o")'`, "ask"],
  // Python's standard modules that run inline code or a REPL on standard input.
  ["python3", `python3 -m timeit -n1 -r1 "__import__('os').system('git push o')"`, "ask"],
  ["python3", `python3 -mtimeit -n1 -r1 "__import__('os').system('git push o')"`, "ask"],
  ["python3", `python3 -m code <<< "__import__('os').system('git push o')"`, "ask"],
  ["python3", `python3 -m asyncio <<< "__import__('os').system('git push o')"`, "ask"],
]

describe("programs the tables did not read run the push (real bash) and are not allowed", () => {
  for (const [program, line, answer] of LINES) {
    const runs = installed(program) && (!line.includes("ld-linux") || installed("/lib64/ld-linux-x86-64.so.2"))
    it.runIf(runs)(`pushes: ${line}${runs ? "" : ` (skipped: ${program} is not installed here)`}`, () => expect(pushes(line)).toBe("git push o"))
    it(`${answer}s ${line}`, () => expect(effect(line)).toBe(answer))
  }
})

describe("what the gate reads of them", () => {
  it("asks for runners whose real run needs a daemon or privileges here", () => {
    for (const line of ["ip netns exec ns git push o", "ip netns e ns git push o", "ip -b cmds", "ip --batch cmds", "systemd-inhibit git push o", "systemd-cat git push o", "run0 git push o"])
      expect([line, effect(line)]).toEqual([line, "ask"])
    for (const line of ["cmake -E copy x .git/hooks/pre-commit", "cmake -E create_symlink x y", "gnuplot -e 'system(\"git push o\")'", "conda run -n x git push o", "mise exec -- git push o", "pyenv exec git push o", "nix develop -c git push o", "op run -- git push o", "dotenv run git push o", "sshpass -p x git push o", "ccache git push o", "cttyhack git push o", "run-init / git push o", "zrun git push o x.gz"])
      expect([line, effect(line)]).toEqual([line, "ask"])
  })

  it("still allows their commands that run nothing, and scripts judged by their words", () => {
    for (const line of ["cmake -B build", "cmake --build build", "cmake -E echo hi", "m4 x.m4", "python3 -m venv v", "python3 -m pytest", "python3 -m code", "ip -br a", "ip route show", "conda install x", "mise install", "pyenv versions", "tclsh x.tcl", "tcsh x.csh", "expect x.exp", "ld x.o -o y", "rbash -c ls"])
      expect([line, effect(line)]).toEqual([line, "allow"])
  })
})
