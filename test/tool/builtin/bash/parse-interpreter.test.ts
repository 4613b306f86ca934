/**
 * Programs whose standard input is a command language (parse-interpreter.ts), the sixth review's
 * family: a mail reader's `!cmd` (`printf '!git push o\n' | mail -N -f mb`), irb's and jshell's
 * REPL, erb's template. Real bash pushes through each one installed here; the gate allowed each
 * under a `git push *` deny (the program fed by a pipe), and now asks. Sending a mail, a script
 * file and a static input file are read as before.
 */
import { writeFileSync } from "node:fs"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../../../lib/bash-gate.js"
import { cleanup, folder, installed, pushes } from "../../../lib/bash-push-marker.js"

afterAll(cleanup)
const RULES = [rule("*", "allow"), rule("git push *", "deny")]
const effect = (command: string) => decide(command, RULES).effect

// An empty mailbox: `mail -f` reads its commands all the same.
writeFileSync(path.join(folder, "mb"), "")

/** [program that must be installed for the real run, line]: each asks now. */
const LINES: ReadonlyArray<readonly [string, string]> = [
  ["mail", "printf '!git push o\\n' | mail -N -f mb"],
  ["mail", "printf '!git push o\\n' | mail -Nf mb"],
  ["mailx", "mailx -N -f mb <<< '!git push o'"],
  ["irb", `printf 'system("git push o")\\n' | irb`],
  ["irb", `irb --noecho <<< 'system("git push o")'`],
  ["erb", "printf '<%%= `git push o` %%>' | erb"],
  ["jshell", `printf 'Runtime.getRuntime().exec(new String[]{"git","push","o"}).waitFor();\\n/exit\\n' | jshell -q`],
]

describe("a command language on standard input runs the push (real bash), and asks", () => {
  for (const [program, line] of LINES) {
    const runs = installed(program)
    it.runIf(runs)(`pushes: ${line}${runs ? "" : ` (skipped: ${program} is not installed here)`}`, () => expect(pushes(line)).toBe("git push o"), 60_000)
    it(`asks ${line}`, () => expect(effect(line)).toBe("ask"))
  }
})

describe("what the gate reads of them", () => {
  it("asks for a mailbox read on a fed input, an option that runs commands, a fed client", () => {
    const lines = ["printf 'q\\n' | mail -N", "echo x | mail -Y '!git push o' me@x", "printf '!git push o\\n' | ftp h", "lftp -c 'open h; !git push o'", "printf '!x' | telnet", "smbclient -c '!x' //h/s", "irb -r ./x", "erb -r ./x t.erb", "jshell -R-javaagent:x.jar"]
    for (const line of lines) expect([line, effect(line)]).toEqual([line, "ask"])
  })

  it("still allows sending a mail, a script file and a static input file", () => {
    const lines = ["echo body | mail -s subj me@x", "echo body | mail -s 'a b' -c cc@x me@x", "mail -s subj me@x < body.txt", "mail -N -f mb < cmds", "irb x.rb", "erb t.erb", "jshell x.jsh", "ftp h < cmds"]
    for (const line of lines) expect([line, effect(line)]).toEqual([line, "allow"])
  })
})
